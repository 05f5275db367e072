package conformance_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestConformance runs every case on every device present.
func TestConformance(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, conformance.Cases()) })
}

// TestStreamCases runs the cases of the runtime's streams (capture and
// replay, two streams on one buffer) on every device present.
func TestStreamCases(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, conformance.StreamCases()) })
}

// TestRefusedMember checks that launching the refused template member
// fails with gpu.ErrRefused, naming the member and its failing clause.
func TestRefusedMember(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, err := gpu.NewBuffer[int32](d, 64)
		if err != nil {
			t.Fatal(err)
		}
		defer y.Release()
		err = d.Stream().Launch(conformance.ScaleNegKernel, xpu.Dim3{X: 1}, y, uint32(64))
		if !errors.Is(err, gpu.ErrRefused) {
			t.Fatalf("launching ScaleNeg: err = %v, want one wrapping gpu.ErrRefused", err)
		}
		for _, want := range []string{"ScaleNeg", "c.Factor > 0"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("launching ScaleNeg: error %q does not name %q", err, want)
			}
		}
	})
}

// TestCasesCoverKernels checks that every kernel the package registers
// with code has a case, and that no two cases share a kernel.
func TestCasesCoverKernels(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range conformance.Cases() {
		if seen[c.Kernel.Name()] {
			t.Errorf("two cases for %s", c.Kernel.Name())
		}
		seen[c.Kernel.Name()] = true
	}
	prefix := "github.com/goxpu/xpu/kernels/conformance."
	for _, k := range gpu.Kernels() {
		if strings.HasPrefix(k.Name(), prefix) && k.Refused() == "" && !seen[k.Name()] {
			t.Errorf("kernel %s has no case", k.Name())
		}
	}
	if len(seen) < 30 {
		t.Errorf("%d cases, want at least 30", len(seen))
	}
}
