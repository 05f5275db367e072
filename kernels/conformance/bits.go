package conformance

import (
	"math"
	"math/bits"

	"github.com/goxpu/xpu"
)

// Library kernels: the functions of math and math/bits that kernels call
// under their Go names, and xpu.Rsqrt.

// bitsOut is how many results Bits writes per operand pair.
const bitsOut = 12

// Bits applies math/bits' 32-bit functions to a[i] (and b[i], k[i]): the
// counts in both conversions kernels write, rotations by a loaded count
// and by constants, and both words of a product.
//
//xpu:kernel block=64
func Bits(t xpu.Thread, out []uint32, a, b []uint32, k []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, y := a[i], b[i]
	o := i * bitsOut
	out[o+0] = uint32(bits.OnesCount32(x))
	out[o+1] = uint32(bits.LeadingZeros32(x))
	out[o+2] = uint32(bits.TrailingZeros32(x))
	out[o+3] = uint32(int32(bits.Len32(x)) - 1)
	out[o+4] = bits.Reverse32(x)
	out[o+5] = bits.ReverseBytes32(x)
	out[o+6] = bits.RotateLeft32(x, int(k[i]))
	out[o+7] = bits.RotateLeft32(x, -3)
	out[o+8] = bits.RotateLeft32(y, int(uint32(k[i])>>27))
	hi, lo := bits.Mul32(x, y)
	out[o+9] = hi
	out[o+10] = lo
	var h uint32
	h, _ = bits.Mul32(y, 0x9e3779b9)
	out[o+11] = h
}

// floatBitsOut is how many results FloatBits writes per operand.
const floatBitsOut = 6

// FloatBits reinterprets float32 values and their bits with package
// math's functions, compares with math's infinities and NaN, and writes
// xpu.Rsqrt.
//
//xpu:kernel block=64
func FloatBits(t xpu.Thread, u []uint32, f []float32, x []float32, a []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	o := i * floatBitsOut
	v := x[i]
	u[o+0] = math.Float32bits(v)
	u[o+1] = math.Float32bits(math.Float32frombits(a[i]))
	u[o+2] = math.Float32bits(float32(math.Inf(-1)))
	u[o+3] = math.Float32bits(float32(math.NaN())) >> 22 // the quiet bit and the exponent
	var c uint32
	if v == float32(math.Inf(1)) {
		c |= 1
	}
	if v == float32(math.Inf(-1)) {
		c |= 2
	}
	if v != v {
		c |= 4
	}
	if xpu.Abs(v) <= math.MaxFloat32 {
		c |= 8
	}
	u[o+4] = c
	u[o+5] = math.Float32bits(xpu.Min(v, float32(math.Inf(1))))
	f[2*i] = xpu.Rsqrt(v)
	f[2*i+1] = math.Float32frombits(a[i])
}
