package gpu

import (
	"errors"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// TestCheckGrid checks the grid rules: each axis within the device's
// groups on that axis (MaxGrid where the axes differ), or, for code that
// folds its grid, at most driver.MaxFoldedGroups groups in all.
func TestCheckGrid(t *testing.T) {
	webgpu := Limits{MaxGroups: 65535}
	cuda := Limits{MaxGroups: 65535, MaxGrid: xpu.Dim3{X: 1<<31 - 1, Y: 65535, Z: 65535}}
	cases := []struct {
		name   string
		lim    Limits
		groups xpu.Dim3
		folds  bool
		refuse string // "" when the grid runs
	}{
		{"within", webgpu, xpu.Dim3{X: 65535, Y: 65535, Z: 1}, false, ""},
		{"X beyond", webgpu, xpu.Dim3{X: 65536}, false, "exceeds the device's 65535 groups per dimension"},
		{"X beyond, folded", webgpu, xpu.Dim3{X: 100003}, true, ""},
		{"Y beyond, folded", webgpu, xpu.Dim3{X: 5, Y: 70000}, true, ""},
		{"more than a fold holds", webgpu, xpu.Dim3{X: 1 << 16, Y: 1 << 15, Z: 2}, true, "a folded grid holds at most 2147483648 groups"},
		{"CUDA's long X", cuda, xpu.Dim3{X: 1 << 20}, false, ""},
		{"CUDA's Y", cuda, xpu.Dim3{X: 1, Y: 65536}, false, "exceeds the device's {2147483647 65535 65535} groups per axis"},
		{"no limit", Limits{}, xpu.Dim3{X: 1 << 20}, false, ""},
	}
	k := stagedKernel
	for _, c := range cases {
		_, err := checkGrid(k, c.groups, c.lim, c.folds)
		switch {
		case c.refuse == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.refuse != "" && (!errors.Is(err, ErrGrid) || !strings.Contains(err.Error(), c.refuse)):
			t.Errorf("%s: err = %v, want ErrGrid saying %q", c.name, err, c.refuse)
		}
	}
	if _, folded, ok := driver.Fold(xpu.Dim3{X: 100003}, 65535); !folded || !ok {
		t.Errorf("driver.Fold of 100003 groups: folded %v, ok %v", folded, ok)
	}
}
