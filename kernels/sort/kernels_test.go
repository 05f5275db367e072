package sort_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/sort/sorttest"
)

// TestKernels checks every kernel on every device present against the
// reference runner, bit for bit, at every pass and run of sorttest.Cases,
// on keys of any value and keys of few values.
func TestKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		gputest.Check(t, d, sorttest.Cases(smallShapes()))
	})
}
