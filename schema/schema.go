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

// The targets. TargetLLVMHost, TargetPTX and TargetHSACO are reserved for
// the native tiers; no lowering produces them yet.
const (
	TargetWGSL     Target = "wgsl"      // a WGSL module, entry point "main"
	TargetGo       Target = "go"        // a Go block function (Artifact.Entry)
	TargetLLVMHost Target = "llvm-host" // host machine code through LLVM
	TargetPTX      Target = "ptx"       // NVIDIA PTX
	TargetHSACO    Target = "hsaco"     // an AMD code object
)

// Text reports whether an artifact of t carries its code as text
// (Artifact.Code) rather than as a Go function (Artifact.Entry).
func (t Target) Text() bool { return t != TargetGo }

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
