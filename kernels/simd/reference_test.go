package simd

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// format is one block format as the tests see it: its size, a random
// block and the block's values by the definition.
type format struct {
	name string
	size int
	// quants writes random quant bytes into q (size-2 bytes).
	quants func(r *rand.Rand, q []byte)
	// value returns value i < 32 of the block's quant bytes q, unscaled.
	value  func(q []byte, i int) float64
	dot    func(blocks []byte, x []float32) float32
	matVec func(y []float32, w []byte, x []float32, rows, cols int) error
}

var formats = []format{
	{
		name:   "Q8_0",
		size:   BlockQ8_0,
		quants: func(r *rand.Rand, q []byte) { fill(r, q) },
		value:  func(q []byte, i int) float64 { return float64(int8(q[i])) },
		dot:    DotQ8_0,
		matVec: MatVecQ8_0,
	},
	{
		name:   "Q4_0",
		size:   BlockQ4_0,
		quants: func(r *rand.Rand, q []byte) { fill(r, q) },
		value: func(q []byte, i int) float64 {
			if i < 16 {
				return float64(int(q[i]&0xF) - 8)
			}
			return float64(int(q[i-16]>>4) - 8)
		},
		dot:    DotQ4_0,
		matVec: MatVecQ4_0,
	},
}

func fill(r *rand.Rand, q []byte) {
	for i := range q {
		q[i] = byte(r.Uint32())
	}
}

// scale is how a test picks each block's f16 scale.
type scale func(r *rand.Rand) uint16

// modest is a random f16 of either sign with magnitude in [2^-6, 2^3):
// the range of real weights' scales and then some.
func modest(r *rand.Rand) uint16 {
	return uint16(r.IntN(2))<<15 | uint16(9+r.IntN(9))<<10 | uint16(r.IntN(1024))
}

// zeroScale is +0 or -0.
func zeroScale(r *rand.Rand) uint16 { return uint16(r.IntN(2)) << 15 }

// subnormal is a random f16 subnormal of either sign (exponent field 0,
// mantissa nonzero): 2^-24 to 2^-14.
func subnormal(r *rand.Rand) uint16 {
	return uint16(r.IntN(2))<<15 | uint16(1+r.IntN(1023))
}

// blocks makes n random blocks of f with scales from sc.
func (f format) blocks(r *rand.Rand, n int, sc scale) []byte {
	b := make([]byte, n*f.size)
	for k := range n {
		blk := b[k*f.size : (k+1)*f.size]
		binary.LittleEndian.PutUint16(blk, sc(r))
		f.quants(r, blk[2:])
	}
	return b
}

// floats returns n random floats in [-1, 1).
func floats(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = 2*r.Float32() - 1
	}
	return x
}

// reference is the dot product of the len(x)/32 blocks with x by the
// definition, in float64 (each term q*d*x exact), and the sum of the
// terms' absolute values.
func (f format) reference(blocks []byte, x []float32) (dot, abs float64) {
	for k := range len(x) / BlockValues {
		blk := blocks[k*f.size : (k+1)*f.size]
		d := refHalf(binary.LittleEndian.Uint16(blk))
		for i := range BlockValues {
			t := f.value(blk[2:], i) * d * float64(x[k*BlockValues+i])
			dot += t
			abs += math.Abs(t)
		}
	}
	return dot, abs
}

// refHalf is a finite f16 by its definition, independent of halfToFloat.
func refHalf(h uint16) float64 {
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	v := math.Ldexp(m, -24)
	if e != 0 {
		v = math.Ldexp(1024+m, e-25)
	}
	if h>>15 != 0 {
		v = -v
	}
	return v
}

// tolerance is the error allowed a dot product of n values in blocks
// blocks whose terms' absolute values sum to abs: every path sums in
// float32, one rounding (u = 2^-24) per product, per addition along a
// lane and across the lanes, per scale multiply, and no term passes
// through more than n+blocks of them; the bound of such a sum is about
// that many roundings of the sum of |terms|.
func tolerance(n, blocks int, abs float64) float64 {
	return float64(n+blocks) * 0x1p-24 * abs
}

// checkDot fails t where got is not within tolerance of the reference.
func checkDot(t *testing.T, what string, f format, blocks []byte, x []float32, got float32) {
	t.Helper()
	want, abs := f.reference(blocks, x)
	n := len(x) / BlockValues * BlockValues
	if tol := tolerance(n, n/BlockValues, abs); math.Abs(float64(got)-want) > tol || math.IsNaN(float64(got)) {
		t.Errorf("%s: got %v, want %v (error %g > tolerance %g)", what, got, want, math.Abs(float64(got)-want), tol)
	}
}

// guarded returns a copy of b with a guard band of f16 NaN scales after
// it, and of x with NaNs after it, the slices cut to their lengths: a
// read past either end makes the result NaN.
func guarded(b []byte, x []float32) ([]byte, []float32) {
	gb := make([]byte, len(b)+2*BlockQ8_0)
	copy(gb, b)
	for i := len(b); i+1 < len(gb); i += 2 {
		binary.LittleEndian.PutUint16(gb[i:], 0x7e00)
	}
	gx := make([]float32, len(x)+2*BlockValues)
	copy(gx, x)
	for i := len(x); i < len(gx); i++ {
		gx[i] = float32(math.NaN())
	}
	return gb[:len(b)], gx[:len(x)]
}
