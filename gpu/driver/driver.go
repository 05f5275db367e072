// Package driver is the contract between the xpu runtime (package gpu)
// and its backends (gpu/webgpu, cpu, and the native tiers): the compiled
// form of a kernel as generated code registers it (schema.Kernel, named
// here Kernel), and the interfaces a backend implements. Each backend
// asserts at compile time that it does:
//
//	var _ driver.Device = (*device)(nil)
//
// Layering: this package knows no codegen; it imports only xpu, schema and
// the standard library. Package gpu/gpuimpl re-exports what generated code
// needs.
package driver

import (
	"context"
	"errors"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/schema"
)

// Kernel is the compiled form of one kernel, as schema defines it. The
// contract names it here, so that a backend reads the kernels it runs in
// the same package as the interfaces it implements.
type Kernel = schema.Kernel

// ErrFault is wrapped by the error of a kernel that failed while it ran
// where Go would have panicked (an integer division by zero, a negative
// shift count): a device
// reports it at the flush point after the launch, the CPU backend from
// the launch itself.
var ErrFault = errors.New("kernel fault")

// Info describes a device. What the runtime branches on, or keys on,
// is a typed field; Facts holds the rest, for display. A fact a backend
// cannot report is absent (zero in a field, missing from Facts), never
// a zero that reads as a value.
type Info struct {
	Backend schema.Backend
	Name    string // adapter or processor name
	Driver  string // the API or toolchain the device runs under: "vulkan", "metal", "navigator.gpu", "go1.26 linux/amd64"
	Type    string // e.g. "cpu", "discrete-gpu", "integrated-gpu"
	// Software is the implementation of the backend that drives the
	// device and its version, where the driver has one to name:
	// "wgpu-native 0.19.4.1", "dawn", a browser's user agent.
	Software string
	// VendorID and DeviceID identify the adapter's hardware (PCI ids)
	// where the driver reads them; 0 where it cannot (a browser hides
	// them, a processor has none).
	VendorID, DeviceID uint32
	// Subgroups reports that the device runs subgroup operations
	// (WebGPU's "subgroups" feature). The wave tiers use them only at
	// the subgroup sizes of Limits, which a driver leaves zero when the
	// subgroups' layout is not the one the tiers assume.
	Subgroups bool
	// Workers is the number of blocks the device runs at once, where the
	// driver decides it (the CPU's worker pool); 0 where it does not.
	Workers int
	// Native is the native target whose code the device runs where a
	// kernel carries it (the CPU's host tier: schema.TargetLLVMHost), and
	// ISA the widest instruction set level of it that the device runs
	// ("x86-64-v3", "sm_90"), or, for code that runs on its own
	// processor alone (an AMDGPU code object), that processor
	// ("gfx90a"); both empty where the device runs no native code.
	Native schema.Target
	ISA    string
	Limits Limits
	Facts  map[string]string // further facts by name, in a stable spelling, for display
}

// Limits are the compute limits of a device; zero means absent.
type Limits struct {
	MaxInvocationsPerBlock uint32
	MaxBlockSize           xpu.Dim3
	MaxGroups              uint32 // per dimension: the least of MaxGrid's axes
	// MaxGrid is the groups each axis of a grid holds, where the axes
	// differ (CUDA's X holds 2^31-1, its Y and Z 65,535); zero: MaxGroups
	// on each (Limits.Grid).
	MaxGrid        xpu.Dim3
	MaxSharedBytes uint32
	// MaxRegistersPerBlock is the registers a block's work-items share,
	// where a native tier reports them: a kernel's registers per
	// work-item (its device manifest's) times its block must fit.
	MaxRegistersPerBlock     uint32
	MaxStorageBuffers        uint32 // per kernel
	MaxStorageBufferBytes    uint64
	MaxBufferBytes           uint64
	MaxUniformBytes          uint32
	StorageOffsetAlignment   uint32
	UniformOffsetAlignment   uint32
	SubgroupMin, SubgroupMax uint32
}

// Grid returns the groups each axis of a grid holds: MaxGrid, or
// MaxGroups on each axis where MaxGrid is zero.
func (l Limits) Grid() xpu.Dim3 {
	if l.MaxGrid != (xpu.Dim3{}) {
		return l.MaxGrid
	}
	return xpu.Dim3{X: l.MaxGroups, Y: l.MaxGroups, Z: l.MaxGroups}
}

// Device is an open device of one backend.
type Device interface {
	// Info describes the device.
	Info() Info
	// Artifact returns the artifact of k this device runs, or nil when k
	// carries none for it; Compile compiles that one. A driver answers
	// with [Pick] over its own backend and subgroup facts, unless it
	// chooses otherwise.
	Artifact(k *Kernel) *schema.Artifact
	// Compile prepares k for launching on this device. The runtime calls
	// it at most once per kernel per device and caches the result.
	Compile(k *Kernel) (Program, error)
	// NewBuffer allocates size bytes of device memory, zeroed.
	NewBuffer(size int) (Buffer, error)
	// NewQueue returns a queue of launches.
	NewQueue() (Queue, error)
	// Close releases the device; it is called once, after every queue
	// and buffer has been released. Close of a lost device returns
	// without waiting for the work it still runs, abandoning what that
	// work may still use.
	Close() error
}

// Refuser is a Device that can say why it runs none of a kernel's
// artifacts for its backend: a setting of the device, or a processor
// without the instruction set the code needs. The runtime reports that
// reason where Artifact returns nil, rather than guessing one.
type Refuser interface {
	// Refusal returns why Artifact(k) is nil, naming the kernel; nil when
	// it is not.
	Refusal(k *Kernel) error
}

// Amender is a Device whose compiler knows facts of a kernel's code that
// its generator could not: a native tier's registers and spilled bytes
// per work-item, which the device's driver learns when it compiles the
// code for the device. The runtime calls Amend with p, a kernel compiled
// by this device, and m, its device view of the manifest of the artifact
// p was compiled from (gpu's Device.Manifest); Amend sets those facts in
// m and leaves the rest as generated.
type Amender interface {
	Amend(p Program, m *schema.Manifest)
}

// ConcurrentQueues is implemented by a Device whose queues run the work
// they submitted concurrently with each other's (CUDA and HIP streams),
// so that one queue's Flush orders nothing before another's later work:
// the runtime then orders a launch after another queue's conflicting
// work by waiting for it (Sync). On a device that does not implement it,
// work submitted is run in submission order across its queues (WebGPU's
// one device queue), or a launch has run when Launch returns (the CPU).
type ConcurrentQueues interface {
	ConcurrentQueues()
}

// Program is a kernel compiled for a device.
type Program interface {
	Release()
}

// Buffer is device memory.
type Buffer interface {
	// Size returns the size in bytes.
	Size() int
	// Write copies data to the buffer at offset. It is ordered after every
	// launch already flushed by any queue of the device and before any
	// flushed later. The runtime flushes queues before it writes.
	Write(offset int, data []byte) error
	// Read copies the buffer's bytes at offset into dst, after every
	// launch already flushed has completed, waiting no longer than ctx
	// allows (see Queue.Sync).
	Read(ctx context.Context, offset int, dst []byte) error
	Release()
}

// Queue records launches and submits them in order.
type Queue interface {
	// Launch records a launch of p over groups, with bufs bound in order
	// of the kernel's buffer parameters, followed, for an artifact whose
	// manifest sets Fault, by its fault word, and uniforms holding its scalars
	// (UniformSize bytes). A buffer may be a *View: the driver binds its
	// window of the viewed buffer. A backend may defer it until Flush; bufs and
	// uniforms may be reused by the caller as soon as Launch returns. A
	// backend that runs the launch while it records it (the CPU) stops
	// the run when ctx is done first, at the kernel's next loop
	// iteration or block, and returns an error wrapping ErrTimeout; what
	// the kernel wrote by then stays written. A deferring backend (WebGPU)
	// uses ctx only where recording waits for the device, to bound the
	// work it has submitted.
	Launch(ctx context.Context, p Program, groups xpu.Dim3, bufs []Buffer, uniforms []byte) error
	// Flush submits what was recorded, without waiting for it; a backend
	// that bounds the work it has submitted may wait for earlier work, no
	// longer than ctx allows (as Sync).
	Flush(ctx context.Context) error
	// Sync submits what was recorded and waits for all of it to complete,
	// or until ctx is done: then it returns an error wrapping ErrTimeout
	// (and ctx's error). A device that cannot stop work it has started (a
	// GPU) is lost from then on: the error wraps ErrLost too, and so does
	// every later call on the device but Release and Close.
	Sync(ctx context.Context) error
	Release()
}

// Launch is one launch as [Queue.Launch] takes it, held for replay.
type Launch struct {
	Program  Program
	Groups   xpu.Dim3
	Buffers  []Buffer
	Uniforms []byte
}

// Replayer is a Queue that records a captured launch sequence, replayed
// many times, for less than launch by launch: it resolves once what
// cannot change between replays (a WebGPU queue's pipelines, bind groups
// and uniform slots). The runtime replays through Launch on a queue that
// is not one.
type Replayer interface {
	// Prepare resolves launches, each as Launch would take it, for
	// replay on this queue. The queue keeps the slice: between replays
	// the runtime changes only the Groups, the bytes of the Uniforms and
	// the Buffers of its elements, a buffer only to another *View of the
	// same size in the same allocation; never their programs or
	// lengths. It releases the graph before any of those.
	Prepare(launches []Launch) (Graph, error)
}

// Graph is a launch sequence a Replayer prepared.
type Graph interface {
	// Replay records the sequence on the graph's queue as Launch would
	// record each of its launches in order, with their Groups and
	// Uniforms as they are at the call; ctx bounds a wait as Launch's.
	Replay(ctx context.Context) error
	Release()
}

// ErrTimeout is wrapped by the error of a wait (Sync, Read, or a launch
// that runs as it is recorded) whose context was done, by its deadline or
// by cancellation, before the work it waited for had completed.
var ErrTimeout = errors.New("wait timed out")

// ErrLost is wrapped by the errors of a device that can no longer run
// work: a wait on it timed out with work it cannot stop still running,
// or its driver reported the device lost.
var ErrLost = errors.New("device lost")

// ErrUnavailable is wrapped by an opener's error when its backend has no
// device on this machine (no adapter, no library, no driver).
var ErrUnavailable = errors.New("backend unavailable")

// Opener opens the first device of a backend.
type Opener func() (Device, error)

// HostMemory is implemented by a device whose buffers live in the host's
// memory (the CPU backend), which host code may then read and write in
// place, in stream order, instead of launching a kernel: a provider of
// an operation in Go assembly, say.
type HostMemory interface {
	// HostBytes returns the memory of b (a buffer of the device or a
	// View of one): its bytes, which stay valid until b is released.
	HostBytes(b Buffer) ([]byte, error)
}
