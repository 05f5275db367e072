package schema

// This file defines the calling contract of the host tier: how the CPU
// backend calls a kernel that the LLVM lowering compiled to machine code
// for the host (TargetLLVMHost). The lowering reads the layout of these
// types when it writes the entry's loads; the CPU driver fills them. Both
// take it from here, so the layout is stated once.

// A host-tier entry is a function of the C calling convention,
//
//	uint32_t entry(HostLaunch *launch, uint64_t first, uint64_t last);
//
// that runs the blocks first to last-1 of a launch in their linear order
// (X fastest, then Y, then Z: block b is at X = b mod Groups[0], Y =
// b / Groups[0] mod Groups[1], Z = b / (Groups[0]*Groups[1])). It returns
// HostOK, or the code of the first fault it met (HostFault...), having
// written the fault's place to *Fault; it stops at that fault. Several
// workers call it at once for disjoint ranges of one launch, each with a
// HostLaunch of its own. It keeps no pointer past its return.

// HostLaunch is what a host-tier entry reads of one launch. Its pointers
// are addresses (uintptr), so that a Go value of it holds no Go pointer:
// the driver keeps the memory they name alive, and pinned, for the call.
type HostLaunch struct {
	Groups   [3]uint32 // blocks in the grid on each axis, each at least 1
	Wave     uint32    // the wave width: WaveWidth() of every work-item
	Uniforms uintptr   // the uniform block: each scalar parameter at its Binding offset
	Buffers  uintptr   // a [n]HostBuffer, one per buffer parameter, in order
	// Stop is the address of a uint32 that the driver sets to nonzero
	// once the launch is to stop. The entry reads it (a monotonic atomic
	// load: LLVM may hoist an unordered one out of a loop that stores
	// nothing, and the loop would never see the word set) before each
	// block and at the top of each loop's body, and on a nonzero word
	// returns HostStopped.
	Stop uintptr
	// Fault is the address of the worker's HostFault, which the entry
	// writes before it returns a fault code.
	Fault uintptr
}

// HostBuffer is one bound buffer: its first byte (aligned to 4) and its
// length in bytes. An element index at or past Bytes/size is a fault
// (HostFaultIndex), never an access.
type HostBuffer struct {
	Base  uintptr
	Bytes uint64
}

// HostFault is where a host-tier entry says a fault happened.
type HostFault struct {
	Code  uint32    // the code it returns
	Group [3]uint32 // the block's coordinates
	Local [3]uint32 // the first faulting work-item's local coordinates
	// Object is, for HostFaultIndex, the index of the parameter (among
	// all parameters, in order) of the buffer indexed, or, for a shared
	// or private array, ^uint32(0); 0 otherwise.
	Object uint32
	// Index is the out-of-range element index, as the kernel computed it
	// (an int32 index reads as its two's-complement bits); 0 for other
	// faults.
	Index uint32
}

// The codes a host-tier entry returns.
const (
	HostOK                 uint32 = 0
	HostFaultIndex         uint32 = 1 // an index out of range of a buffer, shared or private array
	HostFaultDivZero       uint32 = 2 // an integer division or remainder by zero
	HostFaultNegativeShift uint32 = 3 // a shift by a negative signed count
	HostStopped            uint32 = 4 // the launch's Stop word was set
	// HostFaultBarrier: a barrier or wave verb reached in control flow the
	// work-items of a block do not agree on (Go's reference deadlocks).
	HostFaultBarrier uint32 = 5
)

// HostSymbol is the name of kernel's entry in its host-tier shared
// object; name is the kernel's name in its package (Kernel.Name after the
// last dot).
func HostSymbol(name string) string { return "xpu_" + name }
