// Package matmul is dense single-precision matrix multiplication written
// in the kernel language: the BLAS SGEMM, C = alpha*op(A)*op(B) + beta*C
// for row-major C (m x n), op(A) (m x k) and op(B) (k x n), op a
// transpose or not, each matrix's rows its leading dimension apart, as
// one template kernel, Tiled, whose members differ in their block tile
// (BM x BN elements of C per block, staged BK columns of op(A) and rows
// of op(B) at a time through shared memory) and micro-tile (TM x TN
// elements of C per work-item, in registers), and a second template,
// TiledWave, whose members also have a wave shape: a declared wave width
// W, across which the work-items of a row of the block share their
// elements of op(A) with shuffles instead of a shared tile, and a third,
// TiledVec, whose shared tiles hold [4]float32 elements, four
// consecutive columns each, read in one access. The members of the three
// are the family a tuner chooses among per device and shape; each
// is correct for every m, n, k >= 1, tile multiple or not, in every
// layout, at every subgroup size (the wave verbs run natively where the
// device's subgroups are W wide, emulated elsewhere).
//
// Two entry points launch the member the tuner chooses: Sgemm, shaped
// as gonum's blas32 Sgemm (gonum.org/v1/gonum/blas's Transpose, lda, ldb,
// ldc, alpha, beta), which checks BLAS's rules on the host, and Multiply,
// the packed product C = A*B, a call of the same path.
//
// The members and the shapes each is meant for:
//
//	member        BMxBN   BK  TMxTN  W   block   meant for
//	Tile8x8       8x8     8   1x1    -   8x8     tiny products (m, n <= 32), where bigger tiles are mostly padding
//	Tile16x16     16x16   16  1x1    -   16x16   small products on devices with many cores or few registers
//	Tile32x32     32x32   16  2x2    -   16x16   mid-sized products (about 64 to 512)
//	Tile64x64     64x64   16  4x4    -   16x16   large square products
//	Tile64x32     64x32   16  4x2    -   16x16   tall products (m much larger than n)
//	Tile32x64     32x64   16  2x4    -   16x16   wide products (n much larger than m), e.g. 64x2048
//	Tile128x64    128x64  16  8x4    -   16x16   very large products on devices with many registers
//	Tile64x128    64x128  16  4x8    -   16x16   very large wide products
//	Wave64x64W8   64x64   16  4x4    8   16x16   large square products where subgroups are 8 wide (Dawn on lavapipe)
//	Wave64x128W8  64x128  16  4x8    8   16x16   very large wide products, likewise
//	Vec64x64      64x64   16  4x4    -   16x16   large square products where a vec4 load is one access (WebGPU)
//	Vec128x64     128x64  16  8x4    -   16x16   very large products, likewise
//	Vec64x128     64x128  16  4x8    -   16x16   very large wide products, likewise
//	Vec128x128    128x128 16  8x8    -   16x16   very large products, likewise
//
// The small members give a small product more blocks than the large
// ones do, which a device with many cores needs to keep them busy; the
// large ones reuse each staged element more and win where the product
// fills the device. On the CPU and on lavapipe the winners among Tiled's
// were Tile32x64, Tile64x64 and Tile64x128, by shape (BenchmarkTiled, in
// bench/kernelbench). The wave members stage only op(B) and take op(A)
// from the lanes of their wave: where subgroups are native (Dawn on
// lavapipe, subgroups of 8) Wave64x128W8 was the fastest member at n =
// 1024 in two runs, and within 17% of the fastest at 256 and 512
// (bench/webgpubench); where the verbs are emulated through shared
// memory (wgpu-native without subgroups, the CPU) they pay a round trip
// per shuffle. On lavapipe the TiledVec members beat Tiled's of the
// same tiles by about half (bench/webgpubench): llvmpipe loads a vec4
// of shared memory at a lane-varying address in one sequence of
// instructions, where Tiled's four scalars take four; Vec128x128 is the
// fastest member there at 256 to 1024, and Tile128x64 was the tuner's
// choice in Chromium's SwiftShader. Wider waves (16,
// 32) and an 8x4 micro-tile spill registers in the HSACO lowering, whose gate refuses them, so the
// family holds the 8-wide ones alone.
//
// A member's launch grid for a shape is [Groups] of its Tile, which host
// code reads from the member's handle: Tile64x64Kernel.Spec().Comptime
// holds its Tile value.
//
// Layering: the kernels import only package xpu, the kernel vocabulary;
// xpu_gen.go, their generated code (xpu gen), imports xpu and the runtime
// (gpu, gpu/gpuimpl); the entry points import the tuner and gonum's blas
// package for its Transpose alone. The tests check every member on every
// device present against the reference runner, in every layout, and
// Sgemm against gonum's pure-Go Sgemm.
package matmul

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
