package quant_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant/quanttest"
)

// TestKernels checks every kernel of quanttest.Cases on every device
// present against the reference runner: dequantize (a work-item per
// value, and striding), the mat-vecs, the mat-muls and the packing.
func TestKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		gputest.Check(t, d, quanttest.Cases(smallShapes()))
	})
}
