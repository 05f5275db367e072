package cpu

import "math"

// This file is the row copy: the primitive the Go lowering calls for a
// statement that copies one element per work-item, with consecutive
// work-items of a row reading and writing consecutive elements.

// CopyRow copies src[s+l] to dst[d+l] for every lane l < lanes, as the
// work-items of a row would one by one, and reports true; or it reports
// false and touches nothing when an element lies outside its slice or
// past the reach of a uint32 index (d+l or s+l would wrap): the caller then
// runs the lanes one by one, as they were written, and meets the fault
// there. dst and src share no memory.
func CopyRow[T any](dst []T, d uint32, src []T, s uint32, lanes int) bool {
	if lanes <= 0 {
		return lanes == 0
	}
	last := uint64(lanes - 1)
	if uint64(d)+last > math.MaxUint32 || uint64(s)+last > math.MaxUint32 ||
		uint64(d)+last >= uint64(len(dst)) || uint64(s)+last >= uint64(len(src)) {
		return false
	}
	copy(dst[d:uint64(d)+last+1], src[s:uint64(s)+last+1])
	return true
}
