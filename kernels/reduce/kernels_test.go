package reduce_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/reduce/reducetest"
)

// TestKernels checks every kernel, in both forms, on every device present
// against the reference runner (told the device's wave width), at every
// pass of reducetest.Passes.
func TestKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, p := range reducetest.Passes(smallShapes()) {
			t.Run(p.String(), func(t *testing.T) { gputest.Check(t, d, reducetest.At(p)) })
		}
	})
}
