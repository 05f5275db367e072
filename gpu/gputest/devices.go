package gputest

// This file opens the devices tests run on.

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/schema"
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
// "browser" requires the headless-browser test of package wasm to run,
// "llvm-host" the CPU backend's host tier (and the LLVM sidecar's tests).
var NotBackends = []string{"browser", "llvm-host"}

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
		if !slices.Contains(compiled, schema.Backend(name)) && !slices.Contains(NotBackends, name) {
			t.Fatalf("XPU_REQUIRE names backend %q, which is not compiled in (have %v)", name, compiled)
		}
	}
	var devs []*gpu.Device
	for _, name := range compiled {
		d, err := gpu.OpenBackend(name)
		if err != nil {
			if slices.Contains(required, string(name)) {
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
		if name == schema.BackendCPU && Requires(string(schema.TargetLLVMHost)) && d.Info().Native != schema.TargetLLVMHost {
			t.Fatalf("XPU_REQUIRE names llvm-host, and the CPU device runs no host code (its tier: XPU_CPU_TIER=%q)", os.Getenv("XPU_CPU_TIER"))
		}
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
		t.Run(string(d.Backend()), func(t *testing.T) { f(t, d) })
	}
}
