package gpu

import (
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// The compiled form of a kernel and the description of a device, as the
// backend contract defines them; generated code names them through gpu.
type (
	// KernelSpec is what generated code registers for one kernel.
	KernelSpec = driver.Kernel
	// Param is one parameter of a kernel after its Thread.
	Param = schema.Param
	// ParamKind tells buffer parameters from scalar ones.
	ParamKind = schema.ParamKind
	// TypeName names a parameter's Go type.
	TypeName = schema.TypeName
	// Access is how a kernel uses a buffer parameter.
	Access = schema.Access
	// Artifact is a kernel's code for one backend.
	Artifact = schema.Artifact
	// Selector says which devices an artifact is for.
	Selector = schema.Selector
	// Manifest describes an artifact's code.
	Manifest = schema.Manifest
	// Usage is how a kernel uses one buffer parameter.
	Usage = schema.Usage
	// Info describes a device.
	Info = driver.Info
	// Limits are the compute limits of a device; zero means absent.
	Limits = driver.Limits
)

// Parameter kinds.
const (
	ParamBuffer = schema.ParamBuffer
	ParamScalar = schema.ParamScalar
)

// Buffer access modes.
const (
	AccessNone      = schema.AccessNone
	AccessRead      = schema.AccessRead
	AccessWrite     = schema.AccessWrite
	AccessReadWrite = schema.AccessReadWrite
	AccessAtomic    = schema.AccessAtomic
)
