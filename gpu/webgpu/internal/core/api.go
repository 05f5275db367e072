package core

// This file defines the API: what a driver implements on its binding of
// WebGPU for the core to drive.

import (
	"context"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// API is one binding of WebGPU on an open device. Its methods are safe
// for concurrent use; a binding whose library wants its calls serialized
// serializes them itself. Its errors need no prefix: the core adds the
// driver's name and what was being done.
type API interface {
	// CreateBuffer makes a buffer of size bytes (a multiple of 4), zeroed.
	CreateBuffer(usage Usage, size int) (Buffer, error)
	// CreatePipeline compiles wgsl, whose entry point is "main", into a
	// compute pipeline whose one bind group has the layout given, entry
	// i at binding i. label names the kernel.
	CreatePipeline(label, wgsl string, layout []Binding) (Pipeline, error)
	// CreateBindGroup makes a bind group of p's layout with entries,
	// entry i at binding i.
	CreateBindGroup(p Pipeline, entries []Entry) (BindGroup, error)
	// BeginPass opens a command encoder and a compute pass in it.
	BeginPass() (Pass, error)
	// WriteBuffer writes data (a multiple of 4 bytes) at offset through
	// the queue: after every submitted pass, before every later one.
	WriteBuffer(b Buffer, offset int, data []byte) error
	// ReadBuffer copies n bytes (a multiple of 4) of src at offset into
	// staging, a map-read buffer of at least n bytes, waits for it after
	// every submitted pass, and copies the first len(dst) into dst. It
	// returns the errors the device reported meanwhile. A wait that ctx
	// ends returns an error wrapping driver.ErrTimeout.
	ReadBuffer(ctx context.Context, src Buffer, offset int, staging Buffer, n int, dst []byte) error
	// Wait blocks until every submitted pass has completed, or until ctx
	// is done: then it returns an error wrapping driver.ErrTimeout and
	// ctx's error.
	Wait(ctx context.Context) error
	// Errors returns and forgets the errors the device reported
	// asynchronously since the last call, and its loss, which it keeps.
	Errors() error
	// Close releases the device; the core has released all it made.
	Close() error
	// Abandon gives the device up without waiting for it, instead of
	// Close, once a wait has timed out: the work still running may use
	// the device's objects, so they are left to the process.
	Abandon()
}

// Usage is a set of WebGPU buffer usage flags, with WebGPU's values.
type Usage uint64

// The buffer usages the drivers ask for.
const (
	UsageMapRead      Usage = 0x1
	UsageCopySrc      Usage = 0x4
	UsageCopyDst      Usage = 0x8
	UsageUniform      Usage = 0x40
	UsageStorage      Usage = 0x80
	UsageQueryResolve Usage = 0x200
)

// Buffer is a binding's buffer.
type Buffer interface {
	// Release frees it: a binding that cannot free memory an encoded
	// command still uses keeps it until that command has run.
	Release()
}

// Pipeline is a binding's compute pipeline with its layouts and module.
type Pipeline interface{ Release() }

// BindGroup is a binding's bind group.
type BindGroup interface{ Release() }

// Pass is an open command encoder with one compute pass in it. The core
// calls a pass's methods from one goroutine at a time.
type Pass interface {
	SetPipeline(p Pipeline)
	// SetBindGroup sets group 0, with the dynamic offsets given.
	SetBindGroup(g BindGroup, offsets []uint32)
	Dispatch(x, y, z uint32)
	// Finish ends the pass and finishes the encoder into commands. The
	// pass is done with, even when Finish fails.
	Finish() (Commands, error)
}

// Commands are a finished command buffer: submitted once, or released
// unsubmitted.
type Commands interface {
	// Submit writes uniforms at the start of ring when there are any,
	// and submits the commands. They are done with, even when Submit
	// fails.
	Submit(ring Buffer, uniforms []byte) error
	// Release drops the commands unsubmitted.
	Release()
}

// BindingType is the type of a buffer binding in a layout.
type BindingType int

const (
	BindingStorage         BindingType = iota // read-write storage
	BindingReadOnlyStorage                    // read-only storage
	BindingUniform                            // a uniform block at a dynamic offset
)

// Binding is one entry of a bind group layout, visible to compute.
type Binding struct {
	Type BindingType
	// MinSize is the uniform block's size; 0 for storage.
	MinSize int
}

// Entry is one entry of a bind group.
type Entry struct {
	Buffer Buffer
	// Offset is the byte offset of the bound range: 0, or a multiple of
	// the device's storage offset alignment.
	Offset int
	// Size is the bytes bound; 0 binds the whole buffer from Offset.
	Size int
}

// Layout returns the bind group layout of k, from its parameters and
// never from its shader, so that a binding the shader leaves unused
// stays bound: its buffers in order, then the uniform block of its code
// a when it has one (scalars or launch words), then, when a records
// faults, the fault word.
func Layout(k *driver.Kernel, a *schema.Artifact) []Binding {
	var l []Binding
	for _, prm := range k.Params {
		if prm.Kind != schema.ParamBuffer {
			continue
		}
		typ := BindingStorage
		if prm.Access == schema.AccessRead || prm.Access == schema.AccessNone {
			typ = BindingReadOnlyStorage
		}
		l = append(l, Binding{Type: typ})
	}
	if n := k.UniformSize + a.WordBytes(); n > 0 {
		l = append(l, Binding{Type: BindingUniform, MinSize: n})
	}
	if a.Fault {
		// The fault word: last, so that the buffer parameters and the
		// uniform block keep their bindings.
		l = append(l, Binding{Type: BindingStorage})
	}
	return l
}
