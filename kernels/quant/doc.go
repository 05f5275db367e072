// Package quant is GGUF block quantization as llama.cpp writes it (its
// ggml-common.h and ggml-quants.c), bit for bit, with dequantize and
// mat-vec kernels in the kernel language.
//
// Three formats are supported, each a run of fixed-size blocks, named by
// package tensor's formats (tensor.Q8_0, tensor.Q4_0, tensor.Q4_K):
//
//	format  values  bytes  layout (little-endian)                  value i of the block
//	Q8_0    32      34     f16 d, 32 int8 qs                        qs[i]*d
//	Q4_0    32      18     f16 d, 16 bytes qs                       ((qs[i] & 0x0F) - 8)*d for i < 16,
//	                                                                ((qs[i-16] >> 4) - 8)*d for i >= 16
//	Q4_K    256     144    f16 d, f16 dmin, 12 bytes of 6-bit       d*sc(j)*q - dmin*m(j), j = i/32 its
//	                       scales and mins, 128 bytes qs            sub-block (see BlockQ4_K)
//
// The host side is plain Go: the blocks' types and byte layouts,
// [Encode] following llama.cpp's reference quantizers
// (quantize_row_q8_0_ref, quantize_row_q4_0_ref, quantize_row_q4_K_ref:
// the same arithmetic in float32 and the same rounding, so the bytes are
// the ones llama.cpp writes), [Decode] and an exact float16
// conversion.
//
// The device side holds a tensor's bytes in a gpu.Buffer[uint32] (see
// [Words]): buffers carry 32-bit elements only, so a block of 34 or 18
// bytes straddles words, and the kernels pick bytes and halves out of
// words with shifts and masks and convert float16 to float32 with
// integer operations. Every block size is even and every block starts
// with its scale, so a scale always lies within one word, at its low or
// high half; a Q4_K block (144 bytes) starts on a word.
//
// A weight's blocks come in two orders, package tensor's layout classes:
// row-major (BlockedRowMajor, block (r, j) of a rows x cols matrix at
// r*cols/BlockSize + j, as GGUF stores it) and input-major
// (BlockedInputMajor, block (r, j) at j*rows + r). [Pack] moves a weight
// from the first to the second on a device, once at load, and
// [InputMajor] is the same on the host. The two orders suit two mat-vec
// designs: [MatVec] gives a row a block of work-items that read the
// row's consecutive blocks and add their sums in shared memory;
// [MatVecInputMajor] gives a row one work-item, so that a wave's
// work-items read consecutive blocks of one column slice and need no
// reduction but a short one across column phases. It comes in two forms
// ([Form]): Split spreads a row's column blocks over eight work-items,
// for GPUs; Whole gives a work-item all of them, of four rows, the block
// index then the same across a block, for devices that run work-items as a CPU's
// SIMD lanes; the library (package kernels) launches the one its tuner
// measures faster on the device. [MatMul] multiplies
// a row-major weight by a batch of activations (a prefill), decoding
// each block of W once per tile of 16 activations. The entry points
// record launches on a stream without waiting for them.
//
// Layering: the kernels import only package xpu, the kernel vocabulary;
// xpu_gen.go, their generated code (xpu gen), imports xpu and the runtime
// (gpu, gpu/gpuimpl); the host entry points import gpu and tensor, whose
// formats they take. The tests check
// every kernel on every device present against the reference runner, the
// packing kernel against the plain-Go packer byte for byte, and the
// other entry points against the plain-Go dequantize and a float64 dot.
package quant

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
