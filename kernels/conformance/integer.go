package conformance

import "github.com/goxpu/xpu"

// Integer kernels: int32 and uint32 arithmetic with Go's semantics
// (wrapping, truncating division, shifts by the width or more), bit
// operations, conversions and comparisons.

// intArithOut is how many results IntArith writes per pair.
const intArithOut = 5

// IntArith applies +, -, *, / and % to pairs of int32 operands, negative
// ones and MinInt32 / -1 included. The divisors are never zero.
//
//xpu:kernel block=64
func IntArith(t xpu.Thread, out []int32, a, b []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, y := a[i], b[i]
	o := i * intArithOut
	out[o+0] = x + y
	out[o+1] = x - y
	out[o+2] = x * y
	out[o+3] = x / y
	out[o+4] = x % y
}

// UintArith applies +, -, *, / and % to pairs of uint32 operands. The
// divisors are never zero.
//
//xpu:kernel block=64
func UintArith(t xpu.Thread, out []uint32, a, b []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, y := a[i], b[i]
	o := i * intArithOut
	out[o+0] = x + y
	out[o+1] = x - y
	out[o+2] = x * y
	out[o+3] = x / y
	out[o+4] = x % y
}

// Shifts shifts int32 and uint32 values left and right by counts from 0 to
// 63: counts of 32 or more give 0, or -1 for a negative int32 shifted right.
//
//xpu:kernel block=64
func Shifts(t xpu.Thread, ints []int32, uints []uint32, a []int32, b []uint32, s []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	k := s[i]
	ints[i*2+0] = a[i] << k
	ints[i*2+1] = a[i] >> k
	uints[i*2+0] = b[i] << k
	uints[i*2+1] = b[i] >> k
}

// shiftSignedOut is how many results ShiftSigned writes per pair.
const shiftSignedOut = 8

// ShiftSigned shifts int32 and uint32 values by int32 counts, with the
// operators and the shift assignments, and by the same counts converted
// to uint32. Go panics on a negative signed count, so a device must fault
// there; a count of 32 or more gives 0, or -1 for a negative int32
// shifted right.
//
//xpu:kernel block=64
func ShiftSigned(t xpu.Thread, out []int32, a, s []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x, k := a[i], s[i]
	o := i * shiftSignedOut
	out[o+0] = x << k
	out[o+1] = x >> k
	out[o+2] = int32(uint32(x) << k)
	out[o+3] = int32(uint32(x) >> k)
	v, w := x, uint32(x)
	v <<= k
	w >>= k
	out[o+4] = v
	out[o+5] = int32(w)
	out[o+6] = x << uint32(k)
	out[o+7] = x >> uint32(k)
}

// BitOps applies &, |, ^, &^ and unary ^ to int32 and uint32 operands.
//
//xpu:kernel block=64
func BitOps(t xpu.Thread, ints []int32, uints []uint32, a, b []int32, c, d []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	o := i * 5
	ints[o+0] = a[i] & b[i]
	ints[o+1] = a[i] | b[i]
	ints[o+2] = a[i] ^ b[i]
	ints[o+3] = a[i] &^ b[i]
	ints[o+4] = ^a[i]
	uints[o+0] = c[i] & d[i]
	uints[o+1] = c[i] | d[i]
	uints[o+2] = c[i] ^ d[i]
	uints[o+3] = c[i] &^ d[i]
	uints[o+4] = ^c[i]
}

// Conversions converts between int32, uint32 and float32 (values in range
// of the target type) and reinterprets float32 bits.
//
//xpu:kernel block=64
func Conversions(t xpu.Thread, ints []int32, uints []uint32, floats []float32, a []int32, b []uint32, f []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	o := i * 4
	ints[o+0] = int32(f[i]) // truncates toward zero
	ints[o+1] = int32(b[i]) // reinterprets
	ints[o+2] = int32(xpu.Float32Bits(f[i]))
	ints[o+3] = -a[i]
	uints[o+0] = uint32(xpu.Abs(f[i])) // truncates
	uints[o+1] = uint32(a[i])          // reinterprets
	uints[o+2] = xpu.Float32Bits(f[i])
	uints[o+3] = uint32(int32(b[i]) >> 4)
	floats[o+0] = float32(a[i])
	floats[o+1] = float32(b[i])
	floats[o+2] = xpu.Float32FromBits(b[i]&0x3fffffff | 0x3f800000)
	floats[o+3] = float32(int32(f[i]))
}

// Compare writes the results of the six comparisons of int32, uint32 and
// float32 operands, and of boolean combinations, as 0 or 1.
//
//xpu:kernel block=64
func Compare(t xpu.Thread, out []uint32, a, b []int32, c, d []uint32, e, f []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	o := i * 21
	out[o+0] = bit(a[i] == b[i])
	out[o+1] = bit(a[i] != b[i])
	out[o+2] = bit(a[i] < b[i])
	out[o+3] = bit(a[i] <= b[i])
	out[o+4] = bit(a[i] > b[i])
	out[o+5] = bit(a[i] >= b[i])
	out[o+6] = bit(c[i] == d[i])
	out[o+7] = bit(c[i] != d[i])
	out[o+8] = bit(c[i] < d[i])
	out[o+9] = bit(c[i] <= d[i])
	out[o+10] = bit(c[i] > d[i])
	out[o+11] = bit(c[i] >= d[i])
	out[o+12] = bit(e[i] == f[i])
	out[o+13] = bit(e[i] != f[i])
	out[o+14] = bit(e[i] < f[i])
	out[o+15] = bit(e[i] <= f[i])
	out[o+16] = bit(e[i] > f[i])
	out[o+17] = bit(e[i] >= f[i])
	p, q := a[i] < b[i], e[i] < f[i]
	out[o+18] = bit(p && q)
	out[o+19] = bit(p || !q)
	out[o+20] = bit(p != q)
}

// bit is 1 for true and 0 for false.
func bit(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// CompoundAssign exercises the assignment operators and ++/-- on locals.
//
//xpu:kernel block=64
func CompoundAssign(t xpu.Thread, out []int32, a []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x := a[i]
	x += 7
	x *= 3
	x -= 1
	x ^= 0x55
	x |= 0x100
	x &= 0x7ffffff
	x <<= 2
	x >>= 1
	x &^= 0x10
	x %= 1000003
	x /= 3
	x++
	x--
	x++
	out[i] = x
}
