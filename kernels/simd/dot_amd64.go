//go:build !noasm

package simd

import "github.com/klauspost/cpuid/v2"

// useAVX2 and useAVX512 select the assembly paths; cpuid decides once,
// tests switch them. AVX-512 is taken where both are set. F16C
// (VCVTPH2PS) converts the scales, 8 blocks' in one instruction where 8
// blocks are left; AVX-512 implies it.
var (
	useAVX2   = cpuid.CPU.Supports(cpuid.AVX, cpuid.AVX2, cpuid.FMA3, cpuid.F16C)
	useAVX512 = useAVX2 && cpuid.CPU.Supports(cpuid.AVX512F)
)

// Path names the path the dot products take on this processor:
// "avx512", "avx2" or "go".
func Path() string {
	switch {
	case useAVX512:
		return "avx512"
	case useAVX2:
		return "avx2"
	}
	return "go"
}

// dotQ8_0 runs the widest path the processor has over exactly len(x)/32
// blocks, which the caller has sliced to their length.
func dotQ8_0(blocks []byte, x []float32) float32 {
	n := len(x) / BlockValues
	switch {
	case n == 0:
		return 0
	case useAVX512:
		return dotQ8_0AVX512(&blocks[0], &x[0], n)
	case useAVX2:
		return dotQ8_0AVX2(&blocks[0], &x[0], n)
	}
	return dotQ8_0Go(blocks, x)
}

// dotQ4_0 is dotQ8_0 for Q4_0 blocks.
func dotQ4_0(blocks []byte, x []float32) float32 {
	n := len(x) / BlockValues
	switch {
	case n == 0:
		return 0
	case useAVX512:
		return dotQ4_0AVX512(&blocks[0], &x[0], n)
	case useAVX2:
		return dotQ4_0AVX2(&blocks[0], &x[0], n)
	}
	return dotQ4_0Go(blocks, x)
}

// dotQ8_0AVX2 returns the dot product of n >= 1 Q8_0 blocks at b with
// the 32*n floats at x. Lane l < 8 of accumulators A (even blocks) and B
// (odd blocks) gathers, for block k at bk = b+34k and xk = x+32k:
//
//	s = q[l]*xk[l] + q[l+8]*xk[l+8]            (product rounded, then FMA)
//	t = q[l+16]*xk[l+16] + q[l+24]*xk[l+24]    (likewise)
//	acc[l] = fma(s+t, d, acc[l])
//
// and the result is the sum of the 16 lanes of A+B.
//
//go:noescape
func dotQ8_0AVX2(b *byte, x *float32, n int) float32

// dotQ4_0AVX2 is dotQ8_0AVX2 for Q4_0 blocks (18 bytes apart), the
// quants of lanes l, l+8, l+16, l+24 being the low nibbles of bytes l and
// l+8 and the high nibbles of the same, less 8.
//
//go:noescape
func dotQ4_0AVX2(b *byte, x *float32, n int) float32

// dotQ8_0AVX512 is dotQ8_0AVX2 with 16 lanes: per block
// acc[l] = fma(q[l]*xk[l] + q[l+16]*xk[l+16], d, acc[l]), two
// accumulators for alternate blocks.
//
//go:noescape
func dotQ8_0AVX512(b *byte, x *float32, n int) float32

// dotQ4_0AVX512 is dotQ8_0AVX512 for Q4_0 blocks: lane l < 16 holds the
// low nibble of byte l (value l) and its high nibble (value l+16), each
// nibble's value looked up in a table of -8 to 7 rather than computed.
//
//go:noescape
func dotQ4_0AVX512(b *byte, x *float32, n int) float32
