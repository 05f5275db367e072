// Package schema defines, once, the data that code generation hands the
// runtime: the names of backends and targets, wave tiers, buffer access
// modes, a kernel's parameters, the kernel's spec as generated code
// registers it, and the artifacts a kernel carries with their manifests.
// The code generator writes these values into generated files; the
// runtime and its drivers read them.
//
// Layering: a leaf. It imports only the standard library and package xpu;
// it knows neither codegen nor the runtime, which both import it.
package schema

// Backend names a family of devices the runtime opens through one driver
// contract.
type Backend string

// The backends.
const (
	BackendWebGPU Backend = "webgpu"
	BackendCPU    Backend = "cpu"
	BackendCUDA   Backend = "cuda"
	BackendHIP    Backend = "hip"
)

// Target names the form of an artifact's code.
type Target string

// The targets. TargetPTX and TargetHSACO are the GPU native tiers; no
// lowering produces them yet. The CUDA driver runs TargetPTX by the
// calling contract of ptx.go, the HIP driver TargetHSACO by that of
// hsaco.go.
const (
	TargetWGSL     Target = "wgsl"      // a WGSL module, entry point "main"
	TargetGo       Target = "go"        // a Go block function (Artifact.Entry)
	TargetLLVMHost Target = "llvm-host" // a shared object of host machine code, built through LLVM
	TargetPTX      Target = "ptx"       // NVIDIA PTX
	TargetHSACO    Target = "hsaco"     // an AMD code object
)

// Text reports whether an artifact of t carries its code in
// Artifact.Code (text, or a native target's object) rather than as a Go
// function (Artifact.Entry).
func (t Target) Text() bool { return t != TargetGo }

// Native reports whether an artifact of t is machine code, or code the
// device's driver finishes, built for the kernels of a whole package at
// once: its Code is that object, shared by the package's artifacts of one
// selector, and its Symbol names the kernel's entry in it.
func (t Target) Native() bool {
	return t == TargetLLVMHost || t == TargetPTX || t == TargetHSACO
}

// Tier is how a kernel's wave verbs run in one artifact.
type Tier string

// The wave tiers, for a declared wave width W on a device whose
// subgroups are S lanes wide.
const (
	// TierNative: on the device's own subgroups (S = W, or a
	// width-agnostic kernel, whose W is S).
	TierNative Tier = "native"
	// TierFolded: S < W; a wave spans W/S subgroups.
	TierFolded Tier = "folded"
	// TierNarrow: S > W; a subgroup holds S/W waves.
	TierNarrow Tier = "narrow"
	// TierEmulated: through shared memory or the Go lowering's loops, at
	// the width the kernel declares or the device's lane width; it runs
	// on any device.
	TierEmulated Tier = "emulated"
	// TierScalar: the scalar twin, with a wave of one work-item; a launch
	// of it is refused.
	TierScalar Tier = "scalar"
)
