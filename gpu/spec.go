package gpu

import "github.com/goxpu/xpu/gpu/driver"

// The compiled form of a kernel and the description of a device, as the
// backend contract defines them; generated code names them through gpu.
type (
	// KernelSpec is what generated code registers for one kernel.
	KernelSpec = driver.Kernel
	// Param is one parameter of a kernel after its Thread.
	Param = driver.Param
	// ParamKind tells buffer parameters from scalar ones.
	ParamKind = driver.ParamKind
	// Access is how a kernel uses a buffer parameter.
	Access = driver.Access
	// Info describes a device.
	Info = driver.Info
	// Limits are the compute limits of a device; zero means absent.
	Limits = driver.Limits
)

// Parameter kinds.
const (
	ParamBuffer = driver.ParamBuffer
	ParamScalar = driver.ParamScalar
)

// Buffer access modes.
const (
	AccessNone      = driver.AccessNone
	AccessRead      = driver.AccessRead
	AccessWrite     = driver.AccessWrite
	AccessReadWrite = driver.AccessReadWrite
	AccessAtomic    = driver.AccessAtomic
)
