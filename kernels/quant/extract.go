package quant

// This file holds the device functions that read blocks out of 32-bit
// words: bytes, halves and words at byte offsets, float16 scales, and
// Q4_K's packed 6-bit scales and mins.

import "github.com/goxpu/xpu"

// The byte offsets within a block: the scale, then the quants.
const quantsAt = 2

// byteAt returns byte o of the little-endian bytes that w holds.
func byteAt(w []uint32, o uint32) uint32 {
	return (w[o>>2] >> ((o & 3) * 8)) & 0xFF
}

// halfAt returns the 16 bits at byte o of w, little-endian, for an even
// o: a block's size is even and its scale comes first, so a scale is
// the low or the high half of one word and never straddles two.
func halfAt(w []uint32, o uint32) uint32 {
	return (w[o>>2] >> ((o & 2) * 8)) & 0xFFFF
}

// wordAt returns the 4 bytes at byte o of w, little-endian, for an even
// o: one word where o is a multiple of 4, else the high half of one and
// the low half of the next.
func wordAt(w []uint32, o uint32) uint32 {
	i := o >> 2
	if o&2 == 0 {
		return w[i]
	}
	return (w[i] >> 16) | (w[i+1] << 16)
}

// int8At returns byte o of w as a signed value.
func int8At(w []uint32, o uint32) int32 {
	return int32(byteAt(w, o)<<24) >> 24
}

// halfBits returns the float32 value of the float16 bits h, exactly, by
// integer operations alone: the device's float16 support (where there
// is any) is not needed, and every device gives the same bits.
func halfBits(h uint32) float32 {
	sign := (h & 0x8000) << 16
	exp := (h >> 10) & 0x1F
	man := h & 0x3FF
	if exp == 0x1F { // infinity or NaN, payload kept
		return xpu.Float32FromBits(sign | 0x7F800000 | man<<13)
	}
	if exp != 0 { // normal: rebias the exponent from 15 to 127
		return xpu.Float32FromBits(sign | (exp+112)<<23 | man<<13)
	}
	if man == 0 {
		return xpu.Float32FromBits(sign)
	}
	// A subnormal, man*2^-24, is a normal float32: shift its leading one
	// up to the implicit bit (at most ten steps).
	exp = 113
	for man&0x400 == 0 {
		man = man << 1
		exp--
	}
	return xpu.Float32FromBits(sign | exp<<23 | (man&0x3FF)<<13)
}

// The byte offsets within a Q4_K super-block: d and dmin (one word, the
// block's size being a multiple of 4), the packed scales, the quants.
const (
	q4KScalesAt = 4
	q4KQuantsAt = 16
)

// scaleK4 returns the 6-bit scale of sub-block j of the Q4_K block at
// byte o of w (ggml's get_scale_min_k4).
func scaleK4(w []uint32, o, j uint32) uint32 {
	s := o + q4KScalesAt
	if j < 4 {
		return byteAt(w, s+j) & 63
	}
	return (byteAt(w, s+j+4) & 0xF) | ((byteAt(w, s+j-4) >> 6) << 4)
}

// minK4 returns the 6-bit min of sub-block j of the Q4_K block at byte o
// of w (ggml's get_scale_min_k4).
func minK4(w []uint32, o, j uint32) uint32 {
	s := o + q4KScalesAt
	if j < 4 {
		return byteAt(w, s+j+4) & 63
	}
	return (byteAt(w, s+j+4) >> 4) | ((byteAt(w, s+j) >> 6) << 4)
}
