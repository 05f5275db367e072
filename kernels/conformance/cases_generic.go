package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// blockSumCase is the case of a member of BlockSum over elements of T.
func blockSumCase[T int32 | uint32 | float32](k *gpu.Kernel, tol gputest.Tolerance, in func(*rand.Rand, int) []T,
	launch func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[T], *gpu.Buffer[T], uint32) error) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: tol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			groups := line(n, reduceBlock)
			return gputest.Inputs{Groups: groups, Args: []gputest.Arg{
				gputest.Poisoned[T](int(groups.X)), gputest.Buffer(in(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, buf[T](a, 0), buf[T](a, 1), gputest.At[uint32](a, 2))
		},
	}
}

func genericCases() []*gputest.Case {
	floats := func(r *rand.Rand, n int) []float32 { return gputest.Floats(r, n, -1, 1) }
	return []*gputest.Case{
		// Integer sums wrap exactly; the float tree adds in one order
		// everywhere, and float addition is correctly rounded.
		blockSumCase(BlockSumI32Kernel, gputest.Exact, gputest.AnyInts, LaunchBlockSumI32),
		blockSumCase(BlockSumU32Kernel, gputest.Exact, gputest.AnyUints, LaunchBlockSumU32),
		blockSumCase(BlockSumF32Kernel, gputest.Tolerance{Name: "a tree of correctly rounded additions in one order: exact"}, floats, LaunchBlockSumF32),
		{
			Kernel: TwoTypesKernel, Tol: gputest.Tolerance{Name: "(y+0.5)*2 in float32: an addition, rounded once, and an exact doubling"},
			Setup: func(r *rand.Rand) gputest.Inputs {
				const n = 1000
				return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
					gputest.Poisoned[float32](n), gputest.Poisoned[int32](n),
					gputest.Buffer(gputest.Floats(r, n, -100, 100)), gputest.Buffer(gputest.AnyInts(r, n)), gputest.Scalar(uint32(n)),
				}}
			},
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				return LaunchTwoTypes(s, g, buf[float32](a, 0), buf[int32](a, 1), buf[float32](a, 2), buf[int32](a, 3), gputest.At[uint32](a, 4))
			},
		},
		scaleByCase(ScaleByI32Kernel, gputest.Exact, gputest.AnyInts, LaunchScaleByI32),
		scaleByCase(ScaleByF32Kernel, gputest.Tolerance{Name: "x*2+1: an exact doubling and one rounded addition, fused or not"},
			func(r *rand.Rand, n int) []float32 { return gputest.Floats(r, n, -100, 100) }, LaunchScaleByF32),
	}
}

// scaleByCase is the case of a member of ScaleBy over elements of T.
func scaleByCase[T int32 | float32](k *gpu.Kernel, tol gputest.Tolerance, in func(*rand.Rand, int) []T,
	launch func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[T], *gpu.Buffer[T], uint32) error) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: tol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Poisoned[T](n), gputest.Buffer(in(r, n)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, buf[T](a, 0), buf[T](a, 1), gputest.At[uint32](a, 2))
		},
	}
}
