// Package gpuimpl is for generated code only: the files xpu gen writes
// register their kernels with it, and their Go lowering runs on the CPU
// backend through it. Its API may change without notice; programs use
// package gpu, which never imports it.
//
// Layering: gpuimpl imports gpu (for the handles it returns), gpu/driver,
// gpu/cpu and schema, and re-exports what generated code names.
package gpuimpl

import (
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/internal/handle"
	"github.com/goxpu/xpu/schema"
)

// The compiled form of a kernel, as the schema defines it.
type (
	// KernelSpec is what generated code registers for one kernel.
	KernelSpec = schema.Kernel
	// Param is one parameter of a kernel after its Thread.
	Param = schema.Param
	// TypeName names a parameter's Go type.
	TypeName = schema.TypeName
	// Artifact is a kernel's code for one backend.
	Artifact = schema.Artifact
	// Selector says which devices an artifact is for.
	Selector = schema.Selector
	// Manifest describes an artifact's code.
	Manifest = schema.Manifest
	// Usage is how a kernel uses one buffer parameter.
	Usage = schema.Usage
	// Word is a launch word the code reads after its uniform block.
	Word = schema.Word
)

// GridWords are the launch words of WGSL code that can fold its grid.
var GridWords = schema.GridWords

// Launch word kinds.
const (
	WordGroupsX = schema.WordGroupsX
	WordGroupsY = schema.WordGroupsY
	WordGroupsZ = schema.WordGroupsZ
	WordFolded  = schema.WordFolded
	WordLen     = schema.WordLen
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

// Register records the compiled form of a kernel under spec.Name
// ("importpath.Name") and returns its handle. Generated code calls it from
// init functions. The spec is copied and checked: a spec that cannot be
// launched (invalid parameters, a Refused reason, a name registered
// before) still yields a Kernel, whose launches fail with gpu.ErrRefused
// and the reason.
func Register(spec *KernelSpec) *gpu.Kernel { return handle.New(spec).(*gpu.Kernel) }

// RegisterTemplate records the template name ("importpath.Func", after
// the template's Go function) with its members, the handles Register
// returned for them, in the order of its //xpu:instance lines, refused
// members included. Generated code calls it from init functions, after
// registering the members. A registration that is wrong (a name
// registered before, a member that is no registered kernel or a member of
// another template) still yields a Template, whose Refused says why.
func RegisterTemplate(name string, members ...*gpu.Kernel) *gpu.Template {
	return handle.NewTemplate.(func(string, ...*gpu.Kernel) *gpu.Template)(name, members...)
}
