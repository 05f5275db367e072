package cpu_test

import (
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/schema"
)

// TestForcedByEnvironment checks that XPU_BACKEND=cpu opens this backend.
func TestForcedByEnvironment(t *testing.T) {
	t.Setenv("XPU_BACKEND", "cpu")
	d, err := gpu.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := d.Info().Backend; got != "cpu" {
		t.Fatalf("XPU_BACKEND=cpu opened %q", got)
	}
}

// TestLastInOrder checks that the runtime knows this backend and tries it
// last, so that Open falls back to it when no GPU backend has a device.
func TestLastInOrder(t *testing.T) {
	names := gpu.Backends()
	if len(names) == 0 || names[len(names)-1] != "cpu" {
		t.Fatalf("backends %v: want cpu compiled in and tried last", names)
	}
	if len(names) == 1 || slices.Equal(names, []schema.Backend{schema.BackendCPU}) {
		t.Setenv("XPU_BACKEND", "")
		d, err := gpu.Open()
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if got := d.Info().Backend; got != "cpu" {
			t.Fatalf("with only the CPU backend compiled in, Open opened %q", got)
		}
	}
}
