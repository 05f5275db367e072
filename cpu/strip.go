package cpu

import "math"

// This file is the strip dot product: the primitive the Go lowering calls
// for the work-item loop of an inner product, so that the work-items of
// a block run lane-wide instead of one dependent chain after another.

// DotStrip is Rows x Lanes independent dot products, one per work-item of
// a block laid out as rows of lanes: lane j of row r adds, for t from 0
// to K-1 in order,
//
//	Acc[r*AccRow+j] += A[AOff+r*ARow+t*AK] * B[BOff+r*BRow+t*BK+j]
//
// A is the operand every lane of a row shares (a broadcast) and B the one
// whose lanes are consecutive. Each product and each sum is rounded on
// its own, in the order above, so the result is bit for bit that of the
// loop run work-item after work-item. Offsets and steps are element
// counts; the steps are at least zero.
type DotStrip struct {
	Acc                 []float32
	Lanes, Rows, AccRow int
	A                   []float32
	AOff, ARow, AK      int
	B                   []float32
	BOff, BRow, BK      int
	K                   int
}

// Run computes the strip and reports true, or reports false and touches
// nothing when an element it would read or write lies outside its slice
// or past the reach of a uint32 index: the caller then runs the work-items
// one by one, as they were written, and meets the fault there.
func (s *DotStrip) Run() bool {
	if !s.fits() {
		return false
	}
	if s.K > 0 && s.Lanes > 0 && s.Rows > 0 {
		dotStrip(s)
	}
	return true
}

// fits reports whether every index of the strip is inside its slice.
func (s *DotStrip) fits() bool {
	if s.Lanes < 0 || s.Rows < 0 || s.K < 0 || s.AccRow < 0 ||
		s.AOff < 0 || s.ARow < 0 || s.AK < 0 || s.BOff < 0 || s.BRow < 0 || s.BK < 0 {
		return false
	}
	if s.Lanes == 0 || s.Rows == 0 || s.K == 0 {
		return true
	}
	const limit = math.MaxUint32 // every index was a uint32
	r, k := s.Rows-1, s.K-1
	if s.AccRow > limit || s.ARow > limit || s.AK > limit || s.BRow > limit || s.BK > limit ||
		s.AOff > limit || s.BOff > limit || r > limit || k > limit || s.Lanes > limit {
		return false
	}
	lastAcc := r*s.AccRow + s.Lanes - 1
	lastA := s.AOff + r*s.ARow + k*s.AK
	lastB := s.BOff + r*s.BRow + k*s.BK + s.Lanes - 1
	overlap := s.Rows > 1 && s.AccRow < s.Lanes // rows would share work-items
	return !overlap && lastAcc < len(s.Acc) &&
		lastA < len(s.A) && lastA <= limit && lastB < len(s.B) && lastB <= limit
}

// dotStripGo is the pure-Go strip: the reference loop with the work-items
// of a row interleaved, so that their chains run side by side.
func dotStripGo(s *DotStrip) {
	for r := range s.Rows {
		dotRowsGo(s, r, 0, s.Lanes)
	}
}

// dotRowsGo computes lanes lo to hi-1 of row r.
func dotRowsGo(s *DotStrip, r, lo, hi int) {
	acc := s.Acc[r*s.AccRow+lo : r*s.AccRow+hi]
	a, b := s.AOff+r*s.ARow, s.BOff+r*s.BRow+lo
	for range s.K {
		x := s.A[a]
		y := s.B[b : b+len(acc)]
		for j := range acc {
			acc[j] += x * y[j]
		}
		a += s.AK
		b += s.BK
	}
}
