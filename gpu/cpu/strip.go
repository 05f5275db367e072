package cpu

import "math"

// This file is the strip dot product: the primitive the Go lowering calls
// for the work-item loop of an inner product, so that the work-items of
// a block run lane-wide instead of one dependent chain after another.

// DotStrip is the inner products of the work-items of a block laid out as
// Rows rows of Lanes lanes, each work-item owning an I x J micro-tile of
// accumulators (I and J of zero count as one): lane l of row r adds, for
// each cell (i, j) and for t from 0 to K-1 in order,
//
//	Acc[AccOff+r*AccRow+i*AccI+j*AccJ+l] +=
//		A[AOff+r*ARow+i*AI+t*AK] * B[BOff+r*BRow+j*BJ+t*BK+l]
//
// A is the operand every lane of a row shares (a broadcast) and B the one
// whose lanes are consecutive. Each product and each sum is rounded on
// its own, in the order above, so the result is bit for bit that of the
// loop run work-item after work-item. Offsets and steps are element
// counts; the steps are at least zero. Acc shares no memory with A or B.
type DotStrip struct {
	Acc                 []float32
	AccOff              int
	Lanes, Rows, AccRow int
	I, J, AccI, AccJ    int
	A                   []float32
	AOff, ARow, AI, AK  int
	B                   []float32
	BOff, BRow, BJ, BK  int
	K                   int
}

// Run computes the strip and reports true, or reports false and touches
// nothing when an element it would read or write lies outside its slice
// or past the reach of a uint32 index, or when two work-items or cells
// would share an accumulator: the caller then runs the work-items one by
// one, as they were written, and meets the fault there.
func (s *DotStrip) Run() bool {
	s.I, s.J = max(s.I, 1), max(s.J, 1)
	if !s.fits() {
		return false
	}
	if s.K > 0 && s.Lanes > 0 && s.Rows > 0 {
		dotStrip(s)
	}
	return true
}

// fits reports whether every index of the strip is inside its slice and
// every accumulator is owned by one lane of one cell.
func (s *DotStrip) fits() bool {
	for _, v := range [...]int{s.Lanes, s.Rows, s.K, s.AccRow, s.AccOff, s.AccI, s.AccJ,
		s.AOff, s.ARow, s.AI, s.AK, s.BOff, s.BRow, s.BJ, s.BK} {
		if v < 0 || v > math.MaxUint32 { // every index was a uint32
			return false
		}
	}
	if s.Lanes == 0 || s.Rows == 0 || s.K == 0 {
		return true
	}
	if s.I > math.MaxUint32 || s.J > math.MaxUint32 {
		return false
	}
	// Each value is below 2^32, so each product fits a uint64; the sums
	// are checked as they grow, so that no index wraps past the check.
	r, i, j, k := s.Rows-1, s.I-1, s.J-1, s.K-1
	lastAcc, okAcc := reach(s.AccOff, s.Lanes-1, r, s.AccRow, i, s.AccI, j, s.AccJ)
	lastA, okA := reach(s.AOff, 0, r, s.ARow, i, s.AI, k, s.AK)
	lastB, okB := reach(s.BOff, s.Lanes-1, r, s.BRow, j, s.BJ, k, s.BK)
	return okAcc && okA && okB &&
		lastAcc < uint64(len(s.Acc)) && lastA < uint64(len(s.A)) && lastA <= math.MaxUint32 &&
		lastB < uint64(len(s.B)) && lastB <= math.MaxUint32 &&
		distinct(s.Lanes, s.Rows, s.AccRow, s.I, s.AccI, s.J, s.AccJ)
}

// reach returns off + lane + the sum of the products of the pairs n,
// step, each value in [0, 2^32), and whether the sum fits 63 bits.
func reach(off, lane int, pairs ...int) (uint64, bool) {
	sum := uint64(off) + uint64(lane)
	for p := 0; p < len(pairs); p += 2 {
		t := uint64(pairs[p]) * uint64(pairs[p+1])
		if t > math.MaxInt64-sum {
			return 0, false
		}
		sum += t
	}
	return sum, true
}

// distinct reports whether l + r*rowStep + i*iStep + j*jStep takes a
// different value for every l < lanes, r < rows, i < ni and j < nj: the
// steps, taken in increasing order, each pass the reach of the smaller
// ones (a mixed radix).
func distinct(lanes, rows, rowStep, ni, iStep, nj, jStep int) bool {
	type axis struct{ n, step int }
	axes := []axis{{lanes, 1}}
	for _, a := range [...]axis{{rows, rowStep}, {ni, iStep}, {nj, jStep}} {
		if a.n > 1 {
			axes = append(axes, a)
		}
	}
	for x := 1; x < len(axes); x++ { // insertion sort by step
		for y := x; y > 0 && axes[y].step < axes[y-1].step; y-- {
			axes[y], axes[y-1] = axes[y-1], axes[y]
		}
	}
	reach := 0 // the largest value of the axes so far
	for _, a := range axes {
		if a.step <= reach {
			return false
		}
		reach += (a.n - 1) * a.step
	}
	return true
}

// dotStripGo is the pure-Go strip: the reference loop with the work-items
// of a row interleaved, so that their chains run side by side.
func dotStripGo(s *DotStrip) {
	for r := range s.Rows {
		for i := range s.I {
			for j := range s.J {
				dotCellGo(s, r, i, j, 0, s.Lanes)
			}
		}
	}
}

// dotCellGo computes lanes lo to hi-1 of cell (i, j) of row r.
func dotCellGo(s *DotStrip, r, i, j, lo, hi int) {
	o := s.AccOff + r*s.AccRow + i*s.AccI + j*s.AccJ
	acc := s.Acc[o+lo : o+hi]
	a, b := s.AOff+r*s.ARow+i*s.AI, s.BOff+r*s.BRow+j*s.BJ+lo
	for range s.K {
		x := s.A[a]
		y := s.B[b : b+len(acc)]
		for l := range acc {
			acc[l] += x * y[l]
		}
		a += s.AK
		b += s.BK
	}
}
