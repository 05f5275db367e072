// Package webgpu is the WebGPU driver of the xpu runtime: it runs kernels'
// WGSL through wgpu-native (Vulkan, Metal, D3D12) by way of cgo.
//
// A device is the high-performance adapter of a wgpu instance, opened with
// WebGPU's default limits raised to the adapter's compute limits. What
// every WebGPU driver does alike — the explicit bind group layout from a
// kernel's parameters, the bind group cache, the uniform ring and the
// batching queue, staged reads — is the core's (gpu/webgpu/internal/core);
// this package holds only the binding of that core's API to wgpu-native.
//
// Layering: this package implements gpu/driver through the core and
// imports neither the runtime (package gpu) nor any codegen. Without cgo
// it builds to a stub whose [Opener] returns nil, so the runtime registers
// no WebGPU backend.
package webgpu
