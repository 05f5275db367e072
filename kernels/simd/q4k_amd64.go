//go:build !noasm

package simd

// dotQ4_K runs DotQ4_K's widest path over exactly len(x)/256
// super-blocks: the scales and mins are unpacked here, one super-block
// at a time, and the assembly sums its values.
func dotQ4_K(blocks []byte, x []float32) float32 {
	if !useAVX2 {
		return dotQ4_KGo(blocks, x)
	}
	var (
		sum float32
		s   [16]float32
	)
	for len(x) >= SuperBlockValues {
		b := blocks[:BlockQ4_K]
		q4KScales(b, &s)
		// A branch, not a func value: through one, s would escape.
		if useAVX512 {
			sum += dotQ4_KAVX512(&b[q4KQuants], &x[0], &s)
		} else {
			sum += dotQ4_KAVX2(&b[q4KQuants], &x[0], &s)
		}
		blocks, x = blocks[BlockQ4_K:], x[SuperBlockValues:]
	}
	return sum
}

// dotQ4_KAVX2 returns the dot product of one Q4_K super-block's 128
// quant bytes at q with the 256 floats at x, s holding d*sc(j) in s[j]
// and dmin*m(j) in s[8+j]. Lane l < 8 of accumulators A (even
// sub-blocks) and B (odd) gathers, for sub-block j with floats xj and
// quants qj:
//
//	u = qj[l]*xj[l] + qj[l+8]*xj[l+8]       (product rounded, then FMA)
//	v = qj[l+16]*xj[l+16] + qj[l+24]*xj[l+24] (likewise)
//	w = (xj[l] + xj[l+8]) + (xj[l+16] + xj[l+24])
//	acc[l] = fma(-w, s[8+j], fma(u+v, s[j], acc[l]))
//
// and the result is the sum of the 16 lanes of A+B.
//
//go:noescape
func dotQ4_KAVX2(q *byte, x *float32, s *[16]float32) float32

// dotQ4_KAVX512 is dotQ4_KAVX2 with 16 lanes: per sub-block
// u = qj[l]*xj[l] + qj[l+16]*xj[l+16], w = xj[l] + xj[l+16] and
// acc[l] = fma(-w, s[8+j], fma(u, s[j], acc[l])), the nibbles' values
// looked up in a table of 0 to 15 rather than masked and converted.
//
//go:noescape
func dotQ4_KAVX512(q *byte, x *float32, s *[16]float32) float32
