package gpu

// This file decides whether a kernel can run on a device before any
// launch of it: whether the device's backend has code for it, whether its
// declared wave width and wave tier can run there, and whether its
// footprint fits the device's limits.

import (
	"fmt"
	"slices"

	"github.com/goxpu/xpu/gpu/driver"
)

// fits returns why k cannot run on d, or nil: no code for d's backend, a
// wave width or tier d cannot run, or a footprint beyond d's limits.
func (d *Device) fits(k *Kernel) error {
	if reason := missingCode(d.backend, &k.spec); reason != "" {
		return fmt.Errorf("gpu: kernel %s: no code for the %s backend: %s: %w", k.spec.Name, d.backend, reason, ErrNoCode)
	}
	if _, _, err := d.waveChoice(k); err != nil {
		return err
	}
	return checkLimits(k, d.info.Limits)
}

// missingCode says why spec carries no code for backend, or "". The
// webgpu and cpu backends run the spec's WGSL and CPU fields; another
// backend has code when the spec has no manifests (a hand-written spec,
// left to the driver's Compile) or has one for it.
func missingCode(backend string, spec *KernelSpec) string {
	switch backend {
	case "webgpu":
		if spec.WGSL == "" {
			return "no WGSL"
		}
	case "cpu":
		if spec.CPU == nil {
			return "no CPU lowering"
		}
	default:
		if len(spec.Manifests) > 0 && manifestFor(spec, backend) == nil {
			return "no manifest"
		}
	}
	return ""
}

// manifestFor returns spec's manifest for backend, or nil.
func manifestFor(spec *KernelSpec, backend string) *Manifest {
	i := slices.IndexFunc(spec.Manifests, func(m Manifest) bool { return m.Backend == backend })
	if i < 0 {
		return nil
	}
	return &spec.Manifests[i]
}

// waveTier is the wave tier k runs at on backend for any device: its
// manifest's; emulated where the manifest leaves the tier to a pick among
// wave variants (the emulated variant runs anywhere); for a spec without
// one, emulated on the CPU (the Go lowering runs any width) and native
// elsewhere.
func waveTier(k *Kernel, backend string) string {
	if m := manifestFor(&k.spec, backend); m != nil && m.WaveTier != "" {
		return m.WaveTier
	} else if m != nil && len(m.WaveVariants) > 0 {
		return driver.WaveEmulated
	}
	if backend == "cpu" {
		return driver.WaveEmulated
	}
	return driver.WaveNative
}

// usesWaves reports whether k's body uses wave verbs on backend, as its
// manifest says; a declared width implies it.
func usesWaves(k *Kernel, backend string) bool {
	if m := manifestFor(&k.spec, backend); m != nil && m.WaveOps {
		return true
	}
	return k.spec.Wave != 0
}

// maxWave bounds a declared wave width, as the kernel directive does.
const maxWave = 128

// checkWave returns an ErrScalarTwin or ErrWaveWidth error when k's wave
// verbs cannot run as declared on a device of backend with limits lim.
func checkWave(k *Kernel, backend string, lim Limits) error {
	if !usesWaves(k, backend) {
		return nil
	}
	tier := waveTier(k, backend)
	if tier == driver.WaveScalar {
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
	case tier != driver.WaveNative:
		return nil
	case lim.SubgroupMin == 0 || lim.SubgroupMax == 0:
		return fail("the %s device reports no subgroup sizes", backend)
	case w < lim.SubgroupMin || w > lim.SubgroupMax:
		return fail("the %s device's subgroups are %d to %d wide", backend, lim.SubgroupMin, lim.SubgroupMax)
	}
	return nil
}

// checkAlignment returns an ErrMisaligned error when the buffer st bound
// to p starts at an offset the device cannot bind.
func checkAlignment(k *Kernel, p *Param, st *bufferState, lim Limits) error {
	a := int(lim.StorageOffsetAlignment)
	if a == 0 || st.offset%a == 0 {
		return nil
	}
	return fmt.Errorf("gpu: kernel %s: parameter %s: a view at byte offset %d (element %d), the device binds storage at multiples of %d bytes: %w",
		k.spec.Name, p.Name, st.offset, st.offset/st.elem.size, a, ErrMisaligned)
}

// checkLengths returns an ErrBufferLen error when a buffer holds fewer
// elements than the scalar its parameter's MinLen names. elems(j) is the
// length of the j-th buffer bound, in order of k's buffer parameters.
func checkLengths(k *Kernel, elems func(j int) int, args []any) error {
	j := 0
	for _, p := range k.spec.Params {
		if p.Kind != ParamBuffer {
			continue
		}
		have := elems(j)
		j++
		if p.MinLen == "" {
			continue
		}
		need, ok := scalarArg(k, p.MinLen, args)
		if !ok {
			continue
		}
		if uint64(have) < need {
			return fmt.Errorf("gpu: kernel %s: parameter %s: a buffer of %d elements, the kernel needs %s = %d: %w",
				k.spec.Name, p.Name, have, p.MinLen, need, ErrBufferLen)
		}
	}
	return nil
}

// scalarArg returns the value of the integer scalar parameter name among
// args, which bind already checked; ok is false when there is none or it
// is negative.
func scalarArg(k *Kernel, name string, args []any) (uint64, bool) {
	i := slices.IndexFunc(k.spec.Params, func(p Param) bool { return p.Name == name && p.Kind == ParamScalar })
	if i < 0 {
		return 0, false
	}
	switch v := args[i].(type) {
	case uint32:
		return uint64(v), true
	case int32:
		return uint64(max(v, 0)), v >= 0
	}
	return 0, false
}
