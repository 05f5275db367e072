// Package webgpubench measures the WebGPU backend beside raw calls of its
// drivers' own bindings, in the same run (its benchmarks are its tests):
//
//   - BenchmarkWebGPUDrivers puts the generated kernels, launched through
//     the runtime on each native driver (wgpu-native through cgo, Dawn
//     through purego), beside the same kernels written by hand in WGSL and
//     driven by raw calls of that driver's binding on a device of its own
//     (cogentcore/webgpu for wgpu-native, dawn.RawDevice for Dawn): one
//     benchmark body for both drivers.
//   - BenchmarkLaunches puts 1,000 small launches through a gpu.Stream
//     beside the same dispatches as raw wgpu-native calls, batched and
//     with a submit and wait each.
//
// Every figure is timed alike, by the host clock around a batch that is
// submitted and waited for; the variants alternate within each iteration
// so that none always runs on a cold or a warm device.
//
// Layering: it imports the runtime, the drivers' raw bindings and the
// benchmark kernels (bench/internal/kernels); nothing imports it.
package webgpubench
