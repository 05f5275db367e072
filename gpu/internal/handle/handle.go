// Package handle carries the constructor of kernel handles from package
// gpu to package gpuimpl, which generated code calls: gpu sets New when it
// initializes, before any package that imports gpuimpl, so that gpu need
// not import gpuimpl to construct the *gpu.Kernel gpuimpl.Register returns.
//
// Layering: imports only gpu/driver.
package handle

import "github.com/goxpu/xpu/gpu/driver"

// New registers spec and returns its handle, a *gpu.Kernel.
var New func(spec *driver.Kernel) any
