package gpu

// This file picks how a kernel's wave verbs run on a device: the tier and
// the wave width, from the variants the kernel registered and the
// device's subgroup facts. The runtime knows no codegen: it chooses among
// registered code by data.

import (
	"fmt"

	"github.com/goxpu/xpu/gpu/driver"
)

// WaveVariant is a kernel's WGSL at one wave tier (see driver.WaveVariant).
type WaveVariant = driver.WaveVariant

// WaveChoice is how a kernel's waves run on a device.
type WaveChoice struct {
	// Tier is WaveNative, WaveFolded, WaveNarrow or WaveEmulated; "" for
	// a kernel that uses no wave verb or query.
	Tier string
	// Width is the wave width: WaveWidth() of every work-item.
	Width uint32
}

// subgroupSizes returns whether d has subgroups, and their sizes.
func (d *Device) subgroupSizes() (bool, uint32, uint32) {
	lim := d.info.Limits
	return d.info.Subgroups && lim.SubgroupMin > 0, lim.SubgroupMin, lim.SubgroupMax
}

// waveChoice returns how k's waves run on d and, on the webgpu backend,
// the variant whose WGSL the driver compiles (nil: the spec's WGSL).
func (d *Device) waveChoice(k *Kernel) (WaveChoice, *WaveVariant, error) {
	if !usesWaves(k, d.backend) {
		return WaveChoice{}, nil, nil
	}
	if err := checkWave(k, d.backend, d.info.Limits); err != nil {
		return WaveChoice{}, nil, err
	}
	if d.backend == "webgpu" && len(k.spec.WaveVariants) > 0 {
		sub, lo, hi := d.subgroupSizes()
		v, ok := driver.PickWave(&k.spec, sub, lo, hi)
		if !ok {
			return WaveChoice{}, nil, fmt.Errorf("gpu: kernel %s: wave=%d: no variant for subgroups of %d to %d lanes: %w",
				k.spec.Name, k.spec.Wave, lo, hi, ErrWaveWidth)
		}
		w := v.Width
		if w == 0 {
			w = hi
		}
		return WaveChoice{Tier: v.Tier, Width: w}, &v, nil
	}
	w := k.spec.Wave
	if w == 0 {
		w = d.info.Limits.SubgroupMax
	}
	return WaveChoice{Tier: waveTier(k, d.backend), Width: w}, nil, nil
}

// compiledSpec returns the spec the driver compiles for k on d: k's own,
// or a copy carrying the WGSL of the wave variant d runs.
func (d *Device) compiledSpec(k *Kernel) (*KernelSpec, error) {
	_, v, err := d.waveChoice(k)
	if err != nil || v == nil {
		return &k.spec, err
	}
	spec := k.spec
	spec.WGSL = v.WGSL
	return &spec, nil
}
