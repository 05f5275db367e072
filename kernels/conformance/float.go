package conformance

import "github.com/goxpu/xpu"

// Float kernels: float32 arithmetic and the math of package xpu, grouped
// by the accuracy devices promise for them.

// FloatArith applies +, -, *, / and unary - to pairs of float32 operands.
//
//xpu:kernel block=64
func FloatArith(t xpu.Thread, out []float32, a, b []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, y := a[i], b[i]
	o := i * 5
	out[o+0] = x + y
	out[o+1] = x - y
	out[o+2] = x * y
	out[o+3] = x / y
	out[o+4] = -x
}

// MathExact applies the float32 and integer functions that devices
// compute exactly: Abs, Floor, Ceil, Round, Trunc, Min, Max and Clamp.
//
//xpu:kernel block=64
func MathExact(t xpu.Thread, out []float32, ints []int32, uints []uint32, a, b []float32, c, d []int32, e, f []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, y := a[i], b[i]
	o := i * 8
	out[o+0] = xpu.Abs(x)
	out[o+1] = xpu.Floor(x)
	out[o+2] = xpu.Ceil(x)
	out[o+3] = xpu.Round(x)
	out[o+4] = xpu.Trunc(x)
	out[o+5] = xpu.Min(x, y)
	out[o+6] = xpu.Max(x, y)
	out[o+7] = xpu.Clamp(x, -0.5, y)
	p := i * 4
	ints[p+0] = xpu.Abs(c[i])
	ints[p+1] = xpu.Min(c[i], d[i])
	ints[p+2] = xpu.Max(c[i], d[i])
	ints[p+3] = xpu.Clamp(c[i], -1000, 1000)
	uints[p+0] = xpu.Min(e[i], f[i])
	uints[p+1] = xpu.Max(e[i], f[i])
	uints[p+2] = xpu.Clamp(e[i], 1000, 1<<30)
	uints[p+3] = xpu.Abs(e[i])
}

// MathSqrtFma applies Sqrt and Fma, which devices compute to within a few
// ulps.
//
//xpu:kernel block=64
func MathSqrtFma(t xpu.Thread, out []float32, a, b, c []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	out[i*2+0] = xpu.Sqrt(a[i])
	out[i*2+1] = xpu.Fma(a[i], b[i], c[i])
}

// MathExpLog applies Exp, Exp2, Log, Log2 and Pow (to positive bases).
//
//xpu:kernel block=64
func MathExpLog(t xpu.Thread, out []float32, a, b []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, y := a[i], b[i]
	o := i * 5
	out[o+0] = xpu.Exp(y)
	out[o+1] = xpu.Exp2(y)
	out[o+2] = xpu.Log(x)
	out[o+3] = xpu.Log2(x)
	out[o+4] = xpu.Pow(x, y)
}

// MathTrig applies Sin, Cos, Tan and Tanh.
//
//xpu:kernel block=64
func MathTrig(t xpu.Thread, out []float32, a []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x := a[i]
	o := i * 4
	out[o+0] = xpu.Sin(x)
	out[o+1] = xpu.Cos(x)
	out[o+2] = xpu.Tan(x)
	out[o+3] = xpu.Tanh(x)
}

// floatCompareOut is how many results FloatCompare writes per pair.
const floatCompareOut = 4

// FloatCompare evaluates every float32 comparison, negated, against
// constants and feeding Min, Max and Clamp, on operands among which are
// NaN, infinities, zeros of both signs and subnormals: where a compiler
// that assumes finite math answers differently from IEEE (and Go). Each
// comparison sets one bit of flags; vals holds Min, Max and Clamp, whose
// sign bits (for -0 and +0) are flags too.
//
//xpu:kernel block=64
func FloatCompare(t xpu.Thread, flags []uint32, vals []float32, a, b []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, y := a[i], b[i]
	lo, hi := xpu.Min(x, y), xpu.Max(x, y)
	c := xpu.Clamp(x, -1, y)
	f := bit(x == y) | bit(x != y)<<1 | bit(x < y)<<2 | bit(x <= y)<<3 | bit(x > y)<<4 | bit(x >= y)<<5
	f |= bit(!(x == y))<<6 | bit(!(x != y))<<7 | bit(!(x < y))<<8 | bit(!(x <= y))<<9 | bit(!(x > y))<<10 | bit(!(x >= y))<<11
	f |= bit(x != x)<<12 | bit(x == x)<<13 | bit(!(x == x))<<14 | bit(!(x != x))<<15
	f |= bit(lo == y)<<16 | bit(hi == x)<<17 | bit(x < y || y < x)<<18 | bit(x < y == !(x >= y))<<19
	f |= bit(x < 0)<<20 | bit(x > 0)<<21 | bit(x == 0)<<22 | bit(0 >= x)<<23
	f |= bit(x < xpu.Float32FromBits(0x7f800000))<<24 | bit(x == xpu.Float32FromBits(0xff800000))<<25
	f |= xpu.Float32Bits(lo)>>31<<26 | xpu.Float32Bits(hi)>>31<<27 | xpu.Float32Bits(c)>>31<<28
	sel := y
	if x < y {
		sel = x
	}
	f |= bit(sel == lo)<<29 | bit(y != y && sel != sel)<<30
	flags[i] = f
	o := i * floatCompareOut
	vals[o+0] = lo
	vals[o+1] = hi
	vals[o+2] = c
	vals[o+3] = sel
}

// FloatConvert converts float32 values of a to int32 and of b to uint32.
// Go leaves NaN and values out of the target's range to the
// implementation; devices truncate toward zero, saturate and give 0 for
// NaN (TestNaNConvert).
//
//xpu:kernel block=64
func FloatConvert(t xpu.Thread, ints []int32, uints []uint32, a, b []float32, n uint32) {
	if i := t.GlobalX(); i < n {
		ints[i] = int32(a[i])
		uints[i] = uint32(b[i])
	}
}

// FloatEdges computes with float32 constants at the edges, which every
// backend must keep exact: a maximum that starts at -Inf (as a softmax
// does), the largest finite value, and infinities made from bits, by an
// operation on constants and by a math function of a constant.
//
//xpu:kernel block=64
func FloatEdges(t xpu.Thread, out []float32, a []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	m := xpu.Float32FromBits(0xff800000)
	for j := uint32(0); j < 4; j++ {
		m = xpu.Max(m, a[(i+j)%n])
	}
	o := i * 5
	out[o+0] = m
	out[o+1] = a[i] * 0x1.fffffep127
	out[o+2] = -0x1.fffffep127 + a[i]
	out[o+3] = xpu.Float32FromBits(0x7f000000) * 4
	out[o+4] = xpu.Exp(100) - a[i]
}
