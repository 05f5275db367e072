package gputest

import (
	"math"
	"math/rand/v2"
)

// Random inputs for cases. Every maker takes the generator [Run] gives a
// case's Setup, so that a seed reproduces a run.

// Floats returns n float32 values uniform in [lo, hi).
func Floats(r *rand.Rand, n int, lo, hi float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = lo + (hi-lo)*r.Float32()
	}
	return s
}

// WholeFloats returns n float32 values that are integers in [lo, hi].
func WholeFloats(r *rand.Rand, n int, lo, hi int32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(lo + r.Int32N(hi-lo+1))
	}
	return s
}

// Ints returns n int32 values uniform in [lo, hi].
func Ints(r *rand.Rand, n int, lo, hi int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(int64(lo) + r.Int64N(int64(hi)-int64(lo)+1))
	}
	return s
}

// AnyInts returns n int32 values with uniformly random bits.
func AnyInts(r *rand.Rand, n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(r.Uint32())
	}
	return s
}

// Uints returns n uint32 values uniform in [lo, hi].
func Uints(r *rand.Rand, n int, lo, hi uint32) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = lo + uint32(r.Int64N(int64(hi)-int64(lo)+1))
	}
	return s
}

// AnyUints returns n uint32 values with uniformly random bits.
func AnyUints(r *rand.Rand, n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = r.Uint32()
	}
	return s
}

// EdgeInts are int32 operands that integer arithmetic gets wrong first.
var EdgeInts = []int32{0, 1, -1, 2, -2, 7, -7, math.MaxInt32, math.MinInt32, math.MinInt32 + 1, 1 << 30, -(1 << 30)}

// WithEdges overwrites the first elements of s with edge.
func WithEdges[T any](s []T, edge []T) []T {
	copy(s, edge)
	return s
}

// FillFrom returns n values, the i-th made by f(i).
func FillFrom[T any](n int, f func(i int) T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = f(i)
	}
	return s
}

// SpecialFloats are the bits of the float32 values at which IEEE
// arithmetic and a compiler that assumes finite math part ways: NaNs
// (quiet, negative, signaling), infinities, zeros of both signs, the
// subnormal and normal extremes, and one of either sign.
var SpecialFloats = []uint32{
	0x7fc00000, 0xffc00000, 0x7f800001, 0x7fffffff,
	0x7f800000, 0xff800000, 0x00000000, 0x80000000,
	0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
	0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
}

// Seasoned returns n float32 values: half of them special (see
// SpecialFloats), a quarter random subnormals, the rest uniform in
// [-4, 4).
func Seasoned(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		switch r.IntN(4) {
		case 0, 1:
			s[i] = math.Float32frombits(SpecialFloats[r.IntN(len(SpecialFloats))])
		case 2:
			s[i] = math.Float32frombits(r.Uint32() & 0x807fffff)
		default:
			s[i] = -4 + 8*r.Float32()
		}
	}
	return s
}

// SeasonedPairs returns two seasoned slices of n values in which an
// eighth of the pairs are equal and a sixteenth opposite (+0 and -0 among
// them).
func SeasonedPairs(r *rand.Rand, n int) ([]float32, []float32) {
	a, b := Seasoned(r, n), Seasoned(r, n)
	for i := range b {
		switch r.IntN(16) {
		case 0, 1:
			b[i] = a[i]
		case 2:
			b[i] = -a[i]
		}
	}
	return a, b
}
