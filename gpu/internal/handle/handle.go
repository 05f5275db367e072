// Package handle carries the constructors of kernel and template handles
// from package gpu to package gpuimpl, which generated code calls: gpu
// sets them when it initializes, before any package that imports gpuimpl,
// so that gpu need not import gpuimpl to construct the *gpu.Kernel
// gpuimpl.Register and the *gpu.Template gpuimpl.RegisterTemplate return.
//
// Layering: imports only gpu/driver.
package handle

import "github.com/goxpu/xpu/gpu/driver"

// New registers spec and returns its handle, a *gpu.Kernel.
var New func(spec *driver.Kernel) any

// NewTemplate registers a template and returns its handle: it is a
// func(name string, members ...*gpu.Kernel) *gpu.Template, which this
// package cannot spell.
var NewTemplate any
