package gpu

// This file gives a device's view of a kernel's manifest: the code that
// device runs, where the generated manifest holds for any device.

import (
	"crypto/sha256"
	"encoding/hex"
)

// Manifest returns the manifest of the code d runs for k: the generated
// manifest for d's backend (see [Kernel.Manifest]) with WaveTier and
// WaveWidth set to the tier and width [Device.KernelWave] reports, and,
// where d picks the kernel's WGSL among wave variants, Hash naming the
// variant d picks and WaveVariants left out. ok is false when k is nil,
// has no manifest for d's backend, or d cannot run its waves (KernelWave
// says why).
func (d *Device) Manifest(k *Kernel) (m *Manifest, ok bool) {
	if d.usable("Device.Manifest") != nil || k == nil {
		return nil, false
	}
	gen := manifestFor(&k.spec, d.backend)
	if gen == nil {
		return nil, false
	}
	c, v, err := d.waveChoice(k)
	if err != nil {
		return nil, false
	}
	dm := cloneManifest(*gen)
	if c.Tier != "" {
		dm.WaveTier, dm.WaveWidth = c.Tier, c.Width
	}
	if v != nil {
		dm.Hash = variantHash(gen, v)
		dm.WaveVariants = nil
	}
	return &dm, true
}

// variantHash returns the hash the manifest m lists for variant v, or,
// for a manifest that lists none, the hash of v's WGSL as the generator
// spells it.
func variantHash(m *Manifest, v *WaveVariant) string {
	for _, mv := range m.WaveVariants {
		if mv.Tier == v.Tier && mv.SubgroupMin == v.SubgroupMin && mv.SubgroupMax == v.SubgroupMax && mv.Width == v.Width {
			return mv.Hash
		}
	}
	sum := sha256.Sum256([]byte(v.WGSL))
	return "sha256:" + hex.EncodeToString(sum[:])
}
