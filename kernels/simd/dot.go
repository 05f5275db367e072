package simd

import "github.com/goxpu/xpu/kernels/internal/f16"

// Block sizes in bytes and values per block of the two formats.
const (
	BlockValues = 32 // values per block, both formats
	BlockQ8_0   = 34 // f16 scale, 32 int8 quants
	BlockQ4_0   = 18 // f16 scale, 16 bytes of two 4-bit quants each
)

// DotQ8_0 returns the dot product of the values of the len(x)/32
// consecutive Q8_0 blocks at the start of blocks with x. len(x) must be
// a multiple of 32 (a tail is ignored) and blocks at least len(x)/32*34
// bytes long; a shorter blocks panics, as a slice index out of range
// does, before any byte is read. The result is within the bound the
// package doc gives.
func DotQ8_0(blocks []byte, x []float32) float32 {
	n := len(x) / BlockValues
	return dotQ8_0(blocks[:n*BlockQ8_0], x[:n*BlockValues])
}

// DotQ4_0 is DotQ8_0 for Q4_0 blocks: blocks at least len(x)/32*18 bytes.
func DotQ4_0(blocks []byte, x []float32) float32 {
	n := len(x) / BlockValues
	return dotQ4_0(blocks[:n*BlockQ4_0], x[:n*BlockValues])
}

// dotQ8_0Go is the pure-Go DotQ8_0 over exactly len(x)/32 blocks: each
// block's sum in float32 in order, times its scale, added in order.
func dotQ8_0Go(blocks []byte, x []float32) float32 {
	var sum float32
	for len(x) >= BlockValues {
		b := blocks[:BlockQ8_0]
		d := f16.ToFloat32(uint16(b[0]) | uint16(b[1])<<8)
		q := b[2:BlockQ8_0]
		xs := x[:BlockValues]
		var s float32
		for i := range xs {
			s += float32(int8(q[i])) * xs[i]
		}
		sum += s * d
		blocks, x = blocks[BlockQ8_0:], x[BlockValues:]
	}
	return sum
}

// dotQ4_0Go is the pure-Go DotQ4_0, in the order of dotQ8_0Go.
func dotQ4_0Go(blocks []byte, x []float32) float32 {
	var sum float32
	for len(x) >= BlockValues {
		b := blocks[:BlockQ4_0]
		d := f16.ToFloat32(uint16(b[0]) | uint16(b[1])<<8)
		q := b[2:BlockQ4_0]
		lo, hi := x[:16], x[16:BlockValues]
		var s float32
		for j := range lo {
			s += float32(int(q[j]&0xF)-8) * lo[j]
			s += float32(int(q[j]>>4)-8) * hi[j]
		}
		sum += s * d
		blocks, x = blocks[BlockQ4_0:], x[BlockValues:]
	}
	return sum
}
