// Package kernelbench measures the kernel library's packages (kernels/...)
// on every device present, each kernel beside a reference point in the
// same run (its benchmarks are its tests), one file per library package:
//
//   - BenchmarkSgemv (blas_test.go): blas.Sgemv in both transposes beside
//     gonum's pure-Go Sgemv on the host.
//   - BenchmarkTiled (matmul_test.go): every member of matmul.Tiled at
//     small to large shapes, the members each other's reference point.
//   - BenchmarkRows (nn_test.go): the library's softmax, nn's two softmax members, RMSNorm and LayerNorm
//     beside layout.Copy of the same elements in the same rounds.
//   - BenchmarkMatVec and BenchmarkMatMul (quant_test.go): quant.MatVec
//     in each format beside a copy of W's bytes and quant.MatVecInputMajor,
//     and quant.MatMul of a batch beside one quant.MatVec per activation.
//   - BenchmarkSIMDMatVec (simd_test.go): simd's quantized mat-vecs on
//     the host beside a copy of the weight's bytes.
//   - BenchmarkSum (reduce_test.go): a reduce.Reducer's Sum in each form
//     beside layout.Copy of the same buffer.
//   - BenchmarkKeys (sort_test.go): sort.Sorter.Keys beside slices.Sort
//     of the same keys on the host.
//
// Device times are the stream's (gpu.Stream.Time); a kernel and its
// reference point on the device are timed in the same rounds
// (gputest.Beside).
//
// Layering: its benchmarks use only the library packages' exported API,
// the runtime and the test harness (gpu/gputest); it holds no code but
// this comment, and nothing imports it.
package kernelbench
