package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

func sharedCases() []*Case {
	return []*Case{{
		Kernel: TransposeKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const rows, cols = 50, 70
			return Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(cols, tile), Y: xpu.GroupsFor(rows, tile)}, Args: []Arg{
				Poisoned[float32](rows * cols), Buffer(floats(r, rows*cols, -1, 1)), Scalar(uint32(rows)), Scalar(uint32(cols)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchTranspose(s, g, buf[float32](a, 0), buf[float32](a, 1), arg[uint32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: BlockReduceKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			groups := line(n, reduceBlock)
			return Inputs{Groups: groups, Args: []Arg{
				Poisoned[float32](int(groups.X)), Buffer(floats(r, n, -1, 1)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchBlockReduce(s, g, buf[float32](a, 0), buf[float32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: ScanKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, reduceBlock), Args: []Arg{
				Poisoned[int32](n), Buffer(ints(r, n, -1000, 1000)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchScan(s, g, buf[int32](a, 0), buf[int32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: StencilKernel,
		Tol:    Tolerance{Name: "devices may reorder the five-term sum (seen on lavapipe): 4 ulp, or 1e-6 absolute for terms of magnitude at most 2.5", ULP: 4, Abs: 1e-6},
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](n), Buffer(floats(r, n, -1, 1)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchStencil(s, g, buf[float32](a, 0), buf[float32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: SgemmKernel,
		Tol:    Tolerance{Name: "sums of 72 products in the same order, each may be fused", ULP: 4, Rel: 1e-5},
		Setup: func(r *rand.Rand) Inputs {
			const m, n, k = 40, 56, 72
			return Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(n, tile), Y: xpu.GroupsFor(m, tile)}, Args: []Arg{
				Buffer(floats(r, m*n, 0, 1)), Buffer(floats(r, m*k, 0, 1)), Buffer(floats(r, k*n, 0, 1)),
				Scalar(uint32(m)), Scalar(uint32(n)), Scalar(uint32(k)), Scalar(float32(1.5)), Scalar(float32(0.5)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchSgemm(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2),
				arg[uint32](a, 3), arg[uint32](a, 4), arg[uint32](a, 5), arg[float32](a, 6), arg[float32](a, 7))
		},
	}}
}
