package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

func sharedCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: TransposeKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const rows, cols = 50, 70
			return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(cols, tile), Y: xpu.GroupsFor(rows, tile)}, Args: []gputest.Arg{
				gputest.Poisoned[float32](rows * cols), gputest.Buffer(gputest.Floats(r, rows*cols, -1, 1)), gputest.Scalar(uint32(rows)), gputest.Scalar(uint32(cols)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchTranspose(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: BlockReduceKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			groups := line(n, reduceBlock)
			return gputest.Inputs{Groups: groups, Args: []gputest.Arg{
				gputest.Poisoned[float32](int(groups.X)), gputest.Buffer(gputest.Floats(r, n, -1, 1)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchBlockReduce(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: ScanKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, reduceBlock), Args: []gputest.Arg{
				gputest.Poisoned[int32](n), gputest.Buffer(gputest.Ints(r, n, -1000, 1000)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchScan(s, g, buf[int32](a, 0), buf[int32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: StencilKernel,
		Tol:    gputest.Tolerance{Name: "devices may reorder the five-term sum (seen on lavapipe): 4 ulp, or 1e-6 absolute for terms of magnitude at most 2.5", ULP: 4, Abs: 1e-6},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](n), gputest.Buffer(gputest.Floats(r, n, -1, 1)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchStencil(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: SgemmKernel,
		Tol:    gputest.Tolerance{Name: "sums of 72 products in the same order, each may be fused", ULP: 4, Rel: 1e-5},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const m, n, k = 40, 56, 72
			return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(n, tile), Y: xpu.GroupsFor(m, tile)}, Args: []gputest.Arg{
				gputest.Buffer(gputest.Floats(r, m*n, 0, 1)), gputest.Buffer(gputest.Floats(r, m*k, 0, 1)), gputest.Buffer(gputest.Floats(r, k*n, 0, 1)),
				gputest.Scalar(uint32(m)), gputest.Scalar(uint32(n)), gputest.Scalar(uint32(k)), gputest.Scalar(float32(1.5)), gputest.Scalar(float32(0.5)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchSgemm(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2),
				gputest.At[uint32](a, 3), gputest.At[uint32](a, 4), gputest.At[uint32](a, 5), gputest.At[float32](a, 6), gputest.At[float32](a, 7))
		},
	}}
}
