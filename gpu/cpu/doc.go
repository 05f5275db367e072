// Package cpu is the CPU backend of xpu: it runs a kernel at one of two
// tiers on a pool of workers, with as many workers as GOMAXPROCS allows,
// and reports the processor's facts (vendor, model, cores, SIMD level,
// float32 lane width, host-code level, caches) read through cpuid. The lane
// width is the wave width of width-agnostic kernels.
//
// The Go tier runs a kernel's Go lowering (its Go artifact,
// schema.TargetGo), one block at a time per worker. The host tier runs
// its machine code (schema.TargetLLVMHost): a shared object, written to a
// cache folder by its hash and loaded through purego without cgo, whose
// entry runs a chunk of blocks per call as schema/host.go states. A
// device runs the host artifact of the widest level the processor holds
// (on amd64 its x86-64 level, by cpuid; on arm64 armv8-a, NEON being part
// of AArch64), else the Go artifact, unless Config.Tier (XPU_CPU_TIER)
// says otherwise.
//
// Layering: this package knows no codegen. It implements the gpu/driver
// contract (var _ driver.Device = (*device)(nil)) and imports only xpu,
// gpu/driver, schema, the cpuid module and purego; the runtime (package
// gpu) registers it.
//
// A kernel without an artifact the device runs is refused by name when it
// is compiled, and so is one whose host code does not load. A block that
// faults (an index out of range, an integer division by zero: a panic of
// the Go lowering, a fault code of the host entry) fails its launch with
// an error naming the kernel and the block; the other blocks still run,
// as with the reference runner.
package cpu
