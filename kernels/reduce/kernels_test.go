package reduce_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/reduce"
)

// pass is one launch of a kernel: n elements in chunks of chunk, a block
// per chunk.
type pass struct{ n, chunk uint32 }

func (p pass) groups() uint32 { return (p.n + p.chunk - 1) / p.chunk }
func (p pass) tiles() uint32  { return p.chunk / 256 }
func (p pass) String() string { return fmt.Sprintf("n=%d,chunk=%d", p.n, p.chunk) }

// passes are the launches every kernel is checked at: one element; a
// length that is no multiple of the block, over several blocks of one
// tile; one block of three tiles, the last partial (the last pass over
// the partials); several blocks of several tiles; and ten blocks of eight
// tiles. Short mode, and a binary built with the race detector, keep the
// first three: the reference runner runs a goroutine per work-item.
var passes = []pass{{1, 256}, {1000, 256}, {700, 768}, {3000, 512}, {20000, 2048}}

func checkedPasses() []pass {
	if testing.Short() || underRace {
		return passes[:3]
	}
	return passes
}

// orderTol bounds a partial of a sum kernel of p against the reference's
// when the device may add in another order: a wave sum adds its lanes in
// the device's order. Each order is within h*2^-24*sum|terms| of the
// exact sum, h the height of its addition tree: the chunk's tiles per
// work-item, then at most 255 in the block, in any order of the combine;
// the terms are of [-1, 1), at most chunk of them, so the two differ by
// at most twice that.
func orderTol(p pass) gputest.Tolerance {
	h := float64(p.tiles() + 255)
	return gputest.Tolerance{
		Name: fmt.Sprintf("sums of %d terms of [-1, 1) in two orders of height %g: 2*h*2^-24*chunk", p.chunk, h),
		Abs:  2 * h * 0x1p-24 * float64(p.chunk),
	}
}

// sameOrderTol bounds a partial of a shared-form sum against the
// reference's: the same additions in the same order, so no more than a
// device's rounding of a fused product (Dot): half an ulp of each of
// the chunk's products of [-1, 1), carried on, 2^-24*chunk.
func sameOrderTol(p pass) gputest.Tolerance {
	return gputest.Tolerance{
		Name: fmt.Sprintf("the reference's order; a product may be fused: 2^-24 per product of [-1, 1), %d of them", p.chunk),
		Abs:  0x1p-24 * float64(p.chunk),
	}
}

// scanTol bounds a scan's element in the wave form: the prefix of a tile
// in the device's order (height at most 255), the tile's offset from the
// chunk's offset and the tiles before it; terms of [-1, 1) and an offset
// of [-1, 1).
func scanTol(p pass) gputest.Tolerance {
	h := float64(p.tiles() + 255 + 2)
	return gputest.Tolerance{
		Name: fmt.Sprintf("prefixes of up to %d terms of [-1, 1) in two orders of height %g", p.chunk+1, h),
		Abs:  2 * h * 0x1p-24 * float64(p.chunk+1),
	}
}

type sumLauncher func(s *gpu.Stream, groups xpu.Dim3, out, x *gpu.Buffer[float32], n, chunk uint32) error

func f32(a []any, i int) *gpu.Buffer[float32] { return gputest.At[*gpu.Buffer[float32]](a, i) }
func u32(a []any, i int) *gpu.Buffer[uint32]  { return gputest.At[*gpu.Buffer[uint32]](a, i) }
func num(a []any, i int) uint32               { return gputest.At[uint32](a, i) }

// unitFloats returns n floats of [-1, 1).
func unitFloats(r *rand.Rand, n uint32) []float32 { return gputest.Floats(r, int(n), -1, 1) }

// noNaN returns seasoned floats (specials, subnormals) without NaNs.
func noNaN(r *rand.Rand, n uint32) []float32 {
	x := gputest.Seasoned(r, int(n))
	for i, v := range x {
		if v != v {
			x[i] = -4 + 8*r.Float32()
		}
	}
	return x
}

// ties returns n whole floats of [-3, 3]: many equal maxima.
func ties(r *rand.Rand, n uint32) []float32 { return gputest.WholeFloats(r, int(n), -3, 3) }

// floatCase checks a kernel of one output per block over one input x.
func floatCase(k *gpu.Kernel, launch sumLauncher, p pass, tol gputest.Tolerance, input func(*rand.Rand, uint32) []float32) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: tol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.groups()}, Args: []gputest.Arg{
				gputest.Poisoned[float32](int(p.groups())), gputest.Buffer(input(r, p.n)),
				gputest.Scalar(p.n), gputest.Scalar(p.chunk),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, f32(a, 0), f32(a, 1), num(a, 2), num(a, 3))
		},
	}
}

type dotLauncher func(s *gpu.Stream, groups xpu.Dim3, out, x, y *gpu.Buffer[float32], n, chunk uint32) error

func dotCase(k *gpu.Kernel, launch dotLauncher, p pass, tol gputest.Tolerance) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: tol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.groups()}, Args: []gputest.Arg{
				gputest.Poisoned[float32](int(p.groups())), gputest.Buffer(unitFloats(r, p.n)), gputest.Buffer(unitFloats(r, p.n)),
				gputest.Scalar(p.n), gputest.Scalar(p.chunk),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, f32(a, 0), f32(a, 1), f32(a, 2), num(a, 3), num(a, 4))
		},
	}
}

type argMaxLauncher func(s *gpu.Stream, groups xpu.Dim3, keys, indices *gpu.Buffer[uint32], x *gpu.Buffer[float32], n, chunk uint32) error

func argMaxCase(k *gpu.Kernel, launch argMaxLauncher, p pass, input func(*rand.Rand, uint32) []float32) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(p.groups())), gputest.Poisoned[uint32](int(p.groups())), gputest.Buffer(input(r, p.n)),
				gputest.Scalar(p.n), gputest.Scalar(p.chunk),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, u32(a, 0), u32(a, 1), f32(a, 2), num(a, 3), num(a, 4))
		},
	}
}

type pairsLauncher func(s *gpu.Stream, groups xpu.Dim3, keys, indices, inKeys, inIndices *gpu.Buffer[uint32], n, chunk uint32) error

// pairs returns n pairs as a pass before gives them: keys of few values
// (many ties), among them the key of NaN, and distinct indices in random
// order.
func pairs(r *rand.Rand, n uint32) (keys, indices []uint32) {
	keys, indices = make([]uint32, n), make([]uint32, n)
	few := []uint32{0x007fffff, 0x7fffffff, 0x80000000, 0xbf800000, 0xc0000000, 0xffffffff}
	for i, j := range r.Perm(int(n)) {
		keys[i] = few[r.IntN(len(few)-1)]
		if r.IntN(64) == 0 {
			keys[i] = few[len(few)-1]
		}
		indices[i] = uint32(j) * 7
	}
	return keys, indices
}

func pairsCase(k *gpu.Kernel, launch pairsLauncher, p pass) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			keys, indices := pairs(r, p.n)
			return gputest.Inputs{Groups: xpu.Dim3{X: p.groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(p.groups())), gputest.Poisoned[uint32](int(p.groups())),
				gputest.Buffer(keys), gputest.Buffer(indices), gputest.Scalar(p.n), gputest.Scalar(p.chunk),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, u32(a, 0), u32(a, 1), u32(a, 2), u32(a, 3), num(a, 4), num(a, 5))
		},
	}
}

type scanLauncher func(s *gpu.Stream, groups xpu.Dim3, out, x, offsets *gpu.Buffer[float32], n, chunk, exclusive uint32) error

func scanCase(k *gpu.Kernel, launch scanLauncher, p pass, tol gputest.Tolerance, exclusive uint32) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: tol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.groups()}, Args: []gputest.Arg{
				gputest.Poisoned[float32](int(p.n)), gputest.Buffer(unitFloats(r, p.n)), gputest.Buffer(unitFloats(r, p.groups())),
				gputest.Scalar(p.n), gputest.Scalar(p.chunk), gputest.Scalar(exclusive),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, f32(a, 0), f32(a, 1), f32(a, 2), num(a, 3), num(a, 4), num(a, 5))
		},
	}
}

// cases are the cases of every kernel at p.
func cases(p pass) []*gputest.Case {
	return []*gputest.Case{
		floatCase(reduce.SumSharedKernel, reduce.LaunchSumShared, p, sameOrderTol(p), unitFloats),
		floatCase(reduce.SumWaveKernel, reduce.LaunchSumWave, p, orderTol(p), unitFloats),
		dotCase(reduce.DotSharedKernel, reduce.LaunchDotShared, p, sameOrderTol(p)),
		dotCase(reduce.DotWaveKernel, reduce.LaunchDotWave, p, orderTol(p)),
		floatCase(reduce.MaxSharedKernel, reduce.LaunchMaxShared, p, gputest.Exact, noNaN),
		floatCase(reduce.MaxSharedKernel, reduce.LaunchMaxShared, p, gputest.Exact, seasoned),
		floatCase(reduce.MaxWaveKernel, reduce.LaunchMaxWave, p, gputest.Exact, noNaN),
		floatCase(reduce.MaxWaveKernel, reduce.LaunchMaxWave, p, gputest.Exact, seasoned),
		argMaxCase(reduce.ArgMaxSharedKernel, reduce.LaunchArgMaxShared, p, ties),
		argMaxCase(reduce.ArgMaxSharedKernel, reduce.LaunchArgMaxShared, p, seasoned),
		argMaxCase(reduce.ArgMaxWaveKernel, reduce.LaunchArgMaxWave, p, ties),
		argMaxCase(reduce.ArgMaxWaveKernel, reduce.LaunchArgMaxWave, p, seasoned),
		pairsCase(reduce.ArgMaxPairsSharedKernel, reduce.LaunchArgMaxPairsShared, p),
		pairsCase(reduce.ArgMaxPairsWaveKernel, reduce.LaunchArgMaxPairsWave, p),
		scanCase(reduce.ScanSharedKernel, reduce.LaunchScanShared, p, gputest.Exact, 0),
		scanCase(reduce.ScanSharedKernel, reduce.LaunchScanShared, p, gputest.Exact, 1),
		scanCase(reduce.ScanWaveKernel, reduce.LaunchScanWave, p, scanTol(p), 0),
		scanCase(reduce.ScanWaveKernel, reduce.LaunchScanWave, p, scanTol(p), 1),
		sumUintCase(reduce.SumUint32SharedKernel, reduce.LaunchSumUint32Shared, p),
		sumUintCase(reduce.SumUint32WaveKernel, reduce.LaunchSumUint32Wave, p),
		scanUintCase(reduce.ScanUint32SharedKernel, reduce.LaunchScanUint32Shared, p, 0),
		scanUintCase(reduce.ScanUint32SharedKernel, reduce.LaunchScanUint32Shared, p, 1),
		scanUintCase(reduce.ScanUint32WaveKernel, reduce.LaunchScanUint32Wave, p, 0),
		scanUintCase(reduce.ScanUint32WaveKernel, reduce.LaunchScanUint32Wave, p, 1),
	}
}

type sumUintLauncher func(s *gpu.Stream, groups xpu.Dim3, out, x *gpu.Buffer[uint32], n, chunk uint32) error

// sumUintCase checks a uint32 sum over any uint32s, whose sums wrap:
// exact in any order.
func sumUintCase(k *gpu.Kernel, launch sumUintLauncher, p pass) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(p.groups())), gputest.Buffer(gputest.AnyUints(r, int(p.n))),
				gputest.Scalar(p.n), gputest.Scalar(p.chunk),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, u32(a, 0), u32(a, 1), num(a, 2), num(a, 3))
		},
	}
}

type scanUintLauncher func(s *gpu.Stream, groups xpu.Dim3, out, x, offsets *gpu.Buffer[uint32], n, chunk, exclusive uint32) error

func scanUintCase(k *gpu.Kernel, launch scanUintLauncher, p pass, exclusive uint32) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(p.n)), gputest.Buffer(gputest.AnyUints(r, int(p.n))), gputest.Buffer(gputest.AnyUints(r, int(p.groups()))),
				gputest.Scalar(p.n), gputest.Scalar(p.chunk), gputest.Scalar(exclusive),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, u32(a, 0), u32(a, 1), u32(a, 2), num(a, 3), num(a, 4), num(a, 5))
		},
	}
}

// seasoned returns seasoned floats: specials (NaNs, infinities, signed
// zeros), subnormals and ordinary values.
func seasoned(r *rand.Rand, n uint32) []float32 { return gputest.Seasoned(r, int(n)) }

// TestKernels checks every kernel, in both forms, on every device present
// against the reference runner (told the device's wave width), at every
// pass of checkedPasses.
func TestKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, p := range checkedPasses() {
			t.Run(p.String(), func(t *testing.T) { gputest.Check(t, d, cases(p)) })
		}
	})
}
