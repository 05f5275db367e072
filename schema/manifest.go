package schema

// This file defines the manifest: what generated code says of one
// artifact's code.

import "github.com/goxpu/xpu"

// Manifest describes one artifact's code: its identity, its footprint,
// how it uses each buffer, its wave width and tier, whether it records
// faults, and the native operations its body lowered to. Each lowering
// reports these facts from what it built.
//
// A field the code generator cannot know for a target is absent: a nil
// pointer or an empty slice, never a zero that reads as a measurement.
type Manifest struct {
	Kernel  string  // "importpath.Name"
	Backend Backend // the backend that runs this code
	Target  Target  // the code's form
	Hash    string  // "sha256:" and the hex digest of the code (of a native target: the kernel's own part, before the link)
	Codegen string  // the version of the code generator that wrote it

	// Footprint.
	Block           xpu.Dim3
	SharedBytes     int     // static workgroup memory, bytes
	StorageBindings int     // storage buffers bound
	UniformBytes    int     // the uniform block, bytes
	PrivateBytes    *int    // private memory per work-item, bytes
	Registers       *int    // per work-item, native tiers only
	SpillBytes      *int    // per work-item, native tiers only
	Buffers         []Usage // one per buffer parameter, in order

	// Wave.
	Wave    uint32 // the declared wave width; 0 for a width-agnostic kernel
	WaveOps bool   // the body uses wave verbs or queries
	// WaveTier is the tier the code's wave verbs run at; "" when WaveOps
	// is false.
	WaveTier Tier
	// WaveWidth is the wave width the code runs at on one device: set in
	// a device's view of the manifest (gpu's Device.Manifest), 0 in the
	// generated one, which holds for any device of its selector.
	WaveWidth uint32

	// Fault is set when the code may record a run-time fault (an integer
	// division or remainder by zero, a shift by a negative signed count:
	// Go panics, WGSL would answer with a value) in a fault word: a
	// read_write storage buffer of one atomic u32, bound after the buffer
	// parameters and the uniform block (when the code has one: scalars or
	// words). The runtime binds a word of its
	// own there, as the last of a launch's buffers, and reports a nonzero
	// word at the next flush point as a kernel fault.
	Fault bool

	// Words are the launch words the code reads after the uniform block
	// (see Word); UniformBytes counts them.
	Words []Word

	// NativeOps are the target's operations the body lowered to, sorted:
	// WGSL builtins and atomics for TargetWGSL, the qualified library
	// calls of the Go lowering for TargetGo.
	NativeOps []string
}

// The bits of a fault word; a fault sets its bit with atomicOr.
const (
	FaultDivZero       uint32 = 1 << iota // an integer division or remainder by zero
	FaultNegativeShift                    // a shift by a negative signed count
	// FaultIndex is an index out of range of a buffer, shared or private
	// array: set by the GPU native tiers (PTX, HSACO), which skip the
	// access; WGSL code keeps such an access in bounds instead.
	FaultIndex
)

// Usage is how a kernel uses one buffer parameter, inferred from its body.
type Usage struct {
	Name   string
	Access Access
	// MinLen, when not empty, names the scalar parameters whose product
	// is the fewest elements the buffer must hold.
	MinLen []string
}
