// Package browserbench puts the WebGPU SGEMM of kernels/matmul beside
// tf.matMul of @tensorflow/tfjs-backend-webgpu in the same headless
// Chromium, the same page and the same rounds: its benchmark
// (BenchmarkSGEMM) builds the page program (bench/browserbench/page) for
// the browser, installs tfjs from npm into a cache folder outside the
// module, loads both into one page, and reports each side's GFLOP/s and
// their ratio. It holds no code itself: the benchmark is a test, so that
// linking the browser harness (package wasm, which links the demo's
// benchmarks) makes no cycle of folders.
package browserbench
