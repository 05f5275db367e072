package conformance

import (
	"math"

	"github.com/goxpu/xpu"
)

// Wide kernels: int64 and uint64 as private values, with Go's semantics
// (wrapping arithmetic, Go's shifts, truncating division, conversions).
// Buffers hold 64-bit values as pairs of uint32 words, low word first.

// join64 is the uint64 whose low and high words are w[i] and w[i+1].
func join64(w []uint32, i uint32) uint64 { return uint64(w[i+1])<<32 | uint64(w[i]) }

// split64 stores x into w[i] (low word) and w[i+1] (high word).
func split64(w []uint32, i uint32, x uint64) {
	w[i] = uint32(x)
	w[i+1] = uint32(x >> 32)
}

// pcgSteps is how many outputs Pcg32 draws per stream.
const pcgSteps = 6

// Pcg32 draws pcgSteps outputs of the PCG32 generator (XSH RR): a 64-bit
// LCG state per work-item, seeded from seed, stream i.
//
//xpu:kernel block=64
func Pcg32(t xpu.Thread, out, seed []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	state := join64(seed, 2*i)
	inc := uint64(i)<<1 | 1
	for k := range uint32(pcgSteps) {
		old := state
		state = old*6364136223846793005 + inc
		xs := uint32(((old >> 18) ^ old) >> 27)
		rot := uint32(old >> 59)
		out[i*pcgSteps+k] = xs>>rot | xs<<((-rot)&31)
	}
}

// wideArithOut is how many 64-bit results WideArith writes per item.
const wideArithOut = 14

// WideArith is int64 index math: products of int32 values beyond 2^32,
// 64x64 products, sums, differences, and signed and unsigned division
// and remainder by nonzero divisors (MinInt64 / -1 wraps as in Go).
//
//xpu:kernel block=64
func WideArith(t xpu.Thread, out []uint32, a, b []int32, xs, ys []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, y := int64(join64(xs, 2*i)), int64(join64(ys, 2*i))
	o := 2 * wideArithOut * i
	p := int64(a[i])*int64(b[i]) + x
	split64(out, o+0, uint64(p))
	split64(out, o+2, uint64(x*y))
	split64(out, o+4, uint64(x-y))
	split64(out, o+6, uint64(x/y))
	split64(out, o+8, uint64(x%y))
	ux, uy := uint64(x), uint64(y)
	split64(out, o+10, ux/uy)
	split64(out, o+12, ux%uy)
	split64(out, o+14, uint64(-x)^ux&^uy|uy)
	var acc uint64 = 0xcbf29ce484222325 // FNV-1a over the words of a and b
	acc ^= uint64(uint32(a[i]))
	acc *= 1099511628211
	acc ^= uint64(uint32(b[i]))
	acc *= 1099511628211
	split64(out, o+16, acc)
	u := uint64(uint32(a[i])) * uint64(uint32(b[i]))
	u += 7
	u--
	split64(out, o+18, u)
	split64(out, o+20, uint64(x*-3+int64(math.MaxInt64)))
	split64(out, o+22, uint64(^x))
	split64(out, o+24, mulAdd64(ux, uy, 0x9e3779b97f4a7c15))
	split64(out, o+26, uint64(int64(a[i])/int64(b[i]|1)*int64(i)))
}

func mulAdd64(a, b, c uint64) uint64 { return a*b + c }

// wideShiftOut is how many 64-bit results WideShifts writes per item.
const wideShiftOut = 6

// WideShifts shifts by counts from 0 to 70: Go gives 0, or the sign for
// a signed right shift, at 64 and beyond.
//
//xpu:kernel block=64
func WideShifts(t xpu.Thread, out []uint32, xs, s []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, k := join64(xs, 2*i), s[i]
	o := 2 * wideShiftOut * i
	split64(out, o+0, x<<k)
	split64(out, o+2, x>>k)
	split64(out, o+4, uint64(int64(x)>>k))
	split64(out, o+6, uint64(int64(x)<<uint64(k)))
	split64(out, o+8, x>>int64(k))
	split64(out, o+10, x<<(k&7)|x>>32)
}

// WideCompare writes one mask per item of the comparisons of two int64
// values, signed and as uint64, around the sign bit.
//
//xpu:kernel block=64
func WideCompare(t xpu.Thread, out []uint32, xs, ys []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	ux, uy := join64(xs, 2*i), join64(ys, 2*i)
	x, y := int64(ux), int64(uy)
	m := flag(x < y, 0) | flag(x <= y, 1) | flag(x > y, 2) | flag(x >= y, 3) | flag(x == y, 4) | flag(x != y, 5)
	m |= flag(ux < uy, 6) | flag(ux <= uy, 7) | flag(ux > uy, 8) | flag(ux >= uy, 9)
	m |= flag(x < 0, 10) | flag(ux > math.MaxUint32, 11) | flag(x > -5000000000, 12)
	out[i] = m
}

// flag is bit j set when b holds.
func flag(b bool, j uint32) uint32 {
	if b {
		return 1 << j
	}
	return 0
}

// wideConvOut is how many words WideConvert writes per item.
const wideConvOut = 16

// WideConvert converts to and from int64 and uint64: int32 and uint32
// extension, truncation to the 32-bit and narrow types, float32 in range
// to int64 and uint64, and int64 and uint64 to float32.
//
//xpu:kernel block=64
func WideConvert(t xpu.Thread, out []uint32, f []float32, a []int32, xs []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, v := join64(xs, 2*i), a[i]
	o := wideConvOut * i
	split64(out, o+0, uint64(int64(v)))
	split64(out, o+2, uint64(uint32(v)))
	split64(out, o+4, uint64(int64(f[i])))
	split64(out, o+6, uint64(f[i]*f[i]))
	out[o+8] = math.Float32bits(float32(int64(x)))
	out[o+9] = math.Float32bits(float32(x))
	out[o+10] = uint32(int32(x))
	out[o+11] = uint32(int32(int16(x)))
	out[o+12] = uint32(uint8(x)) | uint32(int8(int64(v)>>3))<<8
	m1 := int32(-1)
	split64(out, o+13, uint64(m1))
	out[o+15] = uint32(int64(int8(v)) >> 60)
}
