package bandwidth_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant/internal/bandwidth"
)

// TestMain runs the tests, then the kernel census of the package: a
// reference point means something only for a kernel that computes what
// its reference does.
func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, "github.com/goxpu/xpu/kernels/quant/internal/bandwidth", nil))
}

// TestCopy checks Copy on every device present against the reference
// runner, at a length whose last block is partial.
func TestCopy(t *testing.T) {
	const n = 3000
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		gputest.Check(t, d, []*gputest.Case{{
			Kernel: bandwidth.CopyKernel,
			Tol:    gputest.Exact,
			Setup: func(r *rand.Rand) gputest.Inputs {
				x := make([]uint32, n)
				for i := range x {
					x[i] = r.Uint32()
				}
				return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(n, 256)}, Args: []gputest.Arg{
					gputest.Poisoned[uint32](n), gputest.Buffer(x), gputest.Scalar(uint32(n)),
				}}
			},
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				return bandwidth.LaunchCopy(s, g, gputest.At[*gpu.Buffer[uint32]](a, 0), gputest.At[*gpu.Buffer[uint32]](a, 1), gputest.At[uint32](a, 2))
			},
		}})
	})
}
