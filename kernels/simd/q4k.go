package simd

import "github.com/goxpu/xpu/kernels/internal/f16"

// The shape of a Q4_K super-block (llama.cpp's block_q4_K): f16 d, f16
// dmin, 12 bytes of packed 6-bit scales and mins, 128 bytes of quants.
const (
	SuperBlockValues = 256 // values per Q4_K super-block
	BlockQ4_K        = 144 // bytes per Q4_K super-block
	q4KQuants        = 16  // offset of the quants in a super-block
)

// DotQ4_K is DotQ8_0 for Q4_K super-blocks: len(x)/256 of them, blocks
// at least len(x)/256*144 bytes (a tail of x past the last whole
// super-block is ignored). Value l of sub-block j (32 values each, 8 to
// a super-block) is d*sc(j)*q - dmin*m(j), q its 4-bit quant; the
// result is within about n roundings (n = len(x) plus len(x)/32, u =
// 2^-24 each) of the exact dot product, relative to the sum over the
// values of |d*sc(j)*q*x| + |dmin*m(j)*x|: the two terms of each value
// are summed apart, the min's as dmin*m(j) times the sum of the
// sub-block's x.
func DotQ4_K(blocks []byte, x []float32) float32 {
	n := len(x) / SuperBlockValues
	return dotQ4_K(blocks[:n*BlockQ4_K], x[:n*SuperBlockValues])
}

// q4KScales sets s[j] to d*sc(j) and s[8+j] to dmin*m(j) for the
// sub-blocks j < 8 of the super-block b (ggml's get_scale_min_k4). Both
// products are exact in float32: 11 significant bits of the f16 times 6
// of the scale or min.
func q4KScales(b []byte, s *[16]float32) {
	d := f16.ToFloat32(uint16(b[0]) | uint16(b[1])<<8)
	dmin := f16.ToFloat32(uint16(b[2]) | uint16(b[3])<<8)
	q := b[4:16]
	for j := range 4 {
		s[j] = d * float32(q[j]&63)
		s[8+j] = dmin * float32(q[j+4]&63)
		s[4+j] = d * float32(q[j+8]&0xF|(q[j]>>6)<<4)
		s[12+j] = dmin * float32(q[j+8]>>4|(q[j+4]>>6)<<4)
	}
}

// dotQ4_KGo is the pure-Go DotQ4_K over exactly len(x)/256
// super-blocks: per sub-block the sums of q*x and of x in float32 in
// order, then d*sc times the one less dmin*m times the other, added in
// order.
func dotQ4_KGo(blocks []byte, x []float32) float32 {
	var (
		sum float32
		s   [16]float32
	)
	for len(x) >= SuperBlockValues {
		b := blocks[:BlockQ4_K]
		q4KScales(b, &s)
		for p := range 4 {
			q := b[q4KQuants+32*p : q4KQuants+32*p+32]
			lo, hi := x[64*p:64*p+32], x[64*p+32:64*p+64]
			var qlo, xlo, qhi, xhi float32
			for l := range q {
				qlo += float32(q[l]&0xF) * lo[l]
				xlo += lo[l]
				qhi += float32(q[l]>>4) * hi[l]
				xhi += hi[l]
			}
			sum += qlo*s[2*p] - xlo*s[8+2*p]
			sum += qhi*s[2*p+1] - xhi*s[8+2*p+1]
		}
		blocks, x = blocks[BlockQ4_K:], x[SuperBlockValues:]
	}
	return sum
}

// MatVecQ4_K is MatVecQ8_0 for a Q4_K matrix: row r is the cols/256
// consecutive super-blocks from super-block r*cols/256, cols must be a
// multiple of 256 and len(w) >= rows*cols/256*144.
func MatVecQ4_K(y []float32, w []byte, x []float32, rows, cols int) error {
	return matVec(y, w, x, rows, cols, SuperBlockValues, BlockQ4_K, "MatVecQ4_K", dotQ4_K)
}
