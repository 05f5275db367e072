package blas

// at returns the index of element i of a vector of n elements stored inc
// apart: from the first element when inc is positive, from the last when
// it is negative, as BLAS stores a vector with a negative increment.
func at(i, n uint32, inc int32) uint32 {
	if inc < 0 {
		return (n - 1 - i) * uint32(-inc)
	}
	return i * uint32(inc)
}
