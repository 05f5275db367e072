// Package core is the API-neutral part of the WebGPU drivers of the xpu
// runtime: what the wgpu-native driver (gpu/webgpu), the Dawn driver
// (gpu/webgpu/dawn) and the browser driver (gpu/webgpu/jsgpu) do alike,
// written once over the small [API] each of them implements on its own
// binding.
//
// It holds the device, buffer, program and queue of the driver contract
// (gpu/driver): the bind group layout built from a kernel's parameters;
// buffer bookkeeping (bounds, padding to 4 bytes, staging for reads); the
// bind group cache keyed by program, buffers and uniform ring; the queue's
// batching (one encoder and one compute pass per submit, each launch's
// scalars in a uniform ring at an aligned dynamic offset, a submit at
// Flush, Sync, a read, or when the ring fills); the deferred release of
// what an unsubmitted pass still uses; the probe, at open, of the
// subgroup layout the wave tiers assume; and, for an API that can stamp
// passes ([Stamper]), the device timer.
//
// Layering: this package implements gpu/driver over [API] and imports
// neither the runtime (package gpu), nor any codegen, nor any binding: no
// cgo, no purego, no syscall/js. It builds for every target the drivers
// do.
package core
