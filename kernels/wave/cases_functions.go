package wave

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// functionCases checks the kernels of functions.go.
func functionCases() []*gputest.Case {
	return []*gputest.Case{warpSumsCase(), blockSumsCase(), conditionsCase(), searchCase()}
}

// uniformFloats returns n floats of [-1, 1).
func uniformFloats(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

// warpSumsCase checks warpReduceSum over a length whose last wave is
// partly past it.
func warpSumsCase() *gputest.Case {
	return &gputest.Case{
		Kernel: WarpSumsKernel, Tol: FloatTol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			n := 96*groups - 37
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
				gputest.Poisoned[float32](96 * groups), gputest.Buffer(uniformFloats(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchWarpSums(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[float32]](a, 1), gputest.At[uint32](a, 2))
		},
	}
}

// blockSumsCase checks blockReduceSum, called twice, over a length whose
// last block is partial.
func blockSumsCase() *gputest.Case {
	return &gputest.Case{
		Kernel: BlockSumsKernel, Tol: ReduceTol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			n := reduceBlock*groups - 37
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
				gputest.Poisoned[float32](2 * groups), gputest.Buffer(uniformFloats(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchBlockSums(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[float32]](a, 1), gputest.At[uint32](a, 2))
		},
	}
}

// conditionsCase checks verbs in conditions; n picks which sides of &&
// and || run.
func conditionsCase() *gputest.Case {
	return &gputest.Case{
		Kernel: WaveConditionsKernel,
		Setup: func(r *rand.Rand) gputest.Inputs {
			n := 80 * groups
			in := make([]uint32, n)
			for i := range in {
				in[i] = r.Uint32N(1000)
				if r.IntN(3) == 0 {
					in[i] += 100 // whole waves above 100 now and then
				}
			}
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](n), gputest.Buffer(in), gputest.Scalar(2 + r.Uint32N(4)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchWaveConditions(s, g, gputest.At[*gpu.Buffer[uint32]](a, 0), gputest.At[*gpu.Buffer[uint32]](a, 1), gputest.At[uint32](a, 2))
		},
	}
}

// searchCase checks firstAbove's returns: sums of 8 lanes of [0, 200)
// put some answers past the loop (99).
func searchCase() *gputest.Case {
	return &gputest.Case{
		Kernel: WaveSearchKernel,
		Setup: func(r *rand.Rand) gputest.Inputs {
			n := 64 * groups
			in := make([]uint32, n)
			for i := range in {
				in[i] = r.Uint32N(200)
			}
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{gputest.Poisoned[uint32](n), gputest.Buffer(in)}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchWaveSearch(s, g, gputest.At[*gpu.Buffer[uint32]](a, 0), gputest.At[*gpu.Buffer[uint32]](a, 1))
		},
	}
}
