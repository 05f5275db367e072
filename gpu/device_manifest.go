package gpu

// This file gives a device's view of a kernel's manifest: that of the
// artifact the device runs, where the generated manifests hold for any
// device of their selector.

import "github.com/goxpu/xpu/schema"

// Manifest returns the manifest of the artifact d runs for k, with
// WaveTier and WaveWidth set to the tier and width [Device.KernelWave]
// reports. ok is false when k is nil, has no artifact for d, or d cannot
// run its waves (KernelWave says why).
func (d *Device) Manifest(k *Kernel) (m *schema.Manifest, ok bool) {
	if d.usable("Device.Manifest") != nil || k == nil {
		return nil, false
	}
	a, err := d.artifact(k)
	if err != nil {
		return nil, false
	}
	c, err := d.waveChoice(k, a)
	if err != nil {
		return nil, false
	}
	dm := cloneManifest(a.Manifest)
	if c.Tier != "" {
		dm.WaveTier, dm.WaveWidth = c.Tier, c.Width
	}
	return &dm, true
}
