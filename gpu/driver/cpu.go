package driver

import (
	"errors"
	"sync/atomic"
	"unsafe"

	"github.com/goxpu/xpu"
)

// CPUFunc is the Go lowering of a kernel: it runs every work-item of one
// block, in order, splitting the block's work at its barriers. Generated
// code sets it as the Entry of its Go artifact; the CPU backend calls it
// once per block, on one goroutine, with a CPUBlock it does not keep. A CPUFunc may panic (an
// index out of range, an integer division by zero, a barrier reached in
// non-uniform control flow); the backend recovers and reports the block.
type CPUFunc func(b *CPUBlock)

// CPUBlock is one block of a launch as a CPU lowering sees it. The backend
// reuses it from block to block; a CPUFunc must not retain it.
type CPUBlock struct {
	Group  xpu.Dim3 // this block's coordinates in the grid
	Groups xpu.Dim3 // blocks in the grid on each axis (Y and Z at least 1)
	Wave   uint32   // the wave width: WaveWidth() of every work-item

	// Buffers are the bound buffers in order of the kernel's buffer
	// parameters, as bytes aligned to 4 (a view's window) or 8 (an
	// allocation); CPUView gives a typed view.
	Buffers [][]byte
	// Uniforms is the uniform block (Kernel.UniformSize bytes, aligned to
	// 8): each scalar parameter at its Binding offset.
	Uniforms []byte

	// Stop, when not nil, is set once the launch is to stop (its context
	// is done); Poll reads it.
	Stop *atomic.Bool
}

// Poll stops the block, by panicking with ErrStopped, once its launch is
// to stop; the backend recovers the panic and stops the launch. The
// backend calls it before each block. The Go lowering reads the flag of
// Stopping at the top of a loop's body (all but short counted loops), in
// a local, and once it is set panics with ErrStopped as Poll does, so
// that a kernel that never ends still sees its launch's context end at
// the cost of a load and a branch per iteration.
func (b *CPUBlock) Poll() {
	if b.Stop != nil && b.Stop.Load() {
		panic(ErrStopped)
	}
}

// Stopping returns Stop, or, when Stop is nil, a flag that is never set.
func (b *CPUBlock) Stopping() *atomic.Bool {
	if b.Stop != nil {
		return b.Stop
	}
	return &neverStop
}

// neverStop is the flag of a block without Stop; nothing sets it.
var neverStop atomic.Bool

// ErrStopped is the panic of CPUBlock.Poll.
var ErrStopped = errors.New("launch stopped")

// CPUView returns the bytes of b as a slice of T sharing b's memory, of
// len(b)/sizeof(T) elements. b must be aligned for T, as the CPU backend's
// buffers are; T is a 32-bit scalar or a struct of them.
func CPUView[T any](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) < size || size == 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/size)
}

// CPUUniform returns the scalar of type T at byte offset off of the
// uniform block u; it panics like an index out of range when u is short.
func CPUUniform[T any](u []byte, off int) T {
	var zero T
	_ = u[off+int(unsafe.Sizeof(zero))-1]
	return *(*T)(unsafe.Pointer(&u[off]))
}
