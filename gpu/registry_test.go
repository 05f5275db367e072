package gpu_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/schema"
)

func TestRegistry(t *testing.T) {
	k, ok := gpu.Lookup(saxpyKernel.Name())
	if !ok || k != saxpyKernel {
		t.Fatalf("Lookup(%q) = %v, %v", saxpyKernel.Name(), k, ok)
	}
	if _, ok := gpu.Lookup("no.Such"); ok {
		t.Fatal("Lookup found an unregistered name")
	}
	ks := gpu.Kernels()
	if !slices.IsSortedFunc(ks, func(a, b *gpu.Kernel) int { return strings.Compare(a.Name(), b.Name()) }) {
		t.Fatal("Kernels is not sorted")
	}
	if !slices.Contains(ks, stepKernel) {
		t.Fatal("Kernels misses a registered kernel")
	}
	if b := scrambleKernel.Block(); b != (xpu.Dim3{X: 8, Y: 4, Z: 1}) {
		t.Fatalf("Block() = %v", b)
	}
	spec := stepKernel.Spec()
	spec.Params[0].Name = "changed"
	if stepKernel.Spec().Params[0].Name != "ps" {
		t.Fatal("Spec returned the registry's own copy")
	}
}

func TestBackends(t *testing.T) {
	names := gpu.Backends()
	order := []schema.Backend{schema.BackendCUDA, schema.BackendHIP, schema.BackendWebGPU, schema.BackendCPU}
	last := -1
	for _, n := range names {
		i := slices.Index(order, n)
		if i < last {
			t.Fatalf("Backends() = %v: not in the order %v", names, order)
		}
		last = i
	}
	_, err := gpu.OpenBackend("no-such-backend")
	if !errors.Is(err, gpu.ErrUnavailable) {
		t.Fatalf("OpenBackend of an unknown backend: %v", err)
	}
	t.Setenv("XPU_BACKEND", "no-such-backend")
	if _, err := gpu.Open(); !errors.Is(err, gpu.ErrUnavailable) {
		t.Fatalf("Open with XPU_BACKEND naming an unknown backend: %v", err)
	}
	for _, n := range names {
		t.Setenv("XPU_BACKEND", string(n))
		d, err := gpu.Open()
		if err != nil {
			t.Logf("XPU_BACKEND=%s: %v", n, err)
			continue
		}
		if d.Backend() != n || d.Info().Backend != n {
			t.Errorf("XPU_BACKEND=%s opened %s (%s)", n, d.Backend(), d.Info().Backend)
		}
		d.Close()
	}
}
