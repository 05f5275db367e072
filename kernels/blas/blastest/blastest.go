// Package blastest holds the cases of package blas's kernels: GemvN,
// GemvT, Axpy and Scal, each launched through its launcher on fresh
// random operands stored as BLAS stores them (NaN in the gaps, and over y
// where beta is 0), against the reference runner, within a named
// tolerance. The package's tests run them on every device, and so does
// any program that checks the library where tests cannot run (the
// browser demo). It sits above blas and gputest.
package blastest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/blas"
)

// Strided returns a vector of n elements stored inc apart as BLAS stores
// it (from the last element when inc is negative): values from r in
// [lo, 1), and NaN in the gaps, so that a read of one shows and a write
// to one is caught; all NaN when nan is set.
func Strided(r *rand.Rand, n, inc int, lo float32, nan bool) []float32 {
	step := max(inc, -inc)
	v := make([]float32, (n-1)*step+1)
	for i := range v {
		v[i] = float32(math.NaN())
		if i%step == 0 && !nan {
			v[i] = lo + (1-lo)*r.Float32()
		}
	}
	return v
}

// Matrix returns a row-major m x n matrix, rows lda apart, values from r
// in [lo, 1) and NaN in the gaps past each row.
func Matrix(r *rand.Rand, m, n, lda int, lo float32) []float32 {
	v := make([]float32, (m-1)*lda+n)
	for i := range v {
		v[i] = float32(math.NaN())
		if i%lda < n {
			v[i] = lo + (1-lo)*r.Float32()
		}
	}
	return v
}

// SumTolerance bounds an element that adds n products, then alpha's and
// beta's steps, to the reference's: both add in the same order, but a
// device may fuse each multiply-add where the reference rounds the
// product first, half an ulp a step that the sum carries on; on operands
// in [0, 1) scaled by alike signs nothing cancels, so the difference
// stays within n+2 units of 2^-23 relative to the result.
func SumTolerance(n int) gputest.Tolerance {
	return gputest.Tolerance{
		Name: fmt.Sprintf("sums of %d products of alike signs in the reference's order, then alpha and beta, each step may be fused: (n+2)*2^-23 relative", n),
		ULP:  1,
		Rel:  float64(n+2) * 0x1p-23,
	}
}

// GemvLayout is one Gemv case: the shape, lda's excess over the row, the
// increments and the scalars.
type GemvLayout struct {
	M, N, Pad   int
	IncX, IncY  int
	Alpha, Beta float32
}

func (l GemvLayout) String() string {
	return fmt.Sprintf("%dx%d/pad%d/incX%d/incY%d/alpha%g/beta%g", l.M, l.N, l.Pad, l.IncX, l.IncY, l.Alpha, l.Beta)
}

// GemvLayouts returns a single element, shapes that fill no block and several
// blocks (and more rows or columns than one grid of 3 blocks covers, so
// that the blocks step), increments of 1, past 1 and negative, beta 0
// over a NaN y and both scalars set (alike signs, so that nothing
// cancels under the tolerance); short keeps the smaller shapes.
func GemvLayouts(short bool) []GemvLayout {
	ls := []GemvLayout{
		{M: 1, N: 1, IncX: 1, IncY: 1, Alpha: 1},
		{M: 37, N: 45, Pad: 3, IncX: 2, IncY: -3, Alpha: 1.5},
		{M: 45, N: 37, Pad: 0, IncX: -1, IncY: 2, Alpha: -0.5, Beta: -2},
	}
	if !short {
		ls = append(ls, GemvLayout{M: 200, N: 130, Pad: 1, IncX: 1, IncY: 1, Alpha: 0.75, Beta: 0.5},
			GemvLayout{M: 70, N: 300, Pad: 5, IncX: -2, IncY: -1, Alpha: 2})
	}
	return ls
}

// gemvCase is the case of kernel k (GemvN, or GemvT when trans) in layout
// l, over a grid of at most 3 blocks.
func gemvCase(l GemvLayout, trans bool) *gputest.Case {
	k, launch, lenX, lenY, per := blas.GemvNKernel, blas.LaunchGemvN, l.N, l.M, 8
	if trans {
		k, launch, lenX, lenY, per = blas.GemvTKernel, blas.LaunchGemvT, l.M, l.N, 32
	}
	lda := l.N + l.Pad
	return &gputest.Case{
		Kernel: k,
		Tol:    SumTolerance(lenX),
		Setup: func(r *rand.Rand) gputest.Inputs {
			groups := min(xpu.GroupsFor(uint32(lenY), uint32(per)), 3)
			return gputest.Inputs{Groups: xpu.Dim3{X: groups, Y: 1, Z: 1}, Args: []gputest.Arg{
				gputest.Buffer(Strided(r, lenY, l.IncY, 0, l.Beta == 0)),
				gputest.Buffer(Matrix(r, l.M, l.N, lda, 0)),
				gputest.Buffer(Strided(r, lenX, l.IncX, 0, false)),
				gputest.Scalar(uint32(l.M)), gputest.Scalar(uint32(l.N)), gputest.Scalar(uint32(lda)),
				gputest.Scalar(int32(l.IncX)), gputest.Scalar(int32(l.IncY)),
				gputest.Scalar(l.Alpha), gputest.Scalar(l.Beta),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			buf := func(i int) *gpu.Buffer[float32] { return gputest.At[*gpu.Buffer[float32]](a, i) }
			u := func(i int) uint32 { return gputest.At[uint32](a, i) }
			in := func(i int) int32 { return gputest.At[int32](a, i) }
			f := func(i int) float32 { return gputest.At[float32](a, i) }
			return launch(s, g, buf(0), buf(1), buf(2), u(3), u(4), u(5), in(6), in(7), f(8), f(9))
		},
	}
}

// VectorLayout is one level-1 case: the length, the increments, alpha,
// and the grid, smaller than the vector's so that the work-items step.
type VectorLayout struct {
	N, IncX, IncY int
	Alpha         float32
	Groups        uint32
}

func (l VectorLayout) String() string {
	return fmt.Sprintf("n%d/incX%d/incY%d/alpha%g/groups%d", l.N, l.IncX, l.IncY, l.Alpha, l.Groups)
}

// VectorLayouts are a single element, a vector past one grid of blocks,
// increments of 1, past 1 and negative, and alpha 0 (which Scal must not
// read x under).
var VectorLayouts = []VectorLayout{
	{N: 1, IncX: 1, IncY: 1, Alpha: 2, Groups: 1},
	{N: 1000, IncX: 1, IncY: 1, Alpha: -1.5, Groups: 2},
	{N: 777, IncX: 3, IncY: -2, Alpha: 0.5, Groups: 1},
	{N: 300, IncX: -1, IncY: 4, Alpha: 0, Groups: 2},
}

// level1Tol is Axpy's tolerance: y = alpha*x + y is one multiply-add,
// which a device may fuse: half an ulp.
var level1Tol = gputest.Tolerance{Name: "one multiply-add, which may be fused: 1 ulp", ULP: 1}

// level1Cases are Axpy and Scal in layout l.
func level1Cases(l VectorLayout) []*gputest.Case {
	g := xpu.Dim3{X: l.Groups, Y: 1, Z: 1}
	axpy := &gputest.Case{
		Kernel: blas.AxpyKernel,
		Tol:    level1Tol,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: g, Args: []gputest.Arg{
				gputest.Buffer(Strided(r, l.N, l.IncY, -1, false)), gputest.Buffer(Strided(r, l.N, l.IncX, -1, false)),
				gputest.Scalar(uint32(l.N)), gputest.Scalar(int32(l.IncX)), gputest.Scalar(int32(l.IncY)), gputest.Scalar(l.Alpha),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return blas.LaunchAxpy(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[float32]](a, 1),
				gputest.At[uint32](a, 2), gputest.At[int32](a, 3), gputest.At[int32](a, 4), gputest.At[float32](a, 5))
		},
	}
	scal := &gputest.Case{
		Kernel: blas.ScalKernel,
		Tol:    gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: g, Args: []gputest.Arg{
				gputest.Buffer(Strided(r, l.N, l.IncX, -1, l.Alpha == 0)),
				gputest.Scalar(uint32(l.N)), gputest.Scalar(int32(l.IncX)), gputest.Scalar(l.Alpha),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return blas.LaunchScal(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[uint32](a, 1), gputest.At[int32](a, 2), gputest.At[float32](a, 3))
		},
	}
	return []*gputest.Case{axpy, scal}
}

// Cases returns the cases of every kernel: GemvN and GemvT in every
// layout of GemvLayouts(short), Axpy and Scal in every layout of
// VectorLayouts.
func Cases(short bool) []*gputest.Case {
	var cs []*gputest.Case
	for _, l := range GemvLayouts(short) {
		cs = append(cs, gemvCase(l, false), gemvCase(l, true))
	}
	for _, l := range VectorLayouts {
		cs = append(cs, level1Cases(l)...)
	}
	return cs
}
