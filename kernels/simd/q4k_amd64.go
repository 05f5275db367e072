//go:build !noasm

package simd

// dotQ4_K runs DotQ4_K's widest path over exactly len(x)/256
// super-blocks, which the caller has sliced to their length.
func dotQ4_K(blocks []byte, x []float32) float32 {
	n := len(x) / SuperBlockValues
	switch {
	case n == 0:
		return 0
	case useAVX512:
		return dotQ4_KAVX512(&blocks[0], &x[0], n)
	case useAVX2:
		return dotQ4_KAVX2(&blocks[0], &x[0], n)
	}
	return dotQ4_KGo(blocks, x)
}

// dotQ4_KAVX2 returns the dot product of n >= 1 Q4_K super-blocks at b
// (144 bytes apart) with the 256*n floats at x. Per super-block the
// scales and mins are unpacked to the frame, d*sc(j) and dmin*m(j) as
// float32; then lane l < 8 of accumulators A (even sub-blocks) and B
// (odd) gathers, for sub-block j with floats xj and quants qj:
//
//	u = qj[l]*xj[l] + qj[l+8]*xj[l+8]       (product rounded, then FMA)
//	v = qj[l+16]*xj[l+16] + qj[l+24]*xj[l+24] (likewise)
//	w = (xj[l] + xj[l+8]) + (xj[l+16] + xj[l+24])
//	acc[l] = fma(-w, dmin*m(j), fma(u+v, d*sc(j), acc[l]))
//
// and the result is the sum of the 16 lanes of A+B.
//
//go:noescape
func dotQ4_KAVX2(b *byte, x *float32, n int) float32

// dotQ4_KAVX512 is dotQ4_KAVX2 with 16 lanes: per sub-block
// u = qj[l]*xj[l] + qj[l+16]*xj[l+16], w = xj[l] + xj[l+16] and
// acc[l] = fma(-w, dmin*m(j), fma(u, d*sc(j), acc[l])), the nibbles'
// values looked up in a table of 0 to 15 rather than masked and
// converted.
//
//go:noescape
func dotQ4_KAVX512(b *byte, x *float32, n int) float32
