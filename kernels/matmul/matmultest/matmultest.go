// Package matmultest holds the cases of package matmul's kernels: every
// member of the Tiled template, launched through its launcher on fresh
// random matrices (the gaps past each row poisoned, C poisoned where beta
// is 0) against the reference runner, within a named tolerance, at shapes
// that are multiples of no tile and of some, and in every layout of
// transposes, leading dimensions and scalars. The package's tests run
// them on every device, and so does any program that checks the library
// where tests cannot run (the browser demo). It sits above matmul and
// gputest.
package matmultest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/matmul"
)

// Member is one member of Tiled: its handle and its launcher.
type Member struct {
	Kernel *gpu.Kernel
	Launch func(s *gpu.Stream, groups xpu.Dim3, C, A, B *gpu.Buffer[float32], transA, transB, m, n, k, lda, ldb, ldc uint32, alpha, beta float32) error
}

// Members are every member of Tiled, TiledWave and TiledVec.
var Members = []Member{
	{matmul.Tile8x8Kernel, matmul.LaunchTile8x8},
	{matmul.Tile16x16Kernel, matmul.LaunchTile16x16},
	{matmul.Tile32x32Kernel, matmul.LaunchTile32x32},
	{matmul.Tile64x64Kernel, matmul.LaunchTile64x64},
	{matmul.Tile64x32Kernel, matmul.LaunchTile64x32},
	{matmul.Tile32x64Kernel, matmul.LaunchTile32x64},
	{matmul.Tile128x64Kernel, matmul.LaunchTile128x64},
	{matmul.Tile64x128Kernel, matmul.LaunchTile64x128},
	{matmul.Wave64x64W8Kernel, matmul.LaunchWave64x64W8},
	{matmul.Wave64x128W8Kernel, matmul.LaunchWave64x128W8},
	{matmul.Vec64x64Kernel, matmul.LaunchVec64x64},
	{matmul.Vec128x64Kernel, matmul.LaunchVec128x64},
	{matmul.Vec64x128Kernel, matmul.LaunchVec64x128},
	{matmul.Vec128x128Kernel, matmul.LaunchVec128x128},
}

// shape is the size of a product: C is m x n, A m x k, B k x n.
type shape struct{ m, n, k uint32 }

// shapes are the products every member is checked at: a single element,
// sizes that are multiples of no tile, multiples of some tiles only, and
// one of about 200 whose grid holds several blocks of every member. The
// reference runner runs a goroutine per work-item, so they stay modest.
var shapes = []shape{{1, 1, 1}, {67, 45, 33}, {128, 64, 96}, {203, 190, 37}}

// Tile returns the member's comptime value as its handle carries it. A
// member of Tiled always carries one (matmul's tests check it): a handle
// without is a bug of the generated code, and Tile panics.
func Tile(k *gpu.Kernel) matmul.Tile {
	c, ok := k.Spec().Comptime.(matmul.Tile)
	if !ok {
		panic(fmt.Sprintf("matmultest: %s: comptime value %#v is not a matmul.Tile", k.Name(), k.Spec().Comptime))
	}
	return c
}

// layout is how a case stores and scales its product: whether A and B
// are transposed, how far each leading dimension exceeds its stored row,
// and alpha and beta.
type layout struct {
	transA, transB bool
	pad            uint32
	alpha, beta    float32
}

// plain is C = A*B, packed.
var plain = layout{alpha: 1}

// layouts are every pair of transposes, each with leading dimensions
// past the rows (the gaps poisoned, so that a read of one or a write to
// one shows), once with beta 0 over a poisoned C, which must not be read,
// and once with both scalars other than 0 and 1 (negative, so that signs
// are carried, and alike, so that nothing cancels under the tolerance).
var layouts = func() []layout {
	var ls []layout
	for _, ta := range []bool{false, true} {
		for _, tb := range []bool{false, true} {
			ls = append(ls, layout{transA: ta, transB: tb, pad: 3, alpha: 1.5},
				layout{transA: ta, transB: tb, pad: 5, alpha: -0.75, beta: -0.5})
		}
	}
	return ls
}()

// Stored returns a matrix of rows x cols elements, rows ld apart, as BLAS
// stores it: random values in [0, 1), and NaN in the gaps past each row.
func Stored(r *rand.Rand, rows, cols, ld uint32) []float32 {
	v := make([]float32, (rows-1)*ld+cols)
	for i := range v {
		v[i] = float32(math.NaN())
		if uint32(i)%ld < cols {
			v[i] = r.Float32()
		}
	}
	return v
}

// flag is a transpose as Tiled takes it.
func flag(t bool) uint32 {
	if t {
		return 1
	}
	return 0
}

// Tolerance bounds the difference of one element of C from the
// reference's. Both add the same k products in the same order (the
// staged zeros add nothing), then scale by alpha and add beta*C, but a
// device may fuse each multiply-add where the reference rounds the
// product first: a rounding of at most half an ulp per step, which the
// sum carries on. On operands in [0, 1), scaled by alike signs, nothing
// cancels, so the difference stays within k+2 units of 2^-23 relative to
// the result.
func Tolerance(k uint32) gputest.Tolerance {
	return gputest.Tolerance{
		Name: fmt.Sprintf("sums of %d products of alike signs in the reference's order, then alpha and beta, each step may be fused: (k+2)*2^-23 relative", k),
		ULP:  1,
		Rel:  float64(k+2) * 0x1p-23,
	}
}

// memberCase is the case of mb at s in layout l.
func memberCase(mb Member, s shape, l layout) *gputest.Case {
	ar, ac := s.m, s.k
	if l.transA {
		ar, ac = s.k, s.m
	}
	br, bc := s.k, s.n
	if l.transB {
		br, bc = s.n, s.k
	}
	lda, ldb, ldc := ac+l.pad, bc+l.pad, s.n+l.pad
	c := Tile(mb.Kernel)
	return &gputest.Case{
		Kernel: mb.Kernel,
		Tol:    Tolerance(s.k),
		Setup: func(r *rand.Rand) gputest.Inputs {
			C := gputest.Poisoned[float32](int((s.m-1)*ldc + s.n))
			if l.beta != 0 {
				C = gputest.Buffer(Stored(r, s.m, s.n, ldc))
			}
			return gputest.Inputs{Groups: matmul.Groups(c, s.m, s.n), Args: []gputest.Arg{
				C, gputest.Buffer(Stored(r, ar, ac, lda)), gputest.Buffer(Stored(r, br, bc, ldb)),
				gputest.Scalar(flag(l.transA)), gputest.Scalar(flag(l.transB)),
				gputest.Scalar(s.m), gputest.Scalar(s.n), gputest.Scalar(s.k),
				gputest.Scalar(lda), gputest.Scalar(ldb), gputest.Scalar(ldc),
				gputest.Scalar(l.alpha), gputest.Scalar(l.beta),
			}}
		},
		Launch: func(st *gpu.Stream, g xpu.Dim3, a []any) error {
			buf := func(i int) *gpu.Buffer[float32] { return gputest.At[*gpu.Buffer[float32]](a, i) }
			u := func(i int) uint32 { return gputest.At[uint32](a, i) }
			return mb.Launch(st, g, buf(0), buf(1), buf(2), u(3), u(4), u(5), u(6), u(7), u(8), u(9), u(10),
				gputest.At[float32](a, 11), gputest.At[float32](a, 12))
		},
	}
}

// Cases returns the cases of every member: the plain product at every
// shape, and every layout at a shape that is a multiple of no tile. short
// keeps the first two shapes, a smaller shape for the layouts and half of
// the layouts' cases: every pair of transposes on every member, beta 0 on
// the members of even index and both scalars on the odd ones; for short
// mode, the runs that repeat the suite on other backends and the
// browser, where the reference runner's goroutine per work-item is slow.
func Cases(short bool) []*gputest.Case {
	if short {
		return cases(shapes[:2], shape{21, 19, 17}, true)
	}
	return cases(shapes, shape{67, 45, 33}, false)
}

// RaceCases returns the short cases less the plain product at the larger
// shape: every member at a single element and in every pair of
// transposes at the smaller layout shape (several blocks of the smaller
// tiles), for a binary built with the race detector, where the reference
// runner runs some ten times slower still. It looks for races; the runs
// without the detector check the values at every shape.
func RaceCases() []*gputest.Case {
	return cases(shapes[:1], shape{21, 19, 17}, true)
}

// cases returns the plain product of every member at each of sizes, and
// the layouts at sl: all of them, or half when half is set.
func cases(sizes []shape, sl shape, half bool) []*gputest.Case {
	var cs []*gputest.Case
	for _, s := range sizes {
		for _, mb := range Members {
			cs = append(cs, memberCase(mb, s, plain))
		}
	}
	for i, l := range layouts {
		for j, mb := range Members {
			if !half || i%2 == j%2 {
				cs = append(cs, memberCase(mb, sl, l))
			}
		}
	}
	return cs
}
