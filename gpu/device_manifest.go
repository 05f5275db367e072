package gpu

// This file gives a device's view of a kernel's manifest: that of the
// artifact the device runs, where the generated manifests hold for any
// device of their selector.

import (
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// Manifest returns the manifest of the artifact d runs for k, with
// WaveTier and WaveWidth set to the tier and width [Device.KernelWave]
// reports, and, on a device whose driver learns them when it compiles
// (CUDA's registers and spills), the facts of the compiled code: there
// Manifest compiles k, as its first launch would. ok is false when k is nil, has no artifact for d, or d cannot
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
	if am, ok := d.drv.(driver.Amender); ok {
		d.amend(am, k, &dm)
	}
	return &dm, true
}

// amend has the driver complete m with the facts of k compiled for d; m
// stays as generated where k does not compile (its launch reports why)
// or d is closed.
func (d *Device) amend(am driver.Amender, k *Kernel, m *schema.Manifest) {
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return
	}
	if p, err := d.program(k); err == nil {
		am.Amend(p, m)
	}
}
