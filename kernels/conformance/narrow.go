package conformance

import "github.com/goxpu/xpu"

// Narrow kernels: int8, uint8, int16 and uint16 values and buffers, with
// Go's semantics (arithmetic wraps at the type's width, conversions keep
// the low bits or extend), and stores of neighbouring elements by
// different work-items, which WGSL packs into one 32-bit word.

// Pixels scales 8-bit pixels by gain and converts back with saturation
// as Go code writes it: each work-item stores one byte, so the four
// work-items of a word store into it at once.
//
//xpu:kernel block=64
func Pixels(t xpu.Thread, out, in []uint8, gain float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	v := float32(in[i])*gain + 0.5
	if v > 255 {
		v = 255
	}
	if v < 0 {
		v = 0
	}
	out[i] = uint8(v)
}

// DotInt8 is a row of int8 weights times an int8 vector, accumulated in
// int32: out[i] is the dot product of row i of a (k wide) with b.
//
//xpu:kernel block=64
func DotInt8(t xpu.Thread, out []int32, a, b []int8, k, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	var acc int32
	for j := range k {
		acc += int32(a[i*k+j]) * int32(b[j])
	}
	out[i] = acc
}

// narrowArithOut is how many results Wrap16 and Wrap8 write per pair.
const narrowArithOut = 10

// Wrap16 applies Go's operators to pairs of uint16 and of int16 operands:
// every result wraps at 16 bits. The divisors are never zero; s holds
// shift counts from 0 to 39.
//
//xpu:kernel block=64
func Wrap16(t xpu.Thread, us []uint16, ss []int16, ua, ub []uint16, sa, sb []int16, s []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	o := i * narrowArithOut
	x, y, k := ua[i], ub[i], s[i]
	us[o+0] = x + y
	us[o+1] = x - y
	us[o+2] = x * y
	us[o+3] = x / y
	us[o+4] = x % y
	us[o+5] = x << k
	us[o+6] = x >> k
	us[o+7] = -x
	us[o+8] = ^x &^ y
	us[o+9] = x*x + 40000
	p, q := sa[i], sb[i]
	ss[o+0] = p + q
	ss[o+1] = p - q
	ss[o+2] = p * q
	ss[o+3] = p / q
	ss[o+4] = p % q
	ss[o+5] = p << k
	ss[o+6] = p >> k
	ss[o+7] = -p
	ss[o+8] = ^p | q
	ss[o+9] = p*3 - 30000
}

// Wrap8 is Wrap16 for uint8 and int8, with the operators applied through
// device functions and compound assignments.
//
//xpu:kernel block=64
func Wrap8(t xpu.Thread, us []uint8, ss []int8, ua, ub []uint8, sa, sb []int8, s []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	o := i * narrowArithOut
	x, y, k := ua[i], ub[i], s[i]
	us[o+0] = addU8(x, y)
	us[o+1] = x - y
	us[o+2] = x * y
	us[o+3] = x / y
	us[o+4] = x % y
	us[o+5] = x << k
	us[o+6] = x >> k
	us[o+7] = -x
	z := x
	z *= 3
	z++
	us[o+8] = z
	us[o+9] = ^x ^ y
	p, q := sa[i], sb[i]
	ss[o+0] = addI8(p, q)
	ss[o+1] = p - q
	ss[o+2] = p * q
	ss[o+3] = p / q
	ss[o+4] = p % q
	ss[o+5] = p << k
	ss[o+6] = p >> k
	ss[o+7] = -p
	w := p
	w -= 100
	w--
	ss[o+8] = w
	ss[o+9] = ^p & q
}

func addU8(a, b uint8) uint8 { return a + b }

func addI8(a, b int8) int8 { return a + b }

// narrowConvOut is how many results NarrowConvert writes per value.
const narrowConvOut = 12

// NarrowConvert converts between every width Go converts: an int32 to
// each narrow type (the low bits), each narrow type to int32, uint32 and
// float32 (extended by its sign), narrow to narrow, and float32 in range
// to int16 and uint8. The results are widened into out as Go does.
//
//xpu:kernel block=64
func NarrowConvert(t xpu.Thread, out []int32, f []float32, a []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	v := a[i]
	o := i * narrowConvOut
	b := int8(v)
	ub := uint8(v)
	h := int16(v)
	uh := uint16(v)
	out[o+0] = int32(b)
	out[o+1] = int32(ub)
	out[o+2] = int32(h)
	out[o+3] = int32(uh)
	out[o+4] = int32(uint32(b))
	out[o+5] = int32(uint16(b))
	out[o+6] = int32(int8(uh))
	out[o+7] = int32(int16(ub)) + int32(uint8(h))
	out[o+8] = int32(float32(b) * 2)
	out[o+9] = int32(float32(uh) + 0.5)
	x := f[i] // in -32768..32767
	out[o+10] = int32(int16(x))
	var arr [4]uint8
	for j := range uint32(4) {
		arr[j] = ub + uint8(j)*64
	}
	out[o+11] = int32(arr[0]) + int32(arr[1])<<8 + int32(arr[2])<<16 + int32(arr[3])<<24
}

// NarrowLen writes every element of its int16 buffer, whose length is no
// multiple of the two a word holds, guarded by len alone: each element is
// its index times 3, wrapped.
//
//xpu:kernel block=64
func NarrowLen(t xpu.Thread, out []int16) {
	i := t.GlobalX()
	if i < uint32(len(out)) {
		out[i] = int16(i) * 3
	}
}

// HalfToFloat widens binary16 values to float32 (xpu.Float16.Float32):
// exact, subnormals, infinities and NaNs included.
//
//xpu:kernel block=64
func HalfToFloat(t xpu.Thread, out []float32, h []xpu.Float16, n uint32) {
	i := t.GlobalX()
	if i < n {
		out[i] = h[i].Float32()
	}
}

// FloatToHalf rounds float32 values to binary16 (xpu.Float16From): to
// nearest, ties to even, overflowing to infinities. Each work-item
// stores one half of a word.
//
//xpu:kernel block=64
func FloatToHalf(t xpu.Thread, out []xpu.Float16, f []float32, n uint32) {
	i := t.GlobalX()
	if i < n {
		out[i] = xpu.Float16From(f[i])
	}
}

// HalfScale scales a binary16 vector in place through float32: y[i] =
// Float16(a * y[i]), the product rounded once to float32 and once to
// binary16, as in Go.
//
//xpu:kernel block=64
func HalfScale(t xpu.Thread, y []xpu.Float16, a float32, n uint32) {
	i := t.GlobalX()
	if i < n {
		v := y[i].Float32()
		y[i] = xpu.Float16From(a * v)
	}
}
