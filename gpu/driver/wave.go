package driver

// This file defines the wave variants of a kernel's WGSL: the code
// generator writes one per wave tier the kernel may need, and the runtime
// picks among them by the device's subgroup size, without codegen.

// WaveVariant is a kernel's WGSL at one wave tier, for the devices whose
// subgroup size lies in [SubgroupMin, SubgroupMax]. The emulated variant
// has both zero: it runs on any device, subgroups or not.
type WaveVariant struct {
	Tier                     string // WaveNative, WaveFolded, WaveNarrow or WaveEmulated
	SubgroupMin, SubgroupMax uint32
	// Width is the wave width the variant runs at; 0 means the device's
	// subgroup size (a width-agnostic kernel at the native tier).
	Width uint32
	WGSL  string
}

// The tiers of a declared wave width W on a device with subgroups of S
// lanes, beside WaveNative (S = W) and WaveEmulated (no subgroups).
const (
	// WaveFolded: S < W; a wave spans W/S subgroups.
	WaveFolded = "folded"
	// WaveNarrow: S > W; a subgroup holds S/W waves.
	WaveNarrow = "narrow"
)

// PickWave returns the variant of k a device runs: for a device with
// subgroups (subgroups true and sizes min..max reported), the first
// variant whose range holds them; otherwise, or when none does, the
// emulated one. ok is false when k has no variant the device can run.
func PickWave(k *Kernel, subgroups bool, min, max uint32) (v WaveVariant, ok bool) {
	if subgroups && min > 0 {
		for _, v := range k.WaveVariants {
			if v.SubgroupMin != 0 && v.SubgroupMin <= min && max <= v.SubgroupMax {
				return v, true
			}
		}
	}
	for _, v := range k.WaveVariants {
		if v.SubgroupMin == 0 {
			return v, true
		}
	}
	return WaveVariant{}, false
}
