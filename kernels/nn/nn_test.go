package nn_test

import (
	"os"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/nn/nntest"
)

func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, "github.com/goxpu/xpu/kernels/nn", nil))
}

// TestKernels checks every kernel of nntest.Cases on every device present
// against the reference runner.
func TestKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, nntest.Cases()) })
}
