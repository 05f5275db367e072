// Package nntest holds the cases of package nn's kernels: the row
// kernels (softmax, RMSNorm, LayerNorm), the element-wise ones (add, mul,
// SiLU, GELU, RoPE) and every member of the attention template, each
// launched through its launcher on fresh random inputs with poisoned
// outputs, against the reference runner, within a named tolerance. The
// package's tests run them on every device, and so does any program that
// checks the library where tests cannot run (the browser demo). It sits
// above nn and gputest.
package nntest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/nn"
)

// buf returns argument i as a float32 buffer.
func buf(a []any, i int) *gpu.Buffer[float32] { return gputest.At[*gpu.Buffer[float32]](a, i) }

func u32(a []any, i int) uint32 { return gputest.At[uint32](a, i) }

// shape is a matrix's rows and columns, and the grid to launch it over:
// RowGroups of its rows, unless given (a grid of more blocks than rows,
// in Y too, checks the blocks past the last row).
type shape struct {
	rows, cols uint32
	groups     xpu.Dim3
}

func (s shape) String() string { return fmt.Sprintf("%dx%d", s.rows, s.cols) }

func (s shape) grid() xpu.Dim3 {
	if s.groups.X != 0 {
		return s.groups
	}
	return nn.RowGroups(s.rows)
}

// shapes are a single element, a row shorter than the block, rows of
// several columns a work-item, and a grid of 2x2 blocks for 3 rows.
var shapes = []shape{{1, 1, xpu.Dim3{}}, {3, 5, xpu.Dim3{}}, {7, 700, xpu.Dim3{}}, {3, 300, xpu.Dim3{X: 2, Y: 2, Z: 1}}}

// Seasoned returns n values in [lo, hi), the first row of cols holding
// -Inf at every third place and, when there is a second row, a NaN in it.
func Seasoned(r *rand.Rand, n, cols int, lo, hi float32) []float32 {
	v := gputest.Floats(r, n, lo, hi)
	for j := 0; j < cols; j += 3 {
		if cols > 1 {
			v[j] = float32(math.Inf(-1))
		}
	}
	if n > cols {
		v[cols+cols/2] = float32(math.NaN())
	}
	return v
}

// WGSL's exp is within 3 + 2|x| ulp; on inputs in [-4, 4], x - max lies
// in [-8, 0]: 19 ulp for each exponential, and a division and a product
// after.
var softmaxTol = gputest.Tolerance{Name: "WGSL exp: 3+2|x| ulp for |x| <= 8, a division and a product: 32 ulp", ULP: 32}

// rowCases are the row kernels at every shape.
func rowCases() []*gputest.Case {
	var cs []*gputest.Case
	for _, s := range shapes {
		n := int(s.rows * s.cols)
		for _, m := range nn.SoftmaxTemplate.Members() {
			cs = append(cs, &gputest.Case{
				Kernel: m, Tol: softmaxTol,
				Setup: func(r *rand.Rand) gputest.Inputs {
					return gputest.Inputs{Groups: s.grid(), Args: []gputest.Arg{
						gputest.Poisoned[float32](n), gputest.Buffer(Seasoned(r, n, int(s.cols), -4, 4)), gputest.Scalar(s.rows), gputest.Scalar(s.cols)}}
				},
				Launch: func(st *gpu.Stream, g xpu.Dim3, a []any) error { return st.Launch(m, g, a...) },
			})
		}
		cs = append(cs,
			&gputest.Case{
				Kernel: nn.RMSNormKernel, Tol: normTol(s.cols),
				Setup: func(r *rand.Rand) gputest.Inputs {
					return gputest.Inputs{Groups: s.grid(), Args: []gputest.Arg{
						gputest.Poisoned[float32](n), gputest.Buffer(gputest.Floats(r, n, -1, 1)), gputest.Buffer(gputest.Floats(r, int(s.cols), 0.5, 1.5)),
						gputest.Scalar(s.rows), gputest.Scalar(s.cols), gputest.Scalar(float32(1e-5))}}
				},
				Launch: func(st *gpu.Stream, g xpu.Dim3, a []any) error {
					return nn.LaunchRMSNorm(st, g, buf(a, 0), buf(a, 1), buf(a, 2), u32(a, 3), u32(a, 4), gputest.At[float32](a, 5))
				},
			},
			&gputest.Case{
				Kernel: nn.LayerNormKernel, Tol: normTol(s.cols),
				Setup: func(r *rand.Rand) gputest.Inputs {
					return gputest.Inputs{Groups: s.grid(), Args: []gputest.Arg{
						gputest.Poisoned[float32](n), gputest.Buffer(gputest.Floats(r, n, -1, 1)),
						gputest.Buffer(gputest.Floats(r, int(s.cols), 0.5, 1.5)), gputest.Buffer(gputest.Floats(r, int(s.cols), -1, 1)),
						gputest.Scalar(s.rows), gputest.Scalar(s.cols), gputest.Scalar(float32(1e-5))}}
				},
				Launch: func(st *gpu.Stream, g xpu.Dim3, a []any) error {
					return nn.LaunchLayerNorm(st, g, buf(a, 0), buf(a, 1), buf(a, 2), buf(a, 3), u32(a, 4), u32(a, 5), gputest.At[float32](a, 6))
				},
			})
	}
	return cs
}

// normTol bounds a norm's element: its sums add in the reference's
// order, each product perhaps fused (half an ulp a step, cols steps),
// then a square root and a division (WGSL: 2.5 ulp each) and products;
// LayerNorm's centring subtracts a mean carrying the sum's error, which
// an absolute bound of the same size covers for values of order 1.
func normTol(cols uint32) gputest.Tolerance {
	e := float64(cols+16) * 0x1p-23
	return gputest.Tolerance{Name: fmt.Sprintf("sums of %d terms, each product perhaps fused, then sqrt and a division: (cols+16)*2^-23", cols), ULP: 16, Rel: e, Abs: e}
}

// elemCases are the element-wise kernels at n elements over groups
// blocks (0: ElemGroups of n).
func elemCases(n int, groups uint32) []*gputest.Case {
	g := xpu.Dim3{X: groups, Y: 1, Z: 1}
	if groups == 0 {
		g = nn.ElemGroups(uint32(n))
	}
	launch2 := func(f func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[float32], *gpu.Buffer[float32], uint32) error) func(*gpu.Stream, xpu.Dim3, []any) error {
		return func(st *gpu.Stream, g xpu.Dim3, a []any) error { return f(st, g, buf(a, 0), buf(a, 1), u32(a, 2)) }
	}
	unary := func(k *gpu.Kernel, tol gputest.Tolerance, f func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[float32], *gpu.Buffer[float32], uint32) error) *gputest.Case {
		return &gputest.Case{Kernel: k, Tol: tol,
			Setup: func(r *rand.Rand) gputest.Inputs {
				return gputest.Inputs{Groups: g, Args: []gputest.Arg{gputest.Poisoned[float32](n), gputest.Buffer(gputest.Floats(r, n, -8, 8)), gputest.Scalar(uint32(n))}}
			},
			Launch: launch2(f)}
	}
	binary := func(k *gpu.Kernel, f func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[float32], *gpu.Buffer[float32], *gpu.Buffer[float32], uint32) error) *gputest.Case {
		return &gputest.Case{Kernel: k, Tol: gputest.Tolerance{Name: "one IEEE operation, correctly rounded: exact"},
			Setup: func(r *rand.Rand) gputest.Inputs {
				return gputest.Inputs{Groups: g, Args: []gputest.Arg{gputest.Poisoned[float32](n),
					gputest.Buffer(gputest.Floats(r, n, -8, 8)), gputest.Buffer(gputest.Floats(r, n, -8, 8)), gputest.Scalar(uint32(n))}}
			},
			Launch: func(st *gpu.Stream, g xpu.Dim3, a []any) error {
				return f(st, g, buf(a, 0), buf(a, 1), buf(a, 2), u32(a, 3))
			}}
	}
	const heads, dim = 2, 8
	tokens := max(1, n/(heads*dim))
	return []*gputest.Case{
		binary(nn.AddKernel, nn.LaunchAdd),
		binary(nn.MulKernel, nn.LaunchMul),
		unary(nn.SiLUKernel, gputest.Tolerance{Name: "WGSL exp: 3+2|x| ulp for |x| <= 8, and a division: 24 ulp", ULP: 24}, nn.LaunchSiLU),
		// 1 + tanh cancels where tanh nears -1: tanh's absolute error (a
		// few ulp of 1, as WGSL inherits it from sinh/cosh) times |x| <= 8.
		unary(nn.GELUKernel, gputest.Tolerance{Name: "tanh's absolute error, a few ulp of 1, times |x| <= 8: 2^-16", ULP: 16, Abs: 0x1p-16}, nn.LaunchGELU),
		{Kernel: nn.RoPEKernel,
			// WGSL bounds sin's and cos's absolute error by 2^-11 in
			// [-pi, pi]; pow's relative error of some ulp of an angle of
			// up to 4096 radians moves the reduced angle by about 2^-11
			// too; the outputs are sums of two products of values below 1.
			Tol: gputest.Tolerance{Name: "WGSL sin, cos: 2^-11 absolute in [-pi, pi]; pow's error in the angle: 2^-9 in all", ULP: 16, Abs: 0x1p-9},
			Setup: func(r *rand.Rand) gputest.Inputs {
				pos := make([]uint32, tokens)
				for i := range pos {
					pos[i] = uint32(r.IntN(4096))
				}
				m := tokens * heads * dim
				return gputest.Inputs{Groups: nn.ElemGroups(uint32(m / 2)), Args: []gputest.Arg{
					gputest.Poisoned[float32](m), gputest.Buffer(gputest.Floats(r, m, -1, 1)), gputest.Buffer(pos),
					gputest.Scalar(uint32(tokens)), gputest.Scalar(uint32(heads)), gputest.Scalar(uint32(dim)), gputest.Scalar(float32(10000))}}
			},
			Launch: func(st *gpu.Stream, g xpu.Dim3, a []any) error {
				return nn.LaunchRoPE(st, g, buf(a, 0), buf(a, 1), gputest.At[*gpu.Buffer[uint32]](a, 2), u32(a, 3), u32(a, 4), u32(a, 5), gputest.At[float32](a, 6))
			}},
	}
}

// AttentionShapes are a decode step over three tiles of positions with
// two query heads a KV head, a prefill of a head dimension past the
// block (each work-item owns two), and a first step of one position.
var AttentionShapes = []nn.AttentionShape{
	{Tokens: 1, Heads: 4, KVHeads: 2, Dim: 64, Ctx: 300, Start: 299},
	{Tokens: 5, Heads: 2, KVHeads: 2, Dim: 200, Ctx: 12, Start: 5},
	{Tokens: 3, Heads: 3, KVHeads: 1, Dim: 8, Ctx: 3, Start: 0},
}

// attentionTol: the output is a convex combination of values below 1;
// its weights differ from the reference's by exp's error at scores of
// order 1 (a few ulp) and by dot products perhaps fused (dim roundings
// of 2^-24 each), and the sums add in the reference's order.
var attentionTol = gputest.Tolerance{Name: "convex combinations of values below 1, weights within exp's and dim fused roundings: 2^-16 absolute", ULP: 16, Abs: 0x1p-16}

// attentionCases are every member of the attention template at every
// shape of AttentionShapes.
func attentionCases() []*gputest.Case {
	var cs []*gputest.Case
	for _, m := range nn.AttentionTemplate.Members() {
		for _, a := range AttentionShapes {
			qn, kn := int(a.Tokens*a.Heads*a.Dim), int(a.Ctx*a.KVHeads*a.Dim)
			scale := float32(1 / math.Sqrt(float64(a.Dim)))
			cs = append(cs, &gputest.Case{
				Kernel: m, Tol: attentionTol,
				Setup: func(r *rand.Rand) gputest.Inputs {
					return gputest.Inputs{Groups: xpu.Dim3{X: a.Heads, Y: a.Tokens, Z: 1}, Args: []gputest.Arg{
						gputest.Poisoned[float32](qn), gputest.Buffer(gputest.Floats(r, qn, -1, 1)),
						gputest.Buffer(gputest.Floats(r, kn, -1, 1)), gputest.Buffer(gputest.Floats(r, kn, -1, 1)),
						gputest.Scalar(a.Tokens), gputest.Scalar(a.Heads), gputest.Scalar(a.KVHeads), gputest.Scalar(a.Dim),
						gputest.Scalar(a.Ctx), gputest.Scalar(a.Start), gputest.Scalar(scale)}}
				},
				Launch: func(st *gpu.Stream, g xpu.Dim3, x []any) error {
					return st.Launch(m, g, x...)
				},
			})
		}
	}
	return cs
}

// Cases returns the cases of every kernel: the row kernels, the
// element-wise ones at one element, at a thousand and over a grid of two
// blocks, and the attention members.
func Cases() []*gputest.Case {
	cs := rowCases()
	for _, c := range []struct{ n, groups int }{{1, 0}, {1000, 0}, {3000, 2}} {
		cs = append(cs, elemCases(c.n, uint32(c.groups))...)
	}
	return append(cs, attentionCases()...)
}
