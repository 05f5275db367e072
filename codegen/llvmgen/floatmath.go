package llvmgen

// This file lowers exp on the host, and tanh on every target, as float32
// IR of x's shape (a scalar, or a vector of the host's lanes), so that a
// vectorized kernel computes them W lanes at a time where libm would be
// called lane by lane. Both rest on one reduction: x = n ln 2 + r with
// |r| <= ln(2)/2 (ln 2 in two parts, the first product exact), e^r - 1 as
// the Taylor series to r^7 (its remainder below 2^-27 of e^r on that
// interval), and 2^n made from exponent bits. exp is within 1 ulp of the
// correctly rounded result, tanh within 2 (floatmath_test.go sweeps both
// against package math); the languages' bound, the one the suites allow
// a GPU, is WGSL's 3+2|x| ulp.

import (
	"math"

	"github.com/goxpu/xpu/llvm"
)

// fc is the float32 constant v shaped as x.
func fc(x llvm.Value, v float64) llvm.Value { return fconstLike(x, float32(v)) }

// The bounds of exp's reduced argument: below expLow e^x rounds to 0,
// above expHigh to +Inf, and n stays within [-150, 128].
const expLow, expHigh = -104, 89

// roundMagic is 1.5 * 2^23: a float32 within 2^22 of it has an ulp of 1,
// so adding it rounds to an integer (to even), and the integer is the
// low bits of the sum's.
const roundMagic = 0x1.8p23

// expReduce returns n (as an i32 of x's shape) and e^r - 1 for x = n ln 2
// + r, x within [-150 ln 2, 128 ln 2]. A NaN x gives a NaN e^r - 1 (and
// some n): the rounding is by roundMagic's addition, not a conversion,
// which LLVM makes poison for NaN.
func (g *gen) expReduce(x llvm.Value) (n, t llvm.Value) {
	b := g.b
	// n = roundeven(x log2 e), the product exact inside the fma.
	s := g.fma(x, fc(x, math.Log2E), fc(x, roundMagic))
	nf := b.Bin(llvm.FSub, s, fc(x, roundMagic), llvm.Flags{})
	it := llvm.Like(x.Type(), llvm.I32)
	n = b.Sub(b.Cast(llvm.Bitcast, s, it), constLike(x, int64(math.Float32bits(roundMagic))))
	hi := float32(math.Ln2)
	lo := math.Ln2 - float64(hi)
	neg := b.FNeg(nf)
	r := g.fma(neg, fc(x, float64(hi)), x) // exact: r fits float32's bits
	r = g.fma(neg, fc(x, lo), r)
	// e^r - 1 = r + r^2 (1/2! + r (1/3! + ... + r/7!)), by Horner.
	q := fc(x, 1.0/5040)
	for _, c := range []float64{1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2} {
		q = g.fma(q, r, fc(x, c))
	}
	return n, g.fma(g.fmul(r, r), q, r)
}

// pow2 is 2^n for an i32 n within [-126, 127], from its exponent bits.
func (g *gen) pow2(n llvm.Value) llvm.Value {
	b := g.b
	bits := b.Bin(llvm.Shl, b.Add(n, constLike(n, 127)), constLike(n, 23), llvm.Flags{})
	return b.Cast(llvm.Bitcast, bits, llvm.Like(n.Type(), llvm.F32))
}

// hostExp is e^x: +Inf above expHigh, 0 below expLow, NaN for NaN.
func (g *gen) hostExp(x llvm.Value) llvm.Value {
	b := g.b
	// Clamped so that a NaN passes, to give NaN through the arithmetic.
	c := b.Select(b.FCmp(llvm.OLT, x, fc(x, expLow)), fc(x, expLow), x)
	c = b.Select(b.FCmp(llvm.OGT, c, fc(x, expHigh)), fc(x, expHigh), c)
	n, t := g.expReduce(c)
	p := g.fadd(t, fc(x, 1))
	// 2^n in two factors, each a normal float32 for n in [-150, 128]: the
	// second product rounds once, to a subnormal, 0 or +Inf as e^x does.
	n1 := b.Bin(llvm.AShr, n, constLike(n, 1), llvm.Flags{})
	n2 := b.Sub(n, n1)
	return g.fmul(g.fmul(p, g.pow2(n1)), g.pow2(n2))
}

// tanhLow bounds -2|x| below: past it, e^{-2|x|} - 1 is -1 in float32.
const tanhLow = -40

// tanh is -m/(2 + m) with m = e^{-2|x|} - 1 and x's sign, m computed
// without cancellation (2^n t + (2^n - 1), each term exact or rounded
// once), so that small |x| keep their precision: tanh of a subnormal is
// itself, of -0 is -0; NaN for NaN.
func (g *gen) tanh(x llvm.Value) llvm.Value {
	b := g.b
	ax := g.intrinsic("llvm.fabs."+suffix(x.Type()), x.Type(), x)
	y := g.fmul(ax, fc(x, -2))
	y = b.Select(b.FCmp(llvm.OGT, y, fc(x, tanhLow)), y, fc(x, tanhLow))
	n, t := g.expReduce(y)
	s := g.pow2(n)
	m := g.fma(s, t, b.Bin(llvm.FSub, s, fc(x, 1), llvm.Flags{}))
	var th llvm.Value = b.Bin(llvm.FDiv, b.FNeg(m), g.fadd(m, fc(x, 2)), llvm.Flags{})
	th = g.intrinsic("llvm.copysign."+suffix(x.Type()), x.Type(), th, x)
	return b.Select(b.FCmp(llvm.UNO, x, x), x, th)
}
