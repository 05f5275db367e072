// Package reducetest holds the cases of package reduce's kernels: each
// kernel, in both forms, launched through its generated launcher on fresh
// random inputs with poisoned outputs, against the reference runner, within
// a named tolerance. The package's tests run them on every device, and so
// does any program that checks the library where tests cannot run (the
// browser demo). It sits above reduce and gputest and below nothing but
// checkers.
package reducetest

import (
	"fmt"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/reduce"
)

// Pass is one launch of a kernel: N elements in chunks of Chunk, a block
// per chunk.
type Pass struct{ N, Chunk uint32 }

// Groups returns the blocks of the launch, one per chunk.
func (p Pass) Groups() uint32 { return (p.N + p.Chunk - 1) / p.Chunk }

// Tiles returns the 256-element tiles of a chunk.
func (p Pass) Tiles() uint32 { return p.Chunk / 256 }

func (p Pass) String() string { return fmt.Sprintf("n=%d,chunk=%d", p.N, p.Chunk) }

// passes are the launches every kernel is checked at: one element; a
// length that is no multiple of the block, over several blocks of one
// tile; one block of three tiles, the last partial (the last Pass over
// the partials); several blocks of several tiles; and ten blocks of eight
// tiles.
var passes = []Pass{{1, 256}, {1000, 256}, {700, 768}, {3000, 512}, {20000, 2048}}

// Passes returns the launches every kernel is checked at; short keeps the
// first three, for short mode, a binary built with the race detector and
// the browser, where the reference runner's goroutine per work-item is
// slow.
func Passes(short bool) []Pass {
	if short {
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
func orderTol(p Pass) gputest.Tolerance {
	h := float64(p.Tiles() + 255)
	return gputest.Tolerance{
		Name: fmt.Sprintf("sums of %d terms of [-1, 1) in two orders of height %g: 2*h*2^-24*chunk", p.Chunk, h),
		Abs:  2 * h * 0x1p-24 * float64(p.Chunk),
	}
}

// sameOrderTol bounds a partial of a shared-form sum against the
// reference's: the same additions in the same order, so no more than a
// device's rounding of a fused product (Dot): half an ulp of each of
// the chunk's products of [-1, 1), carried on, 2^-24*chunk.
func sameOrderTol(p Pass) gputest.Tolerance {
	return gputest.Tolerance{
		Name: fmt.Sprintf("the reference's order; a product may be fused: 2^-24 per product of [-1, 1), %d of them", p.Chunk),
		Abs:  0x1p-24 * float64(p.Chunk),
	}
}

// scanTol bounds a scan's element in the wave form: the prefix of a tile
// in the device's order (height at most 255), the tile's offset from the
// chunk's offset and the tiles before it; terms of [-1, 1) and an offset
// of [-1, 1).
func scanTol(p Pass) gputest.Tolerance {
	h := float64(p.Tiles() + 255 + 2)
	return gputest.Tolerance{
		Name: fmt.Sprintf("prefixes of up to %d terms of [-1, 1) in two orders of height %g", p.Chunk+1, h),
		Abs:  2 * h * 0x1p-24 * float64(p.Chunk+1),
	}
}

type sumLauncher func(s *gpu.Stream, groups xpu.Dim3, out, x *gpu.Buffer[float32], n, chunk uint32) error

func f32(a []any, i int) *gpu.Buffer[float32] { return gputest.At[*gpu.Buffer[float32]](a, i) }
func u32(a []any, i int) *gpu.Buffer[uint32]  { return gputest.At[*gpu.Buffer[uint32]](a, i) }
func num(a []any, i int) uint32               { return gputest.At[uint32](a, i) }

// UnitFloats returns n floats of [-1, 1).
func UnitFloats(r *rand.Rand, n uint32) []float32 { return gputest.Floats(r, int(n), -1, 1) }

// NoNaN returns seasoned floats (specials, subnormals) without NaNs.
func NoNaN(r *rand.Rand, n uint32) []float32 {
	x := gputest.Seasoned(r, int(n))
	for i, v := range x {
		if v != v {
			x[i] = -4 + 8*r.Float32()
		}
	}
	return x
}

// Ties returns n whole floats of [-3, 3]: many equal maxima.
func Ties(r *rand.Rand, n uint32) []float32 { return gputest.WholeFloats(r, int(n), -3, 3) }

// floatCase checks a kernel of one output per block over one input x.
func floatCase(k *gpu.Kernel, launch sumLauncher, p Pass, tol gputest.Tolerance, input func(*rand.Rand, uint32) []float32) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: tol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.Groups()}, Args: []gputest.Arg{
				gputest.Poisoned[float32](int(p.Groups())), gputest.Buffer(input(r, p.N)),
				gputest.Scalar(p.N), gputest.Scalar(p.Chunk),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, f32(a, 0), f32(a, 1), num(a, 2), num(a, 3))
		},
	}
}

type dotLauncher func(s *gpu.Stream, groups xpu.Dim3, out, x, y *gpu.Buffer[float32], n, chunk uint32) error

func dotCase(k *gpu.Kernel, launch dotLauncher, p Pass, tol gputest.Tolerance) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: tol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.Groups()}, Args: []gputest.Arg{
				gputest.Poisoned[float32](int(p.Groups())), gputest.Buffer(UnitFloats(r, p.N)), gputest.Buffer(UnitFloats(r, p.N)),
				gputest.Scalar(p.N), gputest.Scalar(p.Chunk),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, f32(a, 0), f32(a, 1), f32(a, 2), num(a, 3), num(a, 4))
		},
	}
}

type argMaxLauncher func(s *gpu.Stream, groups xpu.Dim3, keys, indices *gpu.Buffer[uint32], x *gpu.Buffer[float32], n, chunk uint32) error

func argMaxCase(k *gpu.Kernel, launch argMaxLauncher, p Pass, input func(*rand.Rand, uint32) []float32) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.Groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(p.Groups())), gputest.Poisoned[uint32](int(p.Groups())), gputest.Buffer(input(r, p.N)),
				gputest.Scalar(p.N), gputest.Scalar(p.Chunk),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, u32(a, 0), u32(a, 1), f32(a, 2), num(a, 3), num(a, 4))
		},
	}
}

type pairsLauncher func(s *gpu.Stream, groups xpu.Dim3, keys, indices, inKeys, inIndices *gpu.Buffer[uint32], n, chunk uint32) error

// pairs returns n pairs as a Pass before gives them: keys of few values
// (many Ties), among them the key of NaN, and distinct indices in random
// order.
func Pairs(r *rand.Rand, n uint32) (keys, indices []uint32) {
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

func pairsCase(k *gpu.Kernel, launch pairsLauncher, p Pass) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			keys, indices := Pairs(r, p.N)
			return gputest.Inputs{Groups: xpu.Dim3{X: p.Groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(p.Groups())), gputest.Poisoned[uint32](int(p.Groups())),
				gputest.Buffer(keys), gputest.Buffer(indices), gputest.Scalar(p.N), gputest.Scalar(p.Chunk),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, u32(a, 0), u32(a, 1), u32(a, 2), u32(a, 3), num(a, 4), num(a, 5))
		},
	}
}

type scanLauncher func(s *gpu.Stream, groups xpu.Dim3, out, x, offsets *gpu.Buffer[float32], n, chunk, exclusive uint32) error

func scanCase(k *gpu.Kernel, launch scanLauncher, p Pass, tol gputest.Tolerance, exclusive uint32) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: tol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.Groups()}, Args: []gputest.Arg{
				gputest.Poisoned[float32](int(p.N)), gputest.Buffer(UnitFloats(r, p.N)), gputest.Buffer(UnitFloats(r, p.Groups())),
				gputest.Scalar(p.N), gputest.Scalar(p.Chunk), gputest.Scalar(exclusive),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, f32(a, 0), f32(a, 1), f32(a, 2), num(a, 3), num(a, 4), num(a, 5))
		},
	}
}

// Cases returns the cases of every kernel at every pass of Passes(short).
func Cases(short bool) []*gputest.Case {
	var cs []*gputest.Case
	for _, p := range Passes(short) {
		cs = append(cs, At(p)...)
	}
	return cs
}

// At returns the cases of every kernel, in both forms, at p.
func At(p Pass) []*gputest.Case {
	return []*gputest.Case{
		floatCase(reduce.SumSharedKernel, reduce.LaunchSumShared, p, sameOrderTol(p), UnitFloats),
		floatCase(reduce.SumWaveKernel, reduce.LaunchSumWave, p, orderTol(p), UnitFloats),
		dotCase(reduce.DotSharedKernel, reduce.LaunchDotShared, p, sameOrderTol(p)),
		dotCase(reduce.DotWaveKernel, reduce.LaunchDotWave, p, orderTol(p)),
		floatCase(reduce.MaxSharedKernel, reduce.LaunchMaxShared, p, gputest.Exact, NoNaN),
		floatCase(reduce.MaxSharedKernel, reduce.LaunchMaxShared, p, gputest.Exact, Seasoned),
		floatCase(reduce.MaxWaveKernel, reduce.LaunchMaxWave, p, gputest.Exact, NoNaN),
		floatCase(reduce.MaxWaveKernel, reduce.LaunchMaxWave, p, gputest.Exact, Seasoned),
		argMaxCase(reduce.ArgMaxSharedKernel, reduce.LaunchArgMaxShared, p, Ties),
		argMaxCase(reduce.ArgMaxSharedKernel, reduce.LaunchArgMaxShared, p, Seasoned),
		argMaxCase(reduce.ArgMaxWaveKernel, reduce.LaunchArgMaxWave, p, Ties),
		argMaxCase(reduce.ArgMaxWaveKernel, reduce.LaunchArgMaxWave, p, Seasoned),
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
func sumUintCase(k *gpu.Kernel, launch sumUintLauncher, p Pass) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.Groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(p.Groups())), gputest.Buffer(gputest.AnyUints(r, int(p.N))),
				gputest.Scalar(p.N), gputest.Scalar(p.Chunk),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, u32(a, 0), u32(a, 1), num(a, 2), num(a, 3))
		},
	}
}

type scanUintLauncher func(s *gpu.Stream, groups xpu.Dim3, out, x, offsets *gpu.Buffer[uint32], n, chunk, exclusive uint32) error

func scanUintCase(k *gpu.Kernel, launch scanUintLauncher, p Pass, exclusive uint32) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.Groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(p.N)), gputest.Buffer(gputest.AnyUints(r, int(p.N))), gputest.Buffer(gputest.AnyUints(r, int(p.Groups()))),
				gputest.Scalar(p.N), gputest.Scalar(p.Chunk), gputest.Scalar(exclusive),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, u32(a, 0), u32(a, 1), u32(a, 2), num(a, 3), num(a, 4), num(a, 5))
		},
	}
}

// Seasoned returns n seasoned floats: specials (NaNs, infinities, signed
// zeros), subnormals and ordinary values.
func Seasoned(r *rand.Rand, n uint32) []float32 { return gputest.Seasoned(r, int(n)) }
