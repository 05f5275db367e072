package sort

import "github.com/goxpu/xpu"

// The radix sort's kernels: a pass's digit histogram per run of keys and
// its stable scatter (see the package doc).

const (
	block  = 8         // work-items of a block
	bits   = 8         // bits of a digit
	digits = 1 << bits // values of a digit
)

// digit returns the digit of k at shift.
func digit(k, shift uint32) uint32 { return (k >> shift) & (digits - 1) }

// runEnd returns the end of the run of at most run keys that starts at
// start, start at most n.
func runEnd(start, n, run uint32) uint32 {
	if n-start > run {
		return start + run
	}
	return n
}

// whole reports whether every run of t's block is whole: then the
// work-items' loops over their runs share a trip count, which the CPU
// runs as one loop rather than under an execution mask each step narrows.
func whole(t xpu.Thread, n, run uint32) bool { return t.GroupX() < n/(block*run) }

// Histogram writes to hist[d*items+w] the number of keys of work-item w's
// run whose digit at shift is d, items the work-items of the launch:
// work-item w counts keys[w*run : (w+1)*run] (cut at n; empty past it)
// into a column of counters of its own in shared memory, which no other
// work-item reads, so there are no barriers and no atomics, and no
// private array indexed by the digit, which where work-items run as a
// vector's lanes (the CPU) is slower.
//
//xpu:kernel block=8 len(keys)=n
func Histogram(t xpu.Thread, hist, keys []uint32, n, run, shift uint32) {
	s := xpu.Shared[uint32](t, digits*block)
	l := t.LocalX()
	w := t.GroupX()*block + l
	items := t.NumGroupsX() * block
	for d := uint32(0); d < digits; d++ {
		s[d*block+l] = 0
	}
	lo := min(w*run, n)
	if whole(t, n, run) {
		for j := uint32(0); j < run; j++ {
			s[digit(keys[lo+j], shift)*block+l]++
		}
	} else {
		for i := lo; i < runEnd(lo, n, run); i++ {
			s[digit(keys[i], shift)*block+l]++
		}
	}
	for d := uint32(0); d < digits; d++ {
		hist[d*items+w] = s[d*block+l]
	}
}

// ScatterKeys writes work-item w's run of keys (see Histogram) to out,
// each key k at offsets[digit(k)*items+w] plus the keys of its digit
// before it in the run: one pass of a stable radix sort, offsets being
// the exclusive scan of Histogram's counts.
//
//xpu:kernel block=8 len(keys)=n len(out)=n
func ScatterKeys(t xpu.Thread, out, keys, offsets []uint32, n, run, shift uint32) {
	s := xpu.Shared[uint32](t, digits*block) // where the work-item's next key of each digit goes
	l := t.LocalX()
	w := t.GroupX()*block + l
	items := t.NumGroupsX() * block
	for d := uint32(0); d < digits; d++ {
		s[d*block+l] = offsets[d*items+w]
	}
	lo := min(w*run, n)
	if whole(t, n, run) {
		for j := uint32(0); j < run; j++ {
			k := keys[lo+j]
			c := digit(k, shift)*block + l
			p := s[c]
			out[p] = k
			s[c] = p + 1
		}
	} else {
		for i := lo; i < runEnd(lo, n, run); i++ {
			k := keys[i]
			c := digit(k, shift)*block + l
			p := s[c]
			out[p] = k
			s[c] = p + 1
		}
	}
}

// ScatterPairs is ScatterKeys carrying values: the value at each key's
// index goes to outValues at the key's place.
//
//xpu:kernel block=8 len(keys)=n len(out)=n len(values)=n len(outValues)=n
func ScatterPairs(t xpu.Thread, out, outValues, keys, values, offsets []uint32, n, run, shift uint32) {
	s := xpu.Shared[uint32](t, digits*block)
	l := t.LocalX()
	w := t.GroupX()*block + l
	items := t.NumGroupsX() * block
	for d := uint32(0); d < digits; d++ {
		s[d*block+l] = offsets[d*items+w]
	}
	lo := min(w*run, n)
	if whole(t, n, run) {
		for j := uint32(0); j < run; j++ {
			k := keys[lo+j]
			c := digit(k, shift)*block + l
			p := s[c]
			out[p] = k
			outValues[p] = values[lo+j]
			s[c] = p + 1
		}
	} else {
		for i := lo; i < runEnd(lo, n, run); i++ {
			k := keys[i]
			c := digit(k, shift)*block + l
			p := s[c]
			out[p] = k
			outValues[p] = values[i]
			s[c] = p + 1
		}
	}
}
