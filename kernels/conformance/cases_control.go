package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

func controlCases() []*Case {
	return []*Case{{
		Kernel: LoopBreakContinueKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n, width = 500, 16
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[uint32](n), Poisoned[uint32](n), Buffer(uints(r, n*width, 0, 1000)),
				Scalar(uint32(width)), Scalar(uint32(900)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchLoopBreakContinue(s, g, buf[uint32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2),
				arg[uint32](a, 3), arg[uint32](a, 4), arg[uint32](a, 5))
		},
	}, {
		Kernel: EarlyReturnKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{Poisoned[int32](n), Buffer(ints(r, n, -100, 100)), Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchEarlyReturn(s, g, buf[int32](a, 0), buf[int32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: NestedLoopsKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 700
			return Inputs{Groups: line(n, 64), Args: []Arg{Poisoned[int32](n), Buffer(ints(r, n, -50, 50)), Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchNestedLoops(s, g, buf[int32](a, 0), buf[int32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: CollatzKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[uint32](n), Buffer(withEdges(uints(r, n, 1, 100000), []uint32{1, 2, 27, 77671})), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchCollatz(s, g, buf[uint32](a, 0), buf[uint32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: SpinKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 300
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[uint32](n), Buffer(uints(r, n, 0, 1<<31)), Scalar(uint32(r.IntN(500))), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchSpin(s, g, buf[uint32](a, 0), buf[uint32](a, 1), arg[uint32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: ShortCircuitKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{Poisoned[int32](n), Buffer(ints(r, n, -200, 200)), Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchShortCircuit(s, g, buf[int32](a, 0), buf[int32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: LogicalInLoopKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{Poisoned[uint32](n), Poisoned[uint32](n), Buffer(anyUints(r, n)), Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchLogicalInLoop(s, g, buf[uint32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: BranchesKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](n), Buffer(withEdges(floats(r, n, -1, 1), []float32{-0.5, 0, 0.5})), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchBranches(s, g, buf[float32](a, 0), buf[float32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: FuncChainKernel,
		Tol:    Tolerance{Name: "WGSL division: 2.5 ulp; a*b+c may be fused", ULP: 4, Abs: 1e-6, Rel: 1e-5},
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](n), Buffer(floats(r, n, 0, 0.4)), Buffer(floats(r, n, 0.6, 1)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFuncChain(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: FuncBufferKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](n), Buffer(floats(r, n, 0, 1)), Buffer(floats(r, n, 0, 1)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFuncBuffer(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: LoopLocalZeroKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{Poisoned[uint32](n), Buffer(anyUints(r, n)), Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchLoopLocalZero(s, g, buf[uint32](a, 0), buf[uint32](a, 1), arg[uint32](a, 2))
		},
	}}
}
