package schema

// This file defines a kernel as generated code registers it, and the one
// place its kernel-level facts enter its artifacts' manifests.

import (
	"slices"

	"github.com/goxpu/xpu"
)

// Kernel is the compiled form of one kernel, as generated code registers
// it (gpu/gpuimpl.KernelSpec) and the drivers read it (gpu/driver.Kernel).
// It states each fact of the kernel once; each artifact's manifest, as
// written, holds only what differs from artifact to artifact, and
// [Kernel.CompleteManifests] fills in the rest. It is immutable once
// registered.
type Kernel struct {
	Name    string   // "importpath.Name", e.g. "github.com/goxpu/xpu/kernels/conformance.Saxpy"
	Codegen string   // the version of the code generator that wrote it; "" for a spec written by hand
	Block   xpu.Dim3 // the pinned block size
	Wave    uint32   // declared wave width; 0 for a width-agnostic kernel
	WaveOps bool     // the body uses wave verbs or queries (Manifest.WaveOps)
	Params  []Param  // the parameters after the Thread, in Go order (no comptime struct)

	// SharedBytes is the workgroup (shared) memory the kernel declares, in
	// bytes; 0 when it declares none. A launch is refused when it exceeds
	// the device's Limits.MaxSharedBytes.
	SharedBytes int

	// UniformSize is the size in bytes of the uniform block that holds the
	// scalar parameters (a multiple of 16; 0 when there are none).
	UniformSize int

	// Artifacts are the kernel's code: for each backend, one artifact per
	// target and selector (a WGSL module per wave tier, the Go lowering),
	// each with its manifest. A driver runs the one its Device.Artifact
	// picks; a backend with none for a kernel refuses it.
	Artifacts []Artifact

	// Func is the kernel's Go function, which the reference runner runs
	// (gpu.Kernel.Reference); Comptime is a template member's comptime
	// value, passed to Func as its comptime parameter (gpu.Kernel.Comptime
	// returns it). Both are nil for a spec written by hand; a refused
	// member has its Comptime and no Func.
	Func     any
	Comptime any

	// Bind, when not nil, binds Func to a call's arguments (in Func's
	// order after the Thread, the comptime value included) as a function
	// of the Thread alone, which the reference runner calls without
	// reflection; it returns nil for arguments Func does not take, which
	// then run, and are refused, through reflection. Generated code sets
	// it for a kernel of at most MaxBind parameters after the Thread.
	Bind func(args []any) func(xpu.Thread)

	// Refused, when not empty, says why this kernel has no code (a
	// template member whose requires clause failed, a lowering that cannot
	// carry it); a launch reports it with the name.
	Refused string
}

// MaxBind is the most parameters after the Thread a kernel's Bind is
// generated for: gpu/gpuimpl has a binder for each count up to it.
const MaxBind = 16

// CompleteManifests fills into the manifest of each of k's artifacts the
// facts of the kernel: its name, the generator's version, its block,
// shared and uniform bytes, its buffers and their use, its declared wave
// width and its wave use. The runtime calls it on the copy of a spec it
// registers, the code generator on the spec it writes, for its report; so
// the manifests a program reads and those the generator prints are the
// same.
func (k *Kernel) CompleteManifests() {
	for i := range k.Artifacts {
		m := &k.Artifacts[i].Manifest
		m.Kernel = k.Name
		m.Codegen = k.Codegen
		m.Block = k.Block
		m.SharedBytes = k.SharedBytes
		m.UniformBytes = k.UniformSize + m.WordBytes()
		m.Wave = k.Wave
		m.WaveOps = k.WaveOps
		m.StorageBindings, m.Buffers = 0, nil
		for _, p := range k.Params {
			if p.Kind == ParamBuffer {
				m.StorageBindings++
				m.Buffers = append(m.Buffers, Usage{Name: p.Name, Access: p.Access, MinLen: slices.Clone(p.MinLen)})
			}
		}
	}
}
