package emit

// This file computes the manifest of each kernel's code per backend and
// writes it into the kernel's spec.

import (
	"crypto/sha256"
	"encoding/hex"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
)

// Version is the version of the code generator, written into every
// manifest. It changes when the generated code of a kernel may change.
const Version = "xpu-gen/1"

// Wave tiers, as the runtime spells them.
const (
	waveEmulated = "emulated"
)

// Manifest is what the generated file says of one kernel's code for one
// backend; the runtime's gpu.Manifest has the same fields. Pointers and
// slices are nil where the target cannot report the fact.
type Manifest struct {
	Kernel, Backend, Target, Hash, Codegen string

	Block           [3]uint32
	SharedBytes     int
	StorageBindings int
	UniformBytes    int
	PrivateBytes    *int
	Buffers         []Usage

	Wave         uint32
	WaveOps      bool
	WaveTier     string
	WaveVariants []ManifestVariant

	NativeOps []string
}

// ManifestVariant is one wave variant of a kernel's WGSL as its manifest
// lists it (see gpu.ManifestVariant).
type ManifestVariant struct {
	Tier                     string
	SubgroupMin, SubgroupMax uint32
	Width                    uint32
	Hash                     string
}

// Usage is one buffer parameter's access mode and length bound.
type Usage struct {
	Name   string
	Access ir.Access
	MinLen string
}

// Manifests returns the manifests of l, a kernel of the package with
// import path pkg: one for the webgpu backend (its WGSL) and one for the
// cpu backend when the Go lowering carried it. A webgpu manifest of a
// kernel with wave variants leaves WaveTier empty, since a device picks
// the tier at run time, and lists the variants with their hashes; its
// Hash names the main WGSL (the emulated variant).
func Manifests(pkg string, l *Lowered) []Manifest {
	k := l.Kernel
	base := Manifest{
		Kernel:      pkg + "." + k.Name,
		Codegen:     Version,
		Block:       k.Block,
		SharedBytes: sharedBytes(k),
		Wave:        k.Wave,
		WaveOps:     usesWaves(k),
	}
	base.UniformBytes = uniformSize(k)
	for _, p := range k.Params {
		if p.Kind == ir.BufferParam {
			base.StorageBindings++
			base.Buffers = append(base.Buffers, Usage{Name: p.Name, Access: p.Access, MinLen: p.MinLen})
		}
	}
	var ms []Manifest
	if l.WGSL != "" {
		m := base
		m.Backend, m.Target, m.Hash = "webgpu", "wgsl", hash(l.WGSL)
		m.PrivateBytes = new(privateBytes(k))
		m.NativeOps = wgslOps(l.WGSL)
		if m.WaveOps && len(l.WaveVariants) == 0 {
			m.WaveTier = waveEmulated
		}
		for _, v := range l.WaveVariants {
			m.WaveVariants = append(m.WaveVariants, ManifestVariant{
				Tier: v.Tier, SubgroupMin: v.SubgroupMin, SubgroupMax: v.SubgroupMax, Width: v.Width, Hash: hash(v.WGSL),
			})
		}
		ms = append(ms, m)
	}
	if l.CPU != "" {
		m := base
		m.Backend, m.Target, m.Hash = "cpu", "go", hash(l.CPU)
		m.NativeOps = goOps(l.CPU)
		if m.WaveOps {
			m.WaveTier = waveEmulated
		}
		ms = append(ms, m)
	}
	return ms
}

// hash names device code by its SHA-256.
func hash(code string) string {
	sum := sha256.Sum256([]byte(code))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// usesWaves reports whether k or a function it calls uses a wave verb
// or queries the wave.
func usesWaves(k *ir.Kernel) bool {
	found := false
	visit := func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.CallBuiltin:
			found = x.Fn == ir.WaveWidth || x.Fn == ir.LaneIndex
		case *ir.Wave:
			found = true
		}
		return !found
	}
	eachExpr(k, visit)
	return found || k.Wave != 0
}

// privateBytes is the memory one work-item declares: the variables of
// the kernel's body and of the functions it calls, and their parameters.
func privateBytes(k *ir.Kernel) int {
	n := declBytes(k.Body)
	for _, f := range k.Funcs {
		n += declBytes(f.Body)
		for _, p := range f.Params {
			n += p.Type.Size()
		}
	}
	return n
}

func declBytes(b *ir.Block) int {
	n := 0
	ir.WalkStmts(b, func(s ir.Stmt) bool {
		if d, ok := s.(*ir.Decl); ok {
			n += d.Var.Type.Size()
		}
		return true
	})
	return n
}

// eachExpr calls fn on every expression of k's body and functions.
func eachExpr(k *ir.Kernel, fn func(ir.Expr) bool) {
	blocks := []*ir.Block{k.Body}
	for _, f := range k.Funcs {
		blocks = append(blocks, f.Body)
	}
	for _, b := range blocks {
		ir.WalkStmts(b, func(s ir.Stmt) bool {
			for _, x := range stmtExprs(s) {
				ir.WalkExpr(x, fn)
			}
			return true
		})
	}
}

// stmtExprs returns the expressions s holds directly.
func stmtExprs(s ir.Stmt) []ir.Expr {
	switch s := s.(type) {
	case *ir.Decl:
		return []ir.Expr{s.Init}
	case *ir.Assign:
		return []ir.Expr{s.Dst, s.Value}
	case *ir.If:
		return []ir.Expr{s.Cond}
	case *ir.Loop:
		return []ir.Expr{s.Cond}
	case *ir.Return:
		return []ir.Expr{s.Value}
	case *ir.ExprStmt:
		return []ir.Expr{s.X}
	}
	return nil
}

// wgslTypes are WGSL's type constructors, which a call of looks like a
// function call but is no operation of the target.
var wgslTypes = []string{"bool", "i32", "u32", "f32", "f16", "vec2", "vec3", "vec4", "array", "mat2x2", "mat3x3", "mat4x4"}

// wgslKeywords may stand before a parenthesis without being a call.
var wgslKeywords = []string{"if", "else", "for", "while", "loop", "return", "switch", "case", "let", "var"}

// wgslOps returns the builtin functions a WGSL module calls, sorted: every
// called name that the module does not declare as a function or struct
// and that is no type constructor.
func wgslOps(src string) []string {
	toks := wgslTokens(src)
	declared := map[string]bool{}
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] == "fn" || toks[i] == "struct" {
			declared[toks[i+1]] = true
		}
	}
	var ops []string
	for i := 0; i+1 < len(toks); i++ {
		name := toks[i]
		if !isIdentStart(name[0]) || declared[name] || slices.Contains(wgslTypes, name) || slices.Contains(wgslKeywords, name) || (i > 0 && (toks[i-1] == "fn" || toks[i-1] == "@")) {
			continue
		}
		j := i + 1
		if name == "bitcast" && toks[j] == "<" { // bitcast<f32>(...)
			for j < len(toks) && toks[j] != ">" {
				j++
			}
			j++
		}
		if j < len(toks) && toks[j] == "(" && !slices.Contains(ops, name) {
			ops = append(ops, name)
		}
	}
	slices.Sort(ops)
	return ops
}

// wgslTokens splits WGSL into identifiers and single punctuation
// characters, dropping comments and white space.
func wgslTokens(src string) []string {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case isIdentStart(c):
			j := i
			for j < len(src) && (isIdentStart(src[j]) || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			toks = append(toks, src[i:j])
			i = j
		default:
			toks = append(toks, src[i:i+1])
			i++
		}
	}
	return toks
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// goPlumbing are the runtime's calls that bind a CPU lowering to its
// block, which are no operations of the kernel.
var goPlumbing = []string{"gpu.CPUView", "gpu.CPUUniform"}

// goPackages are the packages whose functions a Go lowering may call.
var goPackages = []string{"xpu", "gpu", "math", "bits", "atomic"}

// goOps returns the package-qualified functions the Go lowering calls,
// sorted (xpu.AtomicAdd, xpu.Sqrt, ...), leaving out the binding plumbing.
func goOps(src string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var ops []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fun := call.Fun
		switch x := fun.(type) {
		case *ast.IndexExpr:
			fun = x.X
		case *ast.IndexListExpr:
			fun = x.X
		}
		sel, ok := fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || !slices.Contains(goPackages, pkg.Name) {
			return true
		}
		name := pkg.Name + "." + sel.Sel.Name
		if !slices.Contains(goPlumbing, name) && !slices.Contains(ops, name) {
			ops = append(ops, name)
		}
		return true
	})
	slices.Sort(ops)
	return ops
}

// manifests writes the Manifests field of l's spec.
func (w *writer) manifests(l *Lowered) {
	ms := Manifests(w.pkg, l)
	if len(ms) == 0 {
		return
	}
	w.printf("Manifests: []gpu.Manifest{\n")
	for _, m := range ms {
		w.printf("{\n")
		w.printf("Kernel: %q, Backend: %q, Target: %q,\n", m.Kernel, m.Backend, m.Target)
		w.printf("Hash: %q,\n", m.Hash)
		w.printf("Codegen: %q,\n", m.Codegen)
		w.printf("Block: xpu.Dim3{X: %d, Y: %d, Z: %d},\n", m.Block[0], m.Block[1], m.Block[2])
		w.printf("SharedBytes: %d, StorageBindings: %d, UniformBytes: %d,\n", m.SharedBytes, m.StorageBindings, m.UniformBytes)
		if m.PrivateBytes != nil {
			w.printf("PrivateBytes: new(%d),\n", *m.PrivateBytes)
		}
		if len(m.Buffers) > 0 {
			w.printf("Buffers: []gpu.Usage{\n")
			for _, u := range m.Buffers {
				w.printf("{Name: %q, Access: gpu.%s", u.Name, accessName(u.Access))
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
		if len(m.WaveVariants) > 0 {
			w.printf("WaveVariants: []gpu.ManifestVariant{\n")
			for _, v := range m.WaveVariants {
				w.printf("{Tier: %q, SubgroupMin: %d, SubgroupMax: %d, Width: %d, Hash: %q},\n", v.Tier, v.SubgroupMin, v.SubgroupMax, v.Width, v.Hash)
			}
			w.printf("},\n")
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
	w.printf("},\n")
}
