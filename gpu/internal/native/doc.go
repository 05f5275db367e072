// Package native holds what the drivers of the native GPU tiers (gpu/cuda
// over the CUDA driver API, gpu/hip over the HIP runtime) share, the
// logic that does not depend on which library they call: a device's lost
// state, the loaded modules' references, the check of a kernel's block,
// the kernel arguments of their common calling contract (schema/ptx.go,
// which schema/hsaco.go takes over), the polling wait, and the device
// timer's pairs of events. A driver gives it the library's calls as
// function values or a small interface.
//
// Layering: imports the driver contract (gpu/driver), schema, xpu and the
// standard library; never a library binding, the runtime or codegen.
package native
