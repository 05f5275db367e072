package emit

// This file builds a kernel's spec from its IR and its artifacts, and
// writes the artifacts into it.

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// Version is the version of the code generator, written into every spec
// and so into every manifest. It changes when the generated code of a
// kernel may change.
const Version = "xpu-gen/1"

// Spec returns the spec the generated file registers for l, a kernel of
// the package with import path pkg, less the Go values it names (Func,
// Comptime and each Go function artifact's Entry): what the IR says of
// the kernel (its name, block, parameters, footprint, declared wave width,
// wave use) stated once, and its artifacts, each with the hash of its code
// and its sorted native operations in its manifest, beside the facts its
// lowering reported (tier, private bytes, fault use). The
// kernel's facts enter the manifests through
// [schema.Kernel.CompleteManifests], as at registration.
func Spec(pkg string, l *Lowered) (*schema.Kernel, error) {
	k := l.Kernel
	s := &schema.Kernel{
		Name:        pkg + "." + k.Name,
		Codegen:     Version,
		Block:       xpu.Dim3{X: k.Block[0], Y: k.Block[1], Z: k.Block[2]},
		Wave:        k.Wave,
		SharedBytes: sharedBytes(k),
		UniformSize: ir.UniformSize(k),
		WaveOps:     k.Wave != 0 || ir.UsesWaves(k),
	}
	for _, p := range k.Params {
		if p.Type == nil {
			return nil, fmt.Errorf("emit: kernel %s: parameter %s has no type", k.Name, p.Name)
		}
		sp := schema.Param{Name: p.Name, Kind: schema.ParamScalar, Type: typeName(pkg, p.Type), Size: p.Type.Size(), Binding: p.Binding}
		if p.Kind == ir.BufferParam {
			sp.Kind, sp.Access, sp.MinLen = schema.ParamBuffer, p.Access, p.MinLen
		}
		s.Params = append(s.Params, sp)
	}
	for _, a := range l.Artifacts {
		if a.Code == "" {
			return nil, fmt.Errorf("emit: kernel %s: a %s artifact for %s without code", k.Name, a.Target, a.Backend)
		}
		a.Hash = hash(a.Code)
		if !s.WaveOps {
			a.WaveTier = "" // as Manifest.WaveTier says
		}
		a.NativeOps = slices.Clone(a.NativeOps)
		slices.Sort(a.NativeOps)
		s.Artifacts = append(s.Artifacts, a)
	}
	return s, nil
}

// typeName names t as reflect does: a struct of the kernel package by
// the package's import path pkg and its name, another type as Go spells
// it.
func typeName(pkg string, t ir.Type) schema.TypeName {
	if s, ok := t.(*ir.Struct); ok {
		return schema.TypeName{Pkg: pkg, Name: localName(s.Name)}
	}
	if b, ok := t.(*ir.Basic); ok && b.Named != "" {
		i := strings.LastIndexByte(b.Named, '.')
		return schema.TypeName{Pkg: b.Named[:i], Name: b.Named[i+1:]}
	}
	return schema.TypeName{Name: t.String()}
}

// hash names code by its SHA-256.
func hash(code string) string {
	sum := sha256.Sum256([]byte(code))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// artifacts writes the Artifacts field of l's spec, whose artifacts as
// Spec built them are arts, and a comment for each backend whose
// lowering refused the kernel.
func (w *writer) artifacts(l *Lowered, arts []schema.Artifact) {
	if len(arts) > 0 {
		w.printf("Artifacts: []gpuimpl.Artifact{\n")
	}
	for i := range arts {
		a := &arts[i]
		w.printf("{\n")
		w.manifest(a.Manifest)
		if s := a.Selector; s != (schema.Selector{}) {
			w.printf("Selector: gpuimpl.Selector{SubgroupMin: %d, SubgroupMax: %d, Width: %d", s.SubgroupMin, s.SubgroupMax, s.Width)
			if s.ISA != "" {
				w.printf(", ISA: %q", s.ISA)
			}
			w.printf("},\n")
		}
		switch {
		case a.Target.Native():
			w.printf("Code: %s,\nSymbol: %q,\n", w.names.library(libraryOf(a)), a.Symbol)
		case a.Target.Text():
			w.printf("Code: %s,\n", w.names.Code(l.Kernel.Name, a))
		default:
			w.printf("Entry: %s,\n", w.names.Code(l.Kernel.Name, a))
		}
		w.printf("},\n")
	}
	if len(arts) > 0 {
		w.printf("},\n")
	}
	forms := slices.SortedFunc(maps.Keys(l.Refused), func(a, b Form) int {
		return cmp.Or(cmp.Compare(a.Backend, b.Backend), cmp.Compare(a.Target, b.Target))
	})
	for _, f := range forms {
		some := "none"
		if slices.ContainsFunc(arts, func(a schema.Artifact) bool { return a.Backend == f.Backend && a.Target == f.Target }) {
			some = "not all" // a machine's refusal beside the others' code
		}
		w.printf("// %s, %s: %s: %s\n", f.Backend, f.Target, some, oneLine(l.Refused[f]))
	}
}

// manifest writes the Manifest field of an artifact: only the facts of
// its code, on one line where it has no more than its identity; those of
// the kernel are the spec's.
func (w *writer) manifest(m schema.Manifest) {
	var more []string
	if m.PrivateBytes != nil {
		more = append(more, fmt.Sprintf("PrivateBytes: new(%d),", *m.PrivateBytes))
	}
	if m.Registers != nil {
		more = append(more, fmt.Sprintf("Registers: new(%d),", *m.Registers))
	}
	if m.SpillBytes != nil {
		more = append(more, fmt.Sprintf("SpillBytes: new(%d),", *m.SpillBytes))
	}
	if m.WaveTier != "" {
		more = append(more, fmt.Sprintf("WaveTier: %q,", m.WaveTier))
	}
	if m.Fault {
		more = append(more, "Fault: true,")
	}
	if len(m.Words) > 0 {
		more = append(more, "Words: "+w.qual.Replace(words(m.Words))+",")
	}
	if len(m.NativeOps) > 0 {
		ops := make([]string, len(m.NativeOps))
		for i, op := range m.NativeOps {
			ops[i] = strconv.Quote(op)
		}
		more = append(more, "NativeOps: []string{"+strings.Join(ops, ", ")+"},")
	}
	w.printf("Manifest: gpuimpl.Manifest{Backend: %q, Target: %q, Hash: %q", m.Backend, m.Target, m.Hash)
	if len(more) == 0 {
		w.printf("},\n")
		return
	}
	w.printf(",\n%s\n},\n", strings.Join(more, "\n"))
}

// words spells the launch words ws in generated code, with the
// qualifier gpuimpl. for the writer to respell: the grid words as
// gpuimpl.GridWords, which most WGSL code reads alone.
func words(ws []schema.Word) string {
	if slices.Equal(ws, schema.GridWords) {
		return "gpuimpl.GridWords"
	}
	var b strings.Builder
	b.WriteString("[]gpuimpl.Word{")
	for i, x := range ws {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "{Kind: gpuimpl.%s", wordKindName[x.Kind])
		if x.Kind == schema.WordLen {
			fmt.Fprintf(&b, ", Param: %d", x.Param)
		}
		b.WriteString("}")
	}
	b.WriteString("}")
	return b.String()
}

// wordKindName is the gpuimpl constant of each launch word kind.
var wordKindName = [...]string{
	schema.WordGroupsX: "WordGroupsX",
	schema.WordGroupsY: "WordGroupsY",
	schema.WordGroupsZ: "WordGroupsZ",
	schema.WordFolded:  "WordFolded",
	schema.WordLen:     "WordLen",
}

// code writes the code of l's artifacts: a constant per text artifact,
// the declaration of each Go function artifact.
func (w *writer) code(l *Lowered) {
	for i := range l.Artifacts {
		a := &l.Artifacts[i]
		if a.Target.Native() {
			continue // in the package's library (library.go)
		}
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
