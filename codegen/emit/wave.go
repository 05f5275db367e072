package emit

// This file writes a kernel's wave variants: its WGSL at each wave tier,
// which the runtime picks among by the device's subgroup size.

// WaveVariant is a kernel's WGSL at one wave tier, as the WGSL lowering
// made it (see gpu.WaveVariant).
type WaveVariant struct {
	Tier                     string
	SubgroupMin, SubgroupMax uint32
	Width                    uint32
	WGSL                     string
	Fault                    bool // the WGSL declares the fault word
}

// waveVariants writes the spec's WaveVariants field; a variant whose WGSL
// is the kernel's main WGSL refers to that constant.
func (w *writer) waveVariants(l *Lowered) {
	if len(l.WaveVariants) == 0 {
		return
	}
	w.printf("WaveVariants: []gpu.WaveVariant{\n")
	for _, v := range l.WaveVariants {
		name := w.names.variant(l.Kernel.Name, v.Tier)
		if v.WGSL == l.WGSL {
			name = w.names.wgsl(l.Kernel.Name)
		}
		w.printf("{Tier: %q, SubgroupMin: %d, SubgroupMax: %d, Width: %d, WGSL: %s},\n", v.Tier, v.SubgroupMin, v.SubgroupMax, v.Width, name)
	}
	w.printf("},\n")
}

// waveVariantConsts writes the WGSL of the variants that differ from the
// kernel's main WGSL.
func (w *writer) waveVariantConsts(l *Lowered) {
	for _, v := range l.WaveVariants {
		if v.WGSL == l.WGSL {
			continue
		}
		name := w.names.variant(l.Kernel.Name, v.Tier)
		w.printf("\n// %s is the WGSL of %s at the %s wave tier (subgroups of %d to %d lanes).\n", name, l.Kernel.Name, v.Tier, v.SubgroupMin, v.SubgroupMax)
		w.printf("const %s = %s\n", name, stringLit(v.WGSL))
	}
}
