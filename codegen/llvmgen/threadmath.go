package llvmgen

// This file lowers the transcendental functions on a GPU, which has no C
// library: in float32, from the hardware's base-2 exponential and
// logarithm (NVIDIA's ex2.approx and lg2.approx, about 2 ulp; AMD's
// v_exp_f32 and v_log_f32, 1 ulp) and, for the trigonometric ones, a
// reduction by multiples of pi/2 in three parts and minimax polynomials
// on [-pi/4, pi/4]; tanh as on the host (floatmath.go). They are within
// the bounds WGSL states for its own (exp and exp2 3+2|x| ulp, log and
// log2 3 ulp or 2^-21 absolute near 1, pow as exp2(y*log2(x))), the
// tolerance the suites already allow a GPU; Go's special values (NaN, infinities, signed zeros of pow) are
// kept where the formulas would lose them.

import (
	"math"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
)

func (g *gen) gpuMath(fn ir.Builtin, args []llvm.Value) llvm.Value {
	x := args[0]
	switch fn {
	case ir.Exp2:
		return g.exp2(x)
	case ir.Exp:
		return g.expf(x)
	case ir.Log2:
		return g.log2(x)
	case ir.Log:
		return g.fmul(g.log2(x), f32c(math.Ln2))
	case ir.Pow:
		return g.pow(x, args[1])
	case ir.Sin:
		return g.sinCos(x, false)
	case ir.Cos:
		return g.sinCos(x, true)
	case ir.Tan:
		return g.b.Bin(llvm.FDiv, g.sinCos(x, false), g.sinCos(x, true), llvm.Flags{})
	case ir.Tanh:
		return g.tanh(x)
	}
	g.fail("the function %v on a GPU", fn)
	return nil
}

func f32c(v float64) llvm.Value { return llvm.ConstF32(float32(v)) }

func (g *gen) fmul(x, y llvm.Value) llvm.Value { return g.b.Bin(llvm.FMul, x, y, llvm.Flags{}) }
func (g *gen) fadd(x, y llvm.Value) llvm.Value { return g.b.Bin(llvm.FAdd, x, y, llvm.Flags{}) }
func (g *gen) fma(x, y, z llvm.Value) llvm.Value {
	return g.intrinsic("llvm.fma."+suffix(x.Type()), x.Type(), x, y, z)
}

// exp2 is the hardware's 2^x.
func (g *gen) exp2(x llvm.Value) llvm.Value {
	if g.t.Arch == ArchNVPTX {
		return g.intrinsic("llvm.nvvm.ex2.approx.f", llvm.F32, x)
	}
	return g.intrinsic("llvm.exp2.f32", llvm.F32, x)
}

// log2 is the hardware's log2(x).
func (g *gen) log2(x llvm.Value) llvm.Value {
	if g.t.Arch == ArchNVPTX {
		return g.intrinsic("llvm.nvvm.lg2.approx.f", llvm.F32, x)
	}
	return g.intrinsic("llvm.log2.f32", llvm.F32, x)
}

// expf is e^x = 2^h * 2^l, h + l = x*log2(e) to twice float32's
// precision (the product's rounding error by an fma), 2^l as 1 + l ln 2.
func (g *gen) expf(x llvm.Value) llvm.Value {
	l2e := float32(math.Log2E)
	lo := math.Log2E - float64(l2e) // log2(e) past float32
	h := g.fmul(x, llvm.ConstF32(l2e))
	l := g.fma(x, llvm.ConstF32(l2e), g.b.FNeg(h))
	l = g.fma(x, f32c(lo), l)
	// An infinite x has no l (inf - inf): 2^h alone.
	l = g.b.Select(g.b.FCmp(llvm.UNO, l, l), f32c(0), l)
	e := g.exp2(h)
	return g.fma(e, g.fmul(l, f32c(math.Ln2)), e)
}

// pow is x^y as exp2(y*log2|x|) with Go's rules for a negative x (a sign
// for an odd integer y, NaN for one that is no integer) and for y = 0 or
// x = 1 (exactly 1, NaN or not).
func (g *gen) pow(x, y llvm.Value) llvm.Value {
	b := g.b
	ax := g.intrinsic("llvm.fabs.f32", llvm.F32, x)
	r := g.exp2(g.fmul(y, g.log2(ax)))
	integer := b.FCmp(llvm.OEQ, g.intrinsic("llvm.trunc.f32", llvm.F32, y), y)
	// y is odd: an integer below 2^24 in magnitude with its low bit set.
	small := b.FCmp(llvm.OLT, g.intrinsic("llvm.fabs.f32", llvm.F32, y), f32c(1<<24))
	low := b.And(b.Cast(llvm.FPToSI, b.Select(small, y, f32c(0)), llvm.I32), i32(1))
	odd := b.And(b.And(integer, small), b.ICmp(llvm.NE, low, i32(0)))
	neg := b.FCmp(llvm.OLT, x, f32c(0))
	r = b.Select(b.And(neg, odd), b.FNeg(r), r)
	r = b.Select(b.And(neg, g.not(integer)), f32c(math.NaN()), r)
	one := b.Or(b.FCmp(llvm.OEQ, y, f32c(0)), b.FCmp(llvm.OEQ, x, f32c(1)))
	return b.Select(one, f32c(1), r)
}

// sinCos is sin(x), or cos(x) when cos is set: x = k*pi/2 + r with
// |r| <= pi/4, r to float32's precision for |x| up to about 1e5, and
// the polynomial of sin or cos of r as k's quadrant chooses.
func (g *gen) sinCos(x llvm.Value, cos bool) llvm.Value {
	b := g.b
	k := g.intrinsic("llvm.roundeven.f32", llvm.F32, g.fmul(x, f32c(2/math.Pi)))
	// pi/2 in three float32 parts.
	p1 := float32(math.Pi / 2)
	p2 := float32(math.Pi/2 - float64(p1))
	p3 := float32(math.Pi/2 - float64(p1) - float64(p2))
	r := g.fma(b.FNeg(k), llvm.ConstF32(p1), x)
	r = g.fma(b.FNeg(k), llvm.ConstF32(p2), r)
	r = g.fma(b.FNeg(k), llvm.ConstF32(p3), r)
	// k's quadrant: k mod 4, of an integer that fits an int64 (a larger
	// or NaN x has lost r anyway, and gives NaN by r below).
	big := b.FCmp(llvm.OLT, g.intrinsic("llvm.fabs.f32", llvm.F32, k), f32c(1<<62))
	q := b.Cast(llvm.Trunc, b.Cast(llvm.FPToSI, b.Select(big, k, f32c(0)), llvm.I64), llvm.I32)
	if cos {
		q = b.Add(q, i32(1)) // cos(x) = sin(x + pi/2)
	}
	z := g.fmul(r, r)
	// sin(r) ~ r + r z (s1 + z (s2 + z s3)); cos(r) ~ 1 - z/2 + z^2 (c1 + z (c2 + z c3)).
	s := g.fma(g.fmul(r, z), g.fma(z, g.fma(z, f32c(-1.9515295891e-4), f32c(8.3321608736e-3)), f32c(-1.6666654611e-1)), r)
	c := g.fma(g.fmul(z, z), g.fma(z, g.fma(z, f32c(2.443315711809948e-5), f32c(-1.388731625493765e-3)), f32c(4.166664568298827e-2)),
		g.fma(z, f32c(-0.5), f32c(1)))
	odd := b.ICmp(llvm.NE, b.And(q, i32(1)), i32(0))
	v := b.Select(odd, c, s)
	flip := b.ICmp(llvm.NE, b.And(q, i32(2)), i32(0))
	v = b.Select(flip, b.FNeg(v), v)
	// An infinite x: NaN, as r is.
	return b.Select(b.FCmp(llvm.UNO, r, r), r, v)
}
