// Package cuda is the CUDA backend's driver: it runs the PTX artifacts
// of kernels (schema.TargetPTX, whose calling contract schema/ptx.go
// states) on an NVIDIA GPU through the CUDA driver API, libcuda.so.1,
// which it opens at run time with purego, so that it builds and runs
// without cgo. A machine without the library, or without a device, has
// no CUDA backend: Open then fails quickly with an error wrapping
// driver.ErrUnavailable, and the runtime opens the next backend.
//
// Open reads two settings from the environment: XPU_CUDA_LIB, the path
// of the driver library (default libcuda.so.1 on the library path), and
// XPU_CUDA_DEVICE, the ordinal of the device (default 0).
//
// The driver is built for linux on amd64 and arm64 only; elsewhere the
// package holds this comment alone, and the runtime registers no CUDA
// backend.
//
// The driver's logic is the native drivers' (gpu/internal/native); this
// package binds the driver API's functions to it, reads the device's
// facts and compute capability, and chooses and loads a kernel's PTX.
//
// Layering: a driver; it imports the driver contract (gpu/driver), what
// the native drivers share (gpu/internal/native), schema, purego and the
// standard library, never the runtime or codegen.
package cuda
