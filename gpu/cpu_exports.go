package gpu

import (
	"github.com/goxpu/xpu/cpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// The contract of the Go lowering that generated code sets in
// KernelSpec.CPU and the CPU backend runs, re-exported for generated code.
type (
	// CPUFunc runs every work-item of one block of a kernel.
	CPUFunc = driver.CPUFunc
	// CPUBlock is one block of a launch as a CPU lowering sees it.
	CPUBlock = driver.CPUBlock
)

// CPUView returns the bytes of a CPU buffer as a slice of T sharing its
// memory.
func CPUView[T any](b []byte) []T { return driver.CPUView[T](b) }

// CPUUniform returns the scalar of type T at byte offset off of a uniform
// block.
func CPUUniform[T any](u []byte, off int) T { return driver.CPUUniform[T](u, off) }

// CPUDotStrip is the strip dot product the Go lowering runs an inner
// product's work-item loop with (see cpu.DotStrip).
type CPUDotStrip = cpu.DotStrip
