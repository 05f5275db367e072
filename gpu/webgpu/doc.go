// Package webgpu is the WebGPU driver of the xpu runtime: it runs kernels'
// WGSL through wgpu-native (Vulkan, Metal, D3D12) by way of cgo.
//
// A device is the high-performance adapter of a wgpu instance, opened with
// WebGPU's default limits raised to the adapter's compute limits. A kernel
// compiles to a compute pipeline with an explicit bind group layout built
// from its parameters. A queue records launches into one command encoder
// and one compute pass, with each launch's scalars in a uniform ring bound
// at a dynamic offset, and submits them at Flush, Sync, or when the ring
// fills.
//
// Layering: this package implements gpu/driver and imports neither the
// runtime (package gpu) nor any codegen. Without cgo it builds to a stub
// whose [Opener] returns nil, so the runtime registers no WebGPU backend.
package webgpu
