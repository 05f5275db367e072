package gputest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
)

// recorder is a testing.TB whose Fatalf records the failure and stops the
// call, as the real one does.
type recorder struct {
	testing.TB
	fatal string
}

type stopped struct{}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	panic(stopped{})
}

// devices runs Devices on a recorder and returns what it opened and the
// failure it reported.
func devices(t *testing.T) ([]*gpu.Device, string) {
	r := &recorder{TB: t}
	var devs []*gpu.Device
	func() {
		defer func() {
			if v := recover(); v != nil && v != (stopped{}) {
				panic(v)
			}
		}()
		devs = Devices(r)
	}()
	return devs, r.fatal
}

func TestRequired(t *testing.T) {
	t.Setenv("XPU_REQUIRE", " webgpu, ,cpu ")
	if got := Required(); !slices.Equal(got, []string{"webgpu", "cpu"}) {
		t.Fatalf("Required() = %q", got)
	}
}

func TestRequiredMissingFails(t *testing.T) {
	t.Setenv("XPU_REQUIRE", "no-such-backend")
	_, fatal := devices(t)
	if !strings.Contains(fatal, "no-such-backend") {
		t.Fatalf("a required backend that is absent did not fail the test (failure: %q)", fatal)
	}
}

func TestOptionalMissingSkips(t *testing.T) {
	t.Setenv("XPU_REQUIRE", "")
	devs, fatal := devices(t)
	if fatal != "" {
		t.Fatalf("no backend is required, yet Devices failed: %s", fatal)
	}
	for _, d := range devs {
		if !slices.Contains(gpu.Backends(), d.Backend()) {
			t.Errorf("opened %s, which Backends() does not list", d.Backend())
		}
	}
}

func TestForEachNamesSubtests(t *testing.T) {
	t.Setenv("XPU_REQUIRE", "")
	var seen []string
	ForEach(t, func(t *testing.T, d *gpu.Device) {
		if !strings.HasSuffix(t.Name(), "/"+d.Backend()) {
			t.Errorf("subtest %s for backend %s", t.Name(), d.Backend())
		}
		seen = append(seen, d.Backend())
	})
	t.Logf("devices: %v", seen)
}

func TestRequiredNotBackend(t *testing.T) {
	t.Setenv("XPU_REQUIRE", "cpu,browser")
	if !Requires("browser") || Requires("hip") {
		t.Fatalf("Requires: browser %v, hip %v", Requires("browser"), Requires("hip"))
	}
	devs, fatal := devices(t)
	if fatal != "" {
		t.Fatalf("a requirement that is not a backend failed the test: %s", fatal)
	}
	for _, d := range devs {
		d.Close()
	}
}
