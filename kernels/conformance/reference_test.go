package conformance_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestReferenceDeterministic runs every case's reference twice on the same
// inputs: the results must agree bit for bit, or the case cannot judge a
// device.
func TestReferenceDeterministic(t *testing.T) {
	for _, c := range conformance.Cases() {
		t.Run(c.Name(), func(t *testing.T) {
			var runs [2][]any
			for i := range runs {
				runs[i] = referenceRun(t, c, 1)
			}
			if !gputest.SameBits(runs[0], runs[1]) {
				t.Error("two reference runs on the same inputs differ")
			}
		})
	}
}

// referenceRun runs c's reference on inputs made from seed and returns the
// final arguments.
func referenceRun(t *testing.T, c *gputest.Case, seed uint64) []any {
	t.Helper()
	in := c.Setup(rand.New(rand.NewPCG(seed, 0)))
	args := gputest.ReferenceArgs(in)
	if err := c.Kernel.Reference(in.Groups, args...); err != nil {
		t.Fatal(err)
	}
	return args
}

// TestReferenceValues spot-checks reference results that Go defines and
// devices get wrong first.
func TestReferenceValues(t *testing.T) {
	out := make([]int32, 5)
	a, b := []int32{math.MinInt32}, []int32{-1}
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 1}, Block: xpu.Dim3{X: 64}}, conformance.IntArith, out, a, b, uint32(1)); err != nil {
		t.Fatal(err)
	}
	if out[3] != math.MinInt32 || out[4] != 0 {
		t.Errorf("MinInt32 / -1 = %d rem %d, want MinInt32 rem 0", out[3], out[4])
	}
	ints, uints := make([]int32, 2), make([]uint32, 2)
	err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 1}, Block: xpu.Dim3{X: 64}}, conformance.Shifts,
		ints, uints, []int32{-5}, []uint32{0xffffffff}, []uint32{40}, uint32(1))
	if err != nil {
		t.Fatal(err)
	}
	if ints[0] != 0 || ints[1] != -1 || uints[0] != 0 || uints[1] != 0 {
		t.Errorf("shifts by 40: %v %v, want [0 -1] [0 0]", ints, uints)
	}
}

// TestReferenceRefuses: the handle's reference refuses what a launch
// refuses, with the same errors: a member its requires clause refuses, a
// slice shorter than its declared length, aliasing a dispatch cannot
// bind, arguments of the wrong type, an empty grid.
func TestReferenceRefuses(t *testing.T) {
	const n = 300
	y, x := make([]float32, n), make([]float32, n)
	groups := xpu.Dim3{X: xpu.GroupsFor(n, 256)}
	both := make([]float32, 2*n)
	for _, c := range []struct {
		name     string
		err      error
		sentinel error
		words    []string
	}{
		{"requires", conformance.ScaleNegKernel.Reference(xpu.Dim3{X: 1}, make([]int32, 64), uint32(64)), gpu.ErrRefused, []string{"ScaleNeg", "requires c.Factor > 0 is false"}},
		{"declared length", conformance.SaxpyKernel.Reference(groups, y[:n-1], x, float32(2), uint32(n)), gpu.ErrBufferLen, []string{"Saxpy", "parameter y", "n = 300"}},
		{"same slice twice", conformance.SaxpyKernel.Reference(groups, y, y, float32(2), uint32(n)), gpu.ErrArgs, []string{"parameter x", "the same buffer"}},
		{"written and read views", conformance.SaxpyKernel.Reference(groups, both[:n], both[n:], float32(2), uint32(n)), gpu.ErrArgs, []string{"parameter x", "one written and one read only"}},
		{"element type", conformance.SaxpyKernel.Reference(groups, make([]int32, n), x, float32(2), uint32(n)), gpu.ErrArgs, []string{"parameter y", "want []float32"}},
		{"scalar type", conformance.SaxpyKernel.Reference(groups, y, x, 2.0, uint32(n)), gpu.ErrArgs, []string{"parameter a"}},
		{"empty grid", conformance.SaxpyKernel.Reference(xpu.Dim3{}, y, x, float32(2), uint32(n)), gpu.ErrGrid, []string{"Saxpy"}},
	} {
		if !errors.Is(c.err, c.sentinel) {
			t.Errorf("%s: err = %v, want %v", c.name, c.err, c.sentinel)
			continue
		}
		for _, w := range c.words {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("%s: %v\ndoes not say %q", c.name, c.err, w)
			}
		}
	}
}

// TestReferenceTemplateMember: a member's reference runs the template's
// function with the member's comptime value, from the handle alone.
func TestReferenceTemplateMember(t *testing.T) {
	const n = 200
	in := make([]int32, n)
	for i := range in {
		in[i] = rand.Int32N(1000) - 500
	}
	got, want := slices.Clone(in), slices.Clone(in)
	if err := conformance.Scale3Kernel.Reference(xpu.Dim3{X: xpu.GroupsFor(n, 64)}, got, uint32(n)); err != nil {
		t.Fatal(err)
	}
	cfg := xpu.Config{Groups: xpu.Dim3{X: xpu.GroupsFor(n, 64)}, Block: conformance.Scale3Kernel.Block()}
	if err := xpu.Run(cfg, conformance.Scale, conformance.ScaleParams{Factor: 3, Offset: -7}, want, uint32(n)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Scale3's reference differs from Scale with Factor 3, Offset -7")
	}
}

// TestDeviceReferenceRefuses: a device's reference refuses a refused
// member as a launch on that device does.
func TestDeviceReferenceRefuses(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		in := make([]int32, 64)
		ref := d.Reference(conformance.ScaleNegKernel, xpu.Dim3{X: 1}, in, uint32(64))
		launch := d.Stream().Launch(conformance.ScaleNegKernel, xpu.Dim3{X: 1}, (*gpu.Buffer[int32])(nil), uint32(64))
		if !errors.Is(ref, gpu.ErrRefused) || ref.Error() != launch.Error() {
			t.Errorf("reference: %v\nlaunch:    %v\nwant the same refusal", ref, launch)
		}
	})
}
