package schema

// This file defines an artifact: one piece of code a kernel carries for
// one backend, with what a driver needs to choose it.

// Artifact is a kernel's code for one backend in one target, for the
// devices its Selector admits, described by its manifest. A kernel
// carries a list of them; a driver picks the one it runs.
type Artifact struct {
	Manifest // Backend, Target, the hash and the facts of the code
	Selector Selector

	// Code is the code of a text target (Target.Text): a WGSL module with
	// entry point "main", whose buffers are bound in @group(0) at
	// @binding(i) in order of their parameters, the uniform block, when
	// the kernel has one, at the binding after the last buffer, and the
	// fault word (Manifest.Fault) after that.
	Code string
	// For a native target (TargetLLVMHost, TargetPTX, TargetHSACO), Code
	// is the bytes of a shared object or code module that holds the
	// entries of every kernel of the package built for the same selector,
	// and Symbol names this kernel's entry in it (for the host,
	// HostSymbol). Artifacts of one package and selector share one Code.
	Symbol string
	// Entry is the code of TargetGo: the kernel's Go block function, a
	// gpu/driver.CPUFunc, which the CPU driver asserts.
	Entry any
}

// Selector says which devices of its backend an artifact is for.
type Selector struct {
	// SubgroupMin and SubgroupMax bound the subgroup sizes of the devices
	// the artifact is for; both zero: any device, subgroups or not.
	SubgroupMin, SubgroupMax uint32
	// Width is the wave width the code runs at; 0 means the kernel's
	// declared width or, for a width-agnostic kernel, the device's
	// subgroup size.
	Width uint32
	// ISA, for a native target, names the instruction set level the code
	// needs ("sm_80", "gfx90a", "x86-64-v3"); "" for any. The driver of
	// the backend decides whether its device has it.
	ISA string
}

// Any reports whether s admits every device of its backend.
func (s Selector) Any() bool { return s.SubgroupMin == 0 && s.ISA == "" }

// Holds reports whether s admits a device whose subgroups are min to max
// lanes wide (both zero: no subgroups). An artifact for any device holds
// every device; one for a range of sizes, the devices whose sizes all lie
// in it.
func (s Selector) Holds(min, max uint32) bool {
	if s.ISA != "" {
		return false
	}
	return s.SubgroupMin == 0 || min > 0 && s.SubgroupMin <= min && max <= s.SubgroupMax
}
