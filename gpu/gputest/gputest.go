// Package gputest tests kernels on the devices of the xpu runtime
// against the reference runner: it opens every compiled-in backend that
// has a device on this machine ([ForEach]), runs a kernel's [Case] on a
// device and on the reference runner with the same fresh random inputs,
// outputs poisoned and guarded, and compares every buffer within a named
// [Tolerance] ([Run], [Check]), and takes the kernel census of a package
// after its tests ([RunWithCensus]). It is the harness every suite runs
// (the conformance and wave suites, any kernel package's own cases) and
// links no kernels of its own, as gonum's blas/testblas serves every
// implementation of blas.
//
// The environment variable XPU_REQUIRE (a comma-separated list of backend
// names, e.g. "webgpu,cpu") names backends whose absence fails the test
// instead of skipping it. It may also name requirements that are not
// backends (see [NotBackends]), which the tests that need them read with
// [Requires]. XPU_SEED ([SeedEnv]) fixes the inputs of a run.
//
// Layering: it imports the runtime (gpu) and the kernel vocabulary (xpu)
// only; kernel packages, backends and programs that run suites import it.
package gputest

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
)

// Required returns the backends named by XPU_REQUIRE.
func Required() []string {
	var names []string
	for _, n := range strings.Split(os.Getenv("XPU_REQUIRE"), ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}

// NotBackends are the names XPU_REQUIRE may hold that are not backends:
// "browser" requires the headless-browser test of package wasm to run.
var NotBackends = []string{"browser"}

// Requires reports whether XPU_REQUIRE names name.
func Requires(name string) bool { return slices.Contains(Required(), name) }

// Devices opens a device of every compiled-in backend present, closing
// them when the test ends. A backend that cannot open is logged and
// skipped, unless XPU_REQUIRE names it: then the test fails with the open
// error. A required backend that is not compiled in fails the test too.
func Devices(t testing.TB) []*gpu.Device {
	t.Helper()
	required := Required()
	compiled := gpu.Backends()
	for _, name := range required {
		if !slices.Contains(compiled, name) && !slices.Contains(NotBackends, name) {
			t.Fatalf("XPU_REQUIRE names backend %q, which is not compiled in (have %v)", name, compiled)
		}
	}
	var devs []*gpu.Device
	for _, name := range compiled {
		d, err := gpu.OpenBackend(name)
		if err != nil {
			if slices.Contains(required, name) {
				t.Fatalf("required backend %s: %v", name, err)
			}
			t.Logf("backend %s skipped: %v", name, err)
			continue
		}
		t.Cleanup(func() {
			if err := d.Close(); err != nil {
				t.Errorf("closing %s device: %v", name, err)
			}
		})
		devs = append(devs, d)
	}
	return devs
}

// ForEach runs f as a subtest per device that Devices opens, named by
// its backend. With no device at all, the test is skipped.
func ForEach(t *testing.T, f func(t *testing.T, d *gpu.Device)) {
	t.Helper()
	devs := Devices(t)
	if len(devs) == 0 {
		t.Skipf("no device: backends compiled in: %v", gpu.Backends())
	}
	for _, d := range devs {
		t.Run(d.Backend(), func(t *testing.T) { f(t, d) })
	}
}
