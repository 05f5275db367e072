// Package cpu is the CPU backend of xpu: it runs the Go lowering of a
// kernel (its Go artifact, schema.TargetGo) on a pool of workers, one block at a time per
// worker, with as many workers as GOMAXPROCS allows, and reports the
// processor's facts (vendor, model, cores, SIMD level, float32 lane width,
// caches) read through cpuid. The lane width is the wave width of
// width-agnostic kernels.
//
// Layering: this package knows no codegen. It implements the gpu/driver
// contract (var _ driver.Device = (*device)(nil)) and imports only xpu,
// gpu/driver, schema and the cpuid module; the runtime (package gpu)
// registers it.
//
// A kernel without a Go artifact is refused by name when it is compiled.
// A block that panics (an index out of range, an integer division by zero)
// fails its launch with an error naming the kernel and the block; the
// other blocks still run, as with the reference runner.
package cpu
