package blas_test

import (
	"os"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/blas/blastest"
)

// TestMain runs the tests, then the kernel census of the package: every
// kernel must compute what its reference does on every backend it ran on.
func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, "github.com/goxpu/xpu/kernels/blas", nil))
}

// element returns element i of a vector of n elements stored inc apart.
func element(v []float32, n, inc, i int) float32 {
	if inc < 0 {
		return v[(n-1-i)*-inc]
	}
	return v[i*inc]
}

// TestKernels checks GemvN, GemvT, Axpy and Scal on every device present
// against the reference runner in every layout of blastest.Cases.
func TestKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		gputest.Check(t, d, blastest.Cases(testing.Short() || underRace))
	})
}
