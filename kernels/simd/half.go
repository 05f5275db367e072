package simd

import "math"

// halfToFloat converts an IEEE 754 binary16 value to float32 exactly:
// every binary16 value, subnormals, infinities and NaNs included, is a
// float32 value.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	man := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // infinity or NaN, the payload kept
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp != 0: // normal: rebias the exponent from 15 to 127
		return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
	}
	// Zero or subnormal: man * 2^-24, exact as man has 10 bits.
	f := float32(man) * 0x1p-24
	if sign != 0 {
		f = -f
	}
	return f
}
