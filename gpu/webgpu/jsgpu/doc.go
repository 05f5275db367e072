// Package jsgpu is the WebGPU driver of the xpu runtime in the browser
// (GOOS=js GOARCH=wasm): it runs kernels' WGSL through navigator.gpu,
// driven from Go through syscall/js.
//
// It behaves as the native drivers do, through the same core
// (gpu/webgpu/internal/core), which does what every WebGPU driver does
// alike (layouts, bind group cache, uniform ring, batching queue, staged
// reads); this package binds the core's API to navigator.gpu. A device is
// the high-performance adapter's, opened with WebGPU's default limits
// raised to the adapter's compute limits and with the optional features
// xpu uses (subgroups, timestamp-query) when the adapter offers them.
// With timestamp-query, its passes are timed by the device's clock
// (timestampWrites at each compute pass's start and end, core.Stamper),
// as far as the browser's timestamp quantization allows.
//
// The browser reports results through promises. The driver waits for one
// by blocking its goroutine on a channel that the promise's callbacks feed;
// a callback only ever sends on a buffered channel or appends under a lock
// that is never held across a wait, so it never blocks. Calling the driver
// from inside a js.FuncOf callback would block the browser's event loop:
// call it from a goroutine.
//
// WebGPU reports validation errors asynchronously. The driver collects
// them from the device's uncapturederror events and returns them from the
// next Flush, Sync or Read, so that no error is dropped.
//
// Layering: this package implements gpu/driver through the core and
// imports neither the runtime (package gpu) nor any codegen. Outside
// GOOS=js it is empty.
package jsgpu
