package gpu

// This file says how a kernel's wave verbs run on a device: the tier and
// the wave width of the artifact the device's driver picks. The runtime
// knows no codegen: it reads the facts the artifact's manifest states.

import (
	"fmt"

	"github.com/goxpu/xpu/schema"
)

// WaveChoice is how a kernel's waves run on a device.
type WaveChoice struct {
	// Tier is the wave tier of the code the device runs; "" for a kernel
	// that uses no wave verb or query.
	Tier schema.Tier
	// Width is the wave width: WaveWidth() of every work-item.
	Width uint32
}

// waveChoice returns how the waves of k's artifact a run on d.
func (d *Device) waveChoice(k *Kernel, a *schema.Artifact) (WaveChoice, error) {
	if !usesWaves(k, a) {
		return WaveChoice{}, nil
	}
	if err := checkWave(k, a, d.backend, d.info.Limits); err != nil {
		return WaveChoice{}, err
	}
	w := a.Selector.Width
	if w == 0 {
		w = k.spec.Wave
	}
	if w == 0 {
		w = d.info.Limits.SubgroupMax
	}
	return WaveChoice{Tier: waveTier(a), Width: w}, nil
}

// waveTier is the wave tier of a: its manifest's; native for a
// hand-written artifact that names none, which runs its waves as written.
func waveTier(a *schema.Artifact) schema.Tier {
	if a.WaveTier != "" {
		return a.WaveTier
	}
	return schema.TierNative
}

// usesWaves reports whether k's artifact a uses wave verbs, as its
// manifest says; a declared width implies it.
func usesWaves(k *Kernel, a *schema.Artifact) bool {
	return a.WaveOps || k.spec.Wave != 0
}

// maxWave bounds a declared wave width, as the kernel directive does.
const maxWave = 128

// checkWave returns an ErrScalarTwin or ErrWaveWidth error when the wave
// verbs of k's artifact a cannot run as declared on a device of backend
// with limits lim.
func checkWave(k *Kernel, a *schema.Artifact, backend schema.Backend, lim Limits) error {
	if !usesWaves(k, a) {
		return nil
	}
	tier := waveTier(a)
	if tier == schema.TierScalar {
		return fmt.Errorf("gpu: kernel %s: its %s code is the scalar twin of a wave kernel: %w", k.spec.Name, backend, ErrScalarTwin)
	}
	w := k.spec.Wave
	if w == 0 {
		return nil
	}
	fail := func(why string, args ...any) error {
		return fmt.Errorf("gpu: kernel %s: wave=%d: %s: %w", k.spec.Name, w, fmt.Sprintf(why, args...), ErrWaveWidth)
	}
	switch {
	case w&(w-1) != 0 || w > maxWave:
		return fail("not a power of two up to %d", maxWave)
	case uint64(w) > k.spec.Block.Norm().Count():
		return fail("wider than the block of %d work-items", k.spec.Block.Norm().Count())
	case tier != schema.TierNative || a.Selector.SubgroupMin != 0:
		return nil // emulated, or picked for the device's subgroup sizes
	case lim.SubgroupMin == 0 || lim.SubgroupMax == 0:
		return fail("the %s device reports no subgroup sizes", backend)
	case w < lim.SubgroupMin || w > lim.SubgroupMax:
		return fail("the %s device's subgroups are %d to %d wide", backend, lim.SubgroupMin, lim.SubgroupMax)
	}
	return nil
}
