// Package dawn is the pure-Go driver of the xpu runtime's WebGPU backend:
// it runs kernels' WGSL through a webgpu.h shared library (Dawn), loaded
// at run time with purego, so that it builds and runs without cgo.
//
// It lives beside the cgo driver (package webgpu) rather than inside it:
// the two implement the same backend, "webgpu", and the same contract
// (gpu/driver) through the same core (gpu/webgpu/internal/core), but one
// binds wgpu-native through cgo, the other Dawn's C ABI through purego,
// and each must build where the other cannot. The runtime picks one at
// open time (package gpu).
//
// The library is the one named by XPU_WEBGPU_LIB, else the first of
// libwebgpu_dawn.so, libwebgpu.so and libwebgpu_wrapper.so found on the
// library path, else libwebgpu_wrapper.so in the cache folder that
// scripts/install-dawn fills ([CacheDir]). Its ABI is Dawn's webgpu.h of
// mid-2025 (callback infos with two userdata pointers, futures, string
// views); abi.go spells the structures it needs.
//
// The core does what every WebGPU driver does alike (layouts, bind group
// cache, uniform ring, batching queue, staged reads, the pass timer); this
// package binds its API to Dawn. The adapter is a real one (Dawn's Null
// backend is refused by name) and its compute limits are requested;
// subgroups and shader-f16 are requested when offered; and passes are
// stamped with timestamp queries (pass-boundary writes) when the device
// offers timestamp-query, so that queues are driver.Timers.
//
// Errors: creation calls run inside an error scope and return its error;
// errors no scope catches (a bad dispatch) and the loss of the device are
// recorded by callbacks and returned by the next Flush, Sync or Read. The
// process is never aborted. Every C callback is created once per process
// and finds its request through its userdata.
//
// [RawDevice] drives the same bindings by raw calls, outside the runtime:
// the reference point of the WebGPU benchmarks (bench/webgpubench).
//
// Layering: this package implements gpu/driver through the core and
// imports neither the runtime (package gpu) nor any codegen.
package dawn
