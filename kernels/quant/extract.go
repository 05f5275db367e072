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
// is any) is not needed, and every device gives the same bits. No
// branch: the exponent is rebiased from 15 to 127 by one addition, an
// infinity or NaN (exponent 31) gets the rest of the way to 255, and a
// zero or subnormal, man*2^-24, is made exactly by a float32 subtraction
// of 2^-14 from the normal number 2^-14 + man*2^-24 (both normal, the
// difference representable). A device's SIMD lanes then take no path
// of their own, which on a CPU-emulated device costs a masked pass over
// every path.
func halfBits(h uint32) float32 {
	o := (h&0x7FFF)<<13 + (127-15)<<23
	e := h & 0x7C00
	f := xpu.Float32FromBits(o)
	if e == 0x7C00 {
		f = xpu.Float32FromBits(o + (128-16)<<23)
	}
	if e == 0 {
		f = xpu.Float32FromBits(o+1<<23) - xpu.Float32FromBits(113<<23)
	}
	return xpu.Float32FromBits(xpu.Float32Bits(f) | (h&0x8000)<<16)
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
