// Package hip is the HIP backend's driver: it runs the HSACO artifacts
// of kernels (schema.TargetHSACO, whose calling contract schema/hsaco.go
// states) on an AMD GPU through the HIP runtime, libamdhip64.so, which
// it opens at run time with purego, so that it builds and runs without
// cgo. A machine without the library, or without a device, has no HIP
// backend: Open then fails quickly with an error wrapping
// driver.ErrUnavailable, and the runtime opens the next backend.
//
// Open reads two settings from the environment: XPU_HIP_LIB, the path of
// the runtime library (default libamdhip64.so on the library path), and
// XPU_HIP_DEVICE, the ordinal of the device (default 0).
//
// The device's architecture, which a code object must match exactly, is
// the processor of its gcnArchName ("gfx90a" of
// "gfx90a:sramecc+:xnack-"), read with hipGetDevicePropertiesR0600: the
// one call of the HIP ABI that reports the name, under a symbol that
// fixes the layout of the properties it fills (ROCm 6's), so that a
// library with another layout lacks the symbol and opens no device
// rather than one of a misread name.
//
// The driver is built for linux on amd64 and arm64 only; elsewhere the
// package holds this comment alone, and the runtime registers no HIP
// backend.
//
// The driver's logic is the native drivers' (gpu/internal/native); this
// package binds the runtime's functions to it, reads the device's facts
// and architecture, and chooses and loads a kernel's code object.
//
// Layering: a driver; it imports the driver contract (gpu/driver), what
// the native drivers share (gpu/internal/native), schema, purego and the
// standard library, never the runtime or codegen.
package hip
