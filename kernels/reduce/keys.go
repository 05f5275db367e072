package reduce

import "github.com/goxpu/xpu"

// The total order of Max and ArgMax, as integer keys: comparing keys as
// uint32 orders their floats -Inf < ... < -0 < +0 < ... < +Inf < NaN,
// every NaN one key. Integer comparisons give every device the same
// answer in any order of the combine; 0 is the key of no element, below
// every float's.

// nanKey is the key of every NaN.
const nanKey = 0xffffffff

// noKey is the key of no element: below every float's (the least, -Inf's,
// is 0x007fffff).
const noKey = 0

// noIndex is the index of no element: above every element's.
const noIndex = 0xffffffff

// keyOf returns the key of v: the bits flipped for a negative float, the
// sign bit set for a positive one.
func keyOf(v float32) uint32 {
	if v != v {
		return nanKey
	}
	b := xpu.Float32Bits(v)
	if b&0x80000000 != 0 {
		return ^b
	}
	return b | 0x80000000
}

// valueOf returns the float of key k, the quiet NaN 0x7fc00000 for
// nanKey.
func valueOf(k uint32) float32 {
	if k == nanKey {
		return xpu.Float32FromBits(0x7fc00000)
	}
	if k&0x80000000 != 0 {
		return xpu.Float32FromBits(k & 0x7fffffff)
	}
	return xpu.Float32FromBits(^k)
}

// beats reports whether the pair (ak, ai) wins over (bk, bi): a greater
// key, or an equal key at a lower index.
func beats(ak, ai, bk, bi uint32) bool {
	return ak > bk || ak == bk && ai < bi
}
