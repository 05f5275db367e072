package kernels_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// TestMain runs the tests, then the kernel census of the package: a
// benchmark's figure means something only for a kernel that computes what
// its reference does, on every backend it runs on.
func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, "github.com/goxpu/xpu/bench/internal/kernels", nil))
}

// TestKernels runs every benchmark kernel on every device present against
// the reference runner.
func TestKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, cases()) })
}

// buf returns the i-th argument of a launch as a buffer of float32.
func buf(args []any, i int) *gpu.Buffer[float32] { return gputest.At[*gpu.Buffer[float32]](args, i) }

// cases are the benchmark kernels' cases, at sizes whose last block is
// partial where the kernel allows one.
func cases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: kernels.SaxpyKernel,
		Tol:    gputest.Tolerance{Name: "a*x+y may be fused: 1 ulp on positive operands", ULP: 1},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 3000
			return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(n, 256)}, Args: []gputest.Arg{
				gputest.Buffer(gputest.Floats(r, n, 0, 1)), gputest.Buffer(gputest.Floats(r, n, 0, 1)), gputest.Scalar(float32(2.5)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return kernels.LaunchSaxpy(s, g, buf(a, 0), buf(a, 1), gputest.At[float32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: kernels.CopyKernel,
		Tol:    gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 3000
			return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(n, 256)}, Args: []gputest.Arg{
				gputest.Poisoned[float32](n), gputest.Buffer(gputest.Floats(r, n, -1, 1)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return kernels.LaunchCopy(s, g, buf(a, 0), buf(a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: kernels.SumKernel,
		Tol:    gputest.Exact, // the same additions in the same order as the reference
		Setup: func(r *rand.Rand) gputest.Inputs {
			const per, groups = 4, 3
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
				gputest.Poisoned[float32](groups), gputest.Buffer(gputest.Floats(r, 256*per*groups, -1, 1)), gputest.Scalar(uint32(per)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return kernels.LaunchSum(s, g, buf(a, 0), buf(a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: kernels.GemmKernel,
		Tol:    gputest.Tolerance{Name: "sums of 64 products in the same order, each may be fused", ULP: 4, Rel: 1e-5},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 64
			return gputest.Inputs{Groups: xpu.Dim3{X: n / 64, Y: n / 64}, Args: []gputest.Arg{
				gputest.Poisoned[float32](n * n), gputest.Buffer(gputest.Floats(r, n*n, 0, 1)), gputest.Buffer(gputest.Floats(r, n*n, 0, 1)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return kernels.LaunchGemm(s, g, buf(a, 0), buf(a, 1), buf(a, 2), gputest.At[uint32](a, 3))
		},
	}}
}
