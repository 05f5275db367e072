// Package f16 converts between IEEE 754 binary16 and float32 on the
// host, exactly one way and rounding to nearest even the other, as
// ggml's portable conversions do: the scales of GGUF's quantized blocks,
// which kernels/quant encodes and kernels/simd reads.
//
// Layering: a leaf of the standard library.
package f16

import "math"

// ToFloat32 returns the value of the IEEE binary16 number h, exactly
// (every float16 is a float32). A NaN keeps its sign and payload.
func ToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1F
	man := uint32(h & 0x3FF)
	switch {
	case exp == 0x1F: // infinity or NaN
		return math.Float32frombits(sign | 0x7F800000 | man<<13)
	case exp != 0: // normal: rebias the exponent from 15 to 127
		return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
	case man == 0:
		return math.Float32frombits(sign)
	}
	// A subnormal, man*2^-24, is a normal float32: shift its leading one
	// up to the implicit bit.
	exp = 113
	for man&0x400 == 0 {
		man <<= 1
		exp--
	}
	return math.Float32frombits(sign | exp<<23 | (man&0x3FF)<<13)
}

// FromFloat32 returns f rounded to the nearest float16, ties to even,
// as ggml's GGML_FP32_TO_FP16 (the portable ggml_compute_fp32_to_fp16,
// which the reference quantizers call) does: magnitudes from 65520 up
// become infinity, and a NaN becomes the quiet NaN 0x7E00 with f's sign
// (F16C's conversion agrees but for a NaN, whose payload it keeps).
func FromFloat32(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xFF
	man := b & 0x7FFFFF
	switch {
	case exp == 0xFF && man != 0:
		return sign | 0x7E00
	case exp == 0xFF:
		return sign | 0x7C00
	case exp > 142: // 2^16 and up
		return sign | 0x7C00
	}
	// The significand with its implicit bit, and how far to shift it
	// right to reach the float16's last place: 13 for normals, more for
	// subnormals (exponent below -14).
	sig := man | 0x800000
	shift := int32(13)
	e := exp - 127 + 15
	if e < 1 {
		shift += 1 - e
		e = 0
	}
	if exp == 0 || shift > 24 { // float32 subnormals and anything below half the least float16 subnormal
		return sign
	}
	q := sig >> uint32(shift)
	rem := sig & (1<<uint32(shift) - 1)
	half := uint32(1) << uint32(shift-1)
	if rem > half || (rem == half && q&1 == 1) {
		q++
	}
	// q holds the implicit bit for a normal; adding the biased exponent
	// above it lets a carry out of the significand raise the exponent
	// (up to infinity, 0x7C00), as it must.
	if e == 0 {
		return sign | uint16(q)
	}
	return sign | uint16(uint32(e-1)<<10+q)
}
