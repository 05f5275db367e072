package emit

// This file completes each artifact's manifest with the facts of the IR
// and writes the kernel's artifacts into its spec.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// Version is the version of the code generator, written into every
// manifest. It changes when the generated code of a kernel may change.
const Version = "xpu-gen/1"

// Complete returns a's manifest completed with what the IR of k, a kernel
// of the package with import path pkg, says of every artifact (its name,
// footprint, buffer access modes, declared wave width and wave use) and
// the hash of a's code; the facts of the code itself (tier, private
// bytes, native operations, fault use) are its lowering's.
func Complete(pkg string, k *ir.Kernel, a *schema.Artifact) schema.Manifest {
	m := a.Manifest
	m.Kernel = pkg + "." + k.Name
	m.Codegen = Version
	m.Hash = hash(a.Code)
	m.Block = xpu.Dim3{X: k.Block[0], Y: k.Block[1], Z: k.Block[2]}
	m.SharedBytes = sharedBytes(k)
	m.UniformBytes = uniformSize(k)
	m.Wave = k.Wave
	m.WaveOps = k.Wave != 0 || ir.UsesWaves(k)
	m.StorageBindings, m.Buffers = 0, nil
	for _, p := range k.Params {
		if p.Kind == ir.BufferParam {
			m.StorageBindings++
			m.Buffers = append(m.Buffers, schema.Usage{Name: p.Name, Access: p.Access, MinLen: p.MinLen})
		}
	}
	m.NativeOps = slices.Clone(m.NativeOps)
	slices.Sort(m.NativeOps)
	return m
}

// hash names code by its SHA-256.
func hash(code string) string {
	sum := sha256.Sum256([]byte(code))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// artifacts writes the Artifacts field of l's spec, and a comment for
// each backend whose lowering refused the kernel.
func (w *writer) artifacts(l *Lowered) error {
	if len(l.Artifacts) > 0 {
		w.printf("Artifacts: []gpuimpl.Artifact{\n")
	}
	for i := range l.Artifacts {
		a := &l.Artifacts[i]
		if a.Code == "" {
			return fmt.Errorf("emit: kernel %s: a %s artifact for %s without code", l.Kernel.Name, a.Target, a.Backend)
		}
		w.printf("{\n")
		w.manifest(Complete(w.pkg, l.Kernel, a))
		if s := a.Selector; s != (schema.Selector{}) {
			w.printf("Selector: gpuimpl.Selector{SubgroupMin: %d, SubgroupMax: %d, Width: %d", s.SubgroupMin, s.SubgroupMax, s.Width)
			if s.ISA != "" {
				w.printf(", ISA: %q", s.ISA)
			}
			w.printf("},\n")
		}
		name := w.names.Code(l.Kernel.Name, a)
		if a.Target.Text() {
			w.printf("Code: %s,\n", name)
		} else {
			w.printf("Entry: %s,\n", name)
		}
		w.printf("},\n")
	}
	if len(l.Artifacts) > 0 {
		w.printf("},\n")
	}
	backends := make([]schema.Backend, 0, len(l.Refused))
	for b := range l.Refused {
		backends = append(backends, b)
	}
	slices.Sort(backends)
	for _, b := range backends {
		w.printf("// %s: none: %s\n", b, oneLine(l.Refused[b]))
	}
	return nil
}

// manifest writes the Manifest field of an artifact.
func (w *writer) manifest(m schema.Manifest) {
	w.printf("Manifest: gpuimpl.Manifest{\n")
	w.printf("Kernel: %q, Backend: %q, Target: %q,\n", m.Kernel, m.Backend, m.Target)
	w.printf("Hash: %q,\n", m.Hash)
	w.printf("Codegen: %q,\n", m.Codegen)
	w.printf("Block: xpu.Dim3{X: %d, Y: %d, Z: %d},\n", m.Block.X, m.Block.Y, m.Block.Z)
	w.printf("SharedBytes: %d, StorageBindings: %d, UniformBytes: %d,\n", m.SharedBytes, m.StorageBindings, m.UniformBytes)
	if m.PrivateBytes != nil {
		w.printf("PrivateBytes: new(%d),\n", *m.PrivateBytes)
	}
	if len(m.Buffers) > 0 {
		w.printf("Buffers: []gpuimpl.Usage{\n")
		for _, u := range m.Buffers {
			w.printf("{Name: %q, Access: gpuimpl.%s", u.Name, accessName(u.Access))
			if u.MinLen != "" {
				w.printf(", MinLen: %q", u.MinLen)
			}
			w.printf("},\n")
		}
		w.printf("},\n")
	}
	if m.Wave != 0 {
		w.printf("Wave: %d,\n", m.Wave)
	}
	switch {
	case m.WaveOps && m.WaveTier != "":
		w.printf("WaveOps: true, WaveTier: %q,\n", m.WaveTier)
	case m.WaveOps:
		w.printf("WaveOps: true,\n")
	}
	if m.Fault {
		w.printf("Fault: true,\n")
	}
	if len(m.NativeOps) > 0 {
		w.printf("NativeOps: []string{")
		for i, op := range m.NativeOps {
			if i > 0 {
				w.printf(", ")
			}
			w.printf("%q", op)
		}
		w.printf("},\n")
	}
	w.printf("},\n")
}

// code writes the code of l's artifacts: a constant per text artifact,
// the declaration of each Go function artifact.
func (w *writer) code(l *Lowered) {
	for i := range l.Artifacts {
		a := &l.Artifacts[i]
		name := w.names.Code(l.Kernel.Name, a)
		if !a.Target.Text() {
			w.printf("\n%s", a.Code)
			continue
		}
		w.printf("\n// %s is the %s code of %s", name, capitals(string(a.Target)), l.Kernel.Name)
		if a.WaveTier != "" {
			w.printf(" at the %s wave tier", a.WaveTier)
		}
		if s := a.Selector; s.SubgroupMin != 0 {
			w.printf(" (subgroups of %d to %d lanes)", s.SubgroupMin, s.SubgroupMax)
		}
		w.printf(".\nconst %s = %s\n", name, stringLit(a.Code))
	}
}
