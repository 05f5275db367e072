package xpu

import (
	"math"
	"math/bits"
)

// Float16 is an IEEE 754 binary16 value held as its bits: a storage type
// for buffers of half-precision data. Kernels compute in float32: convert
// with [Float16.Float32] and back with [Float16From]; arithmetic and
// comparison on Float16 itself are refused in kernels ([xpu-float16-arith]),
// since on the bits they would mean integer arithmetic. Both conversions
// are exact integer bit manipulation on every backend.
type Float16 uint16

// Float32 returns h as a float32, which holds every binary16 value
// exactly (subnormals included). A NaN stays a NaN of the same sign and
// payload, made quiet.
func (h Float16) Float32() float32 {
	x := uint32(h)
	s := x & 0x8000 << 16
	e := x >> 10 & 0x1f
	m := x & 0x3ff
	r := s
	switch {
	case e == 0x1f: // infinity or NaN
		r = s | 0x7f800000 | m<<13
		if m != 0 {
			r |= 0x400000
		}
	case e != 0:
		r = s | (e+112)<<23 | m<<13
	case m != 0: // subnormal: normalize the top bit of m to bit 10
		sh := uint32(bits.LeadingZeros32(m)) - 21
		r = s | (113-sh)<<23 | (m<<sh&0x3ff)<<13
	}
	return math.Float32frombits(r)
}

// Float16From returns f rounded to the nearest binary16 value, ties to
// even: beyond the largest finite value (65504) it rounds to an infinity,
// below the smallest subnormal (2^-24) to a zero of f's sign; a NaN
// becomes a quiet NaN of the same sign that keeps the top of its payload.
func Float16From(f float32) Float16 {
	b := math.Float32bits(f)
	s := b >> 16 & 0x8000
	e := b >> 23 & 0xff
	m := b & 0x7fffff
	r := s
	switch {
	case e == 0xff:
		r = s | 0x7c00
		if m != 0 {
			r |= 0x200 | m>>13
		}
	case e >= 143: // 2^16 or more
		r = s | 0x7c00
	case e >= 113: // a normal binary16: a carry of the rounding may reach the infinity, as it should
		r = (e-112)<<10 | m>>13
		if rem := m & 0x1fff; rem > 0x1000 || rem == 0x1000 && r&1 != 0 {
			r++
		}
		r |= s
	case e >= 102: // a subnormal binary16 (or the smallest normal, by rounding)
		mm := m | 0x800000
		sh := 126 - e
		r = mm >> sh
		rem, half := mm&(1<<sh-1), uint32(1)<<(sh-1)
		if rem > half || rem == half && r&1 != 0 {
			r++
		}
		r |= s
	}
	return Float16(r)
}
