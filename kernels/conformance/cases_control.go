package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

func controlCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: LoopBreakContinueKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n, width = 500, 16
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](n), gputest.Poisoned[uint32](n), gputest.Buffer(gputest.Uints(r, n*width, 0, 1000)),
				gputest.Scalar(uint32(width)), gputest.Scalar(uint32(900)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchLoopBreakContinue(s, g, buf[uint32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2),
				gputest.At[uint32](a, 3), gputest.At[uint32](a, 4), gputest.At[uint32](a, 5))
		},
	}, {
		Kernel: EarlyReturnKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Poisoned[int32](n), gputest.Buffer(gputest.Ints(r, n, -100, 100)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchEarlyReturn(s, g, buf[int32](a, 0), buf[int32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: NestedLoopsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 700
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Poisoned[int32](n), gputest.Buffer(gputest.Ints(r, n, -50, 50)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchNestedLoops(s, g, buf[int32](a, 0), buf[int32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: CollatzKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](n), gputest.Buffer(gputest.WithEdges(gputest.Uints(r, n, 1, 100000), []uint32{1, 2, 27, 77671})), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchCollatz(s, g, buf[uint32](a, 0), buf[uint32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: SpinKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 300
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](n), gputest.Buffer(gputest.Uints(r, n, 0, 1<<31)), gputest.Scalar(uint32(r.IntN(500))), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchSpin(s, g, buf[uint32](a, 0), buf[uint32](a, 1), gputest.At[uint32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: ShortCircuitKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Poisoned[int32](n), gputest.Buffer(gputest.Ints(r, n, -200, 200)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchShortCircuit(s, g, buf[int32](a, 0), buf[int32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: LogicalInLoopKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Poisoned[uint32](n), gputest.Poisoned[uint32](n), gputest.Buffer(gputest.AnyUints(r, n)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchLogicalInLoop(s, g, buf[uint32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: BranchesKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](n), gputest.Buffer(gputest.WithEdges(gputest.Floats(r, n, -1, 1), []float32{-0.5, 0, 0.5})), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchBranches(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: FuncChainKernel,
		Tol:    gputest.Tolerance{Name: "WGSL division: 2.5 ulp; a*b+c may be fused", ULP: 4, Abs: 1e-6, Rel: 1e-5},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](n), gputest.Buffer(gputest.Floats(r, n, 0, 0.4)), gputest.Buffer(gputest.Floats(r, n, 0.6, 1)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFuncChain(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: FuncBufferKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](n), gputest.Buffer(gputest.Floats(r, n, 0, 1)), gputest.Buffer(gputest.Floats(r, n, 0, 1)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFuncBuffer(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: LoopLocalZeroKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Poisoned[uint32](n), gputest.Buffer(gputest.AnyUints(r, n)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchLoopLocalZero(s, g, buf[uint32](a, 0), buf[uint32](a, 1), gputest.At[uint32](a, 2))
		},
	}}
}
