// Package simd is host code for the CPU: the dot products of llama.cpp's
// GGUF quantized blocks (Q8_0, Q4_0 and Q4_K, laid out as in its
// ggml-common.h) against float32 activations, the mat-vecs built on
// them, and a float32 matrix product, Sgemm, in Go assembly for amd64
// chosen at run time from cpuid, behind a pure-Go fallback that every
// other architecture (and the noasm build tag) gets; and a radix sort of
// uint32 keys and pairs (SortUint32, SortPairsUint32) in plain Go on
// several goroutines, where the kernel language's sort scatters a key at
// a time on AVX2, which has no scatter.
//
//	format  values  bytes  layout (little-endian)  value i of the block
//	Q8_0    32      34     f16 d, 32 int8 q         q[i]*d
//	Q4_0    32      18     f16 d, 16 bytes b        ((b[i]&0xF)-8)*d for i < 16,
//	                                                ((b[i-16]>>4)-8)*d for i >= 16
//	Q4_K    256     144    f16 d, f16 dmin,         d*sc(j)*q - dmin*m(j), j = i/32,
//	                       12 bytes sc and m,       q the low nibble of b[32*(j/2)+i%32]
//	                       128 bytes b              for even j, the high for odd
//
// Q4_K's 8 sub-blocks of 32 values each have a 6-bit scale sc(j) and
// min m(j), packed as llama.cpp's get_scale_min_k4 reads them; each
// super-block's are unpacked and multiplied by d and dmin (exactly)
// before its values, and each sub-block's sums of q*x and of x go
// through the lanes as below. Its bound is given at [DotQ4_K].
//
// The paths, fastest the processor supports first: AVX-512 (AVX512F;
// 16 lanes), AVX2 with FMA and F16C (8 lanes), pure Go. Each block's sum
// of q[i]*x[i] is taken in float32 across the lanes with fused
// multiply-adds, multiplied by the block's scale and accumulated per
// lane; the lanes are added at the end. The order of the additions so
// differs from a sequential sum, and from path to path: each result is
// within about n roundings (n = len(x) plus the number of blocks, u =
// 2^-24 each) of the exact dot product, relative to the sum of the
// absolute values of its terms q[i]*d*x[i].
//
// [Sgemm] is gonum's Sgemm over row-major slices, computed as GotoBLAS
// and BLIS compute it: op(B) packed KC = 256 rows by NC = 4096 columns at
// a time into panels of 32 columns, op(A) MC = 144 rows by KC into
// panels of 6 rows (a transpose is undone in the packing), and a
// micro-kernel that keeps a 6x32 tile of C in 12 registers of 16 lanes,
// broadcasting A and loading B's row in two vectors each step of k. An
// edge tile is computed whole from zero-padded panels into a scratch
// tile and only its part inside C written. The paths are AVX-512 (the
// avx512 path), AVX2 with FMA (avx2: the same tile in two halves of 16
// columns, each in 12 registers of 8 lanes) and pure Go. On several goroutines, where C has rows enough, they pack B
// together and take blocks of C's rows as they can (sgemmTeam); else
// they split C's larger dimension and each packs its own.
//
// Layering: the package is plain Go over byte, float32 and uint32 slices; it
// knows no kernel language, runtime, tensor or buffer, and imports
// cpuid, kernels/internal/f16 (the scales) and gonum's blas (Sgemm's
// transposes) alone. A provider above it checks its operands and calls
// the mat-vecs and Sgemm, which check their shapes again and return an
// error wrapping [ErrArgs] naming the rule broken.
package simd
