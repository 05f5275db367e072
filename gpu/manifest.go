package gpu

// This file gives read access to the manifests generated code registers
// with each kernel.

import (
	"slices"

	"github.com/goxpu/xpu/gpu/driver"
)

type (
	// Manifest describes a kernel's code for one backend: identity,
	// footprint, buffer access modes, wave width and tier, native
	// operations. A field its generator cannot know is absent (a nil
	// pointer, an empty slice), never zero.
	Manifest = driver.Manifest
	// Usage is how a kernel uses one buffer parameter.
	Usage = driver.Usage
	// ManifestVariant describes one wave variant of a kernel's WGSL.
	ManifestVariant = driver.ManifestVariant
)

// Wave tiers of a manifest.
const (
	WaveNative   = driver.WaveNative
	WaveEmulated = driver.WaveEmulated
	WaveScalar   = driver.WaveScalar
	WaveFolded   = driver.WaveFolded
	WaveNarrow   = driver.WaveNarrow
)

// Manifest returns the kernel's manifest for backend ("webgpu", "cpu",
// ...), as generated: the device-independent view. Where a device picks
// the kernel's WGSL among wave variants by its subgroup size, WaveTier is
// "" and WaveVariants lists each variant with its hash;
// [Device.Manifest] gives the view of one device.
func (k *Kernel) Manifest(backend string) (*Manifest, bool) {
	if k == nil {
		return nil, false
	}
	m := manifestFor(&k.spec, backend)
	if m == nil {
		return nil, false
	}
	c := cloneManifest(*m)
	return &c, true
}

// Manifests returns a copy of every manifest of the kernel, one per
// backend that has code for it.
func (k *Kernel) Manifests() []Manifest {
	if k == nil {
		return nil
	}
	ms := make([]Manifest, len(k.spec.Manifests))
	for i, m := range k.spec.Manifests {
		ms[i] = cloneManifest(m)
	}
	return ms
}

// cloneManifest copies m deeply enough that the copy's slices and
// pointers are its own.
func cloneManifest(m Manifest) Manifest {
	m.Buffers = slices.Clone(m.Buffers)
	m.NativeOps = slices.Clone(m.NativeOps)
	m.WaveVariants = slices.Clone(m.WaveVariants)
	m.PrivateBytes = cloneInt(m.PrivateBytes)
	m.Registers = cloneInt(m.Registers)
	m.SpillBytes = cloneInt(m.SpillBytes)
	return m
}

func cloneInt(p *int) *int {
	if p == nil {
		return nil
	}
	return new(*p)
}
