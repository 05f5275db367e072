// Package bench is the home of xpu's benchmarks: every benchmark of the
// module and every program that prints a figure of docs/standing.md lives
// in a package below it, each figure beside its reference point measured
// in the same run. It holds no code itself.
//
//   - bench/cpubench: the CPU backend beside plain Go loops, the machine's
//     memory bandwidth and gonum's Sgemm; its command (cmd/cpubench) is
//     what `xpu bench cpu` runs.
//   - bench/webgpubench: the WebGPU backend beside raw calls of its
//     drivers' own bindings (wgpu-native, Dawn), and the launch cost.
//   - bench/tunebench: the tuner's choice of an SGEMM member per shape
//     beside an exhaustive sweep of every member and the best fixed one;
//     its command (cmd/tunebench) prints the table.
//   - bench/devicebench: any device beside a Go loop or another kernel
//     (the figures the browser demo shows, the wave reductions), and the
//     reference runner's race check and its loop per block.
//   - bench/kernelbench: the kernel library's packages (kernels/...),
//     each kernel beside a copy of the same bytes, a host implementation
//     (gonum, slices.Sort) or its family's other members.
//   - bench/browserbench: kernels/matmul's SGEMM on a headless Chromium's
//     WebGPU beside tfjs-backend-webgpu's tf.matMul in the same page.
//   - bench/internal/kernels: the kernels they run, checked on every
//     device against the reference runner.
//
// They live apart from the packages they measure so that a benchmark may
// link what it compares (kernels, drivers' raw bindings, gonum) without a
// library package linking it, and so that one place answers where a
// figure comes from. Benchmarks are tests (go test -bench) or programs;
// nothing imports a package of bench but a benchmark or a program.
package bench
