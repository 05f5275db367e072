package gpu

// This file gives read access to the manifests of the artifacts generated
// code registers with each kernel.

import (
	"slices"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// Manifest returns the kernel's manifest for backend, as generated: the
// device-independent view, that of the artifact that runs on any device
// of the backend (for a wave kernel, its emulated tier). [Kernel.Manifests]
// lists every artifact's; [Device.Manifest] gives the view of one device.
func (k *Kernel) Manifest(backend schema.Backend) (*schema.Manifest, bool) {
	if k == nil {
		return nil, false
	}
	a := driver.Pick(&k.spec, backend, 0, 0)
	if a == nil {
		return nil, false
	}
	c := cloneManifest(a.Manifest)
	return &c, true
}

// Manifests returns a copy of the manifest of every artifact of the
// kernel, in the order generated code lists them.
func (k *Kernel) Manifests() []schema.Manifest {
	if k == nil {
		return nil
	}
	ms := make([]schema.Manifest, len(k.spec.Artifacts))
	for i, a := range k.spec.Artifacts {
		ms[i] = cloneManifest(a.Manifest)
	}
	return ms
}

// cloneArtifacts copies arts deeply enough that the copy's manifests are
// its own.
func cloneArtifacts(arts []schema.Artifact) []schema.Artifact {
	arts = slices.Clone(arts)
	for i := range arts {
		arts[i].Manifest = cloneManifest(arts[i].Manifest)
	}
	return arts
}

// cloneManifest copies m deeply enough that the copy's slices and
// pointers are its own.
func cloneManifest(m schema.Manifest) schema.Manifest {
	m.Buffers = slices.Clone(m.Buffers)
	for i := range m.Buffers {
		m.Buffers[i].MinLen = slices.Clone(m.Buffers[i].MinLen)
	}
	m.NativeOps = slices.Clone(m.NativeOps)
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
