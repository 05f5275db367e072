package wave

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// FloatTol bounds the float32 results: a device's subgroup sums and scans
// may add the lanes in another order than the reference's lane order. The
// operands lie in [-1, 1) and a wave holds at most 64 lanes, so the sum
// of any order is within 64 roundings of at most 64 in magnitude:
// 64 * 64 * 2^-24 < 3e-4. Minima, maxima and shuffles are exact.
var FloatTol = gputest.Tolerance{Name: "wave float sums in any lane order: 64 lanes of [-1, 1)", Abs: 3e-4}

// groups is the number of blocks each case launches: even and odd groups
// give WaveAll and WaveAny both outcomes.
const groups = 5

// Cases returns the wave suite: one case per kernel, each with fresh
// inputs, its outputs poisoned.
func Cases() []*gputest.Case {
	return append([]*gputest.Case{
		verbCase(Wave4Kernel, LaunchWave4),
		verbCase(Wave8Kernel, LaunchWave8),
		verbCase(Wave16Kernel, LaunchWave16),
		verbCase(Wave32Kernel, LaunchWave32),
		verbCase(Wave64Kernel, LaunchWave64),
		verbCase(WaveAgnosticKernel, LaunchWaveAgnostic),
		reduceCase(ReduceSharedKernel, LaunchReduceShared),
		reduceCase(ReduceWaveKernel, LaunchReduceWave),
		reduceCase(ReduceWave32Kernel, LaunchReduceWave32),
	}, functionCases()...)
}

// ReduceTol bounds the block sums: a device adds a block's 256 operands
// of [-1, 1) in another order than the reference, each partial sum at
// most 256 in magnitude: 256 * 256 * 2^-24 < 4e-3.
var ReduceTol = gputest.Tolerance{Name: "block sums in any order: 256 floats of [-1, 1)", Abs: 4e-3}

// reduceLauncher is the generated launcher of a block reduction.
type reduceLauncher func(s *gpu.Stream, groups xpu.Dim3, partial, in *gpu.Buffer[float32], n uint32) error

// reduceCase checks a block reduction over a length whose last block is
// partial.
func reduceCase(k *gpu.Kernel, launch reduceLauncher) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: ReduceTol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			n := reduceBlock*groups - 37
			in := make([]float32, n)
			for i := range in {
				in[i] = r.Float32()*2 - 1
			}
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
				gputest.Poisoned[float32](groups), gputest.Buffer(in), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[float32]](a, 1), gputest.At[uint32](a, 2))
		},
	}
}

// launcher is the generated launcher of a suite kernel.
type launcher func(s *gpu.Stream, groups xpu.Dim3, oi *gpu.Buffer[int32], ou *gpu.Buffer[uint32], of *gpu.Buffer[float32],
	xi *gpu.Buffer[int32], xu *gpu.Buffer[uint32], xf *gpu.Buffer[float32], sel *gpu.Buffer[uint32], bl, m, d uint32) error

func verbCase(k *gpu.Kernel, launch launcher) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: FloatTol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			n := int(k.Block().Count()) * groups
			xi, xu, xf, sel := make([]int32, n), make([]uint32, n), make([]float32, n), make([]uint32, n)
			for i := range n {
				xi[i] = r.Int32N(2001) - 1000
				xu[i] = r.Uint32N(1 << 20)
				xf[i] = r.Float32()*2 - 1
				sel[i] = r.Uint32N(128)
			}
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
				gputest.Poisoned[int32](n * intSlots), gputest.Poisoned[uint32](n * uintSlots), gputest.Poisoned[float32](n * floatSlots),
				gputest.Buffer(xi), gputest.Buffer(xu), gputest.Buffer(xf), gputest.Buffer(sel),
				gputest.Scalar(r.Uint32N(64)), gputest.Scalar(r.Uint32N(64)), gputest.Scalar(1 + r.Uint32N(8)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, gputest.At[*gpu.Buffer[int32]](a, 0), gputest.At[*gpu.Buffer[uint32]](a, 1), gputest.At[*gpu.Buffer[float32]](a, 2),
				gputest.At[*gpu.Buffer[int32]](a, 3), gputest.At[*gpu.Buffer[uint32]](a, 4), gputest.At[*gpu.Buffer[float32]](a, 5), gputest.At[*gpu.Buffer[uint32]](a, 6),
				gputest.At[uint32](a, 7), gputest.At[uint32](a, 8), gputest.At[uint32](a, 9))
		},
	}
}
