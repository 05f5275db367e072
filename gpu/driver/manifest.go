package driver

// This file defines the manifest: what generated code says of a kernel's
// code for one backend.

import "github.com/goxpu/xpu"

// Manifest describes the code a kernel carries for one backend: its
// identity, its footprint, how it uses each buffer, its wave width and
// tier, and the native operations its body lowered to. Generated code
// writes one per (kernel, backend) into Kernel.Manifests.
//
// A field the code generator cannot know for a target is absent: a nil
// pointer or an empty slice, never a zero that reads as a measurement.
type Manifest struct {
	Kernel  string // "importpath.Name", as Kernel.Name
	Backend string // the backend that runs this code: "webgpu", "cpu", ...
	Target  string // the code's form: "wgsl", "go", "ptx", "hsaco"
	Hash    string // "sha256:" and the hex digest of the device code
	Codegen string // the version of the code generator that wrote it

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
	// WaveTier is "native", "emulated" or "scalar"; "" when WaveOps is
	// false, or when the tier is chosen at run time among WaveVariants.
	WaveTier string
	// WaveWidth is the wave width the code runs at on one device: set in
	// a device's view of the manifest (gpu's Device.Manifest), 0 in the
	// generated one, which holds for any device.
	WaveWidth uint32
	// WaveVariants, for WGSL that a device picks among by its subgroup
	// size (Kernel.WaveVariants), describe each variant, Hash included;
	// WaveTier is then "" and Hash names the emulated variant's code. A
	// device's view leaves them out: it names the one variant it runs.
	WaveVariants []ManifestVariant

	// NativeOps are the target's operations the body lowered to, sorted:
	// WGSL builtins and atomics for "wgsl", the qualified library calls
	// of the Go lowering for "go".
	NativeOps []string
}

// ManifestVariant describes one wave variant of a kernel's WGSL (see
// WaveVariant): its tier, the subgroup sizes it is for (0 and 0 for the
// emulated one, which runs anywhere), its width (0: the device's subgroup
// size) and the hash of its code.
type ManifestVariant struct {
	Tier                     string
	SubgroupMin, SubgroupMax uint32
	Width                    uint32
	Hash                     string
}

// Usage is how a kernel uses one buffer parameter, inferred from its body.
type Usage struct {
	Name   string
	Access Access
	// MinLen, when not empty, names the scalar parameter whose value is
	// the fewest elements the buffer must hold.
	MinLen string
}

// Wave tiers: how a kernel's wave verbs run on a backend.
const (
	// WaveNative: on the device's own subgroups.
	WaveNative = "native"
	// WaveEmulated: through shared memory or the CPU lowering's loops, at
	// the width the kernel declares or the device's lane width.
	WaveEmulated = "emulated"
	// WaveScalar: the scalar twin, with a wave of one work-item; a launch
	// of it is refused.
	WaveScalar = "scalar"
)
