package emit

// This file chooses the package-level names of the generated file. A
// kernel's handle and launcher, and a template's handle and launcher, are their API,
// named after the kernel or the template: a name the package declares
// already, or that another's API takes, refuses the generation by name
// (RuleGeneratedName). The file's other
// names (the constants of text artifacts, the Go functions, the import
// names of xpu, gpu and gpuimpl) are its own business: each is chosen free of every name of the
// package and of the file.

import (
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// RuleGeneratedName names the refusal of a package that declares a name
// the generated file must declare (a kernel's or a template's handle or
// launcher) or use (a name Go predeclares, a struct type that a
// local of the file would hide).
const RuleGeneratedName = "xpu-generated-name"

// ErrGeneratedName is wrapped by every [NameError].
var ErrGeneratedName = errors.New("a name the generated file needs is taken")

// NameError is a name the generated file needs that is taken: declared
// by the package at Pos, or by another kernel's or template's API.
type NameError struct {
	Pos  ir.Pos // the declaration that takes the name
	Name string
	Need string // what the generated file needs the name for
	Fix  string
}

func (e *NameError) Error() string {
	return fmt.Sprintf("%v: [%s] %s is %s; %s", e.Pos, RuleGeneratedName, e.Name, e.Need, e.Fix)
}

func (e *NameError) Unwrap() error { return ErrGeneratedName }

// Names are the package-level names of one module's generated file.
type Names struct {
	XPU, GPU, GPUImpl string // the import names of packages xpu, gpu and gpu/gpuimpl
	stems             map[string]string
	libs              map[libraryKey]string // the variables that embed the native libraries
	pick              func(want string) string
}

// Form is the backend and target of a kind of artifact: the generated
// file names the code of each after them.
type Form struct {
	Backend schema.Backend
	Target  schema.Target
}

// Code returns the name of the declaration that holds the code of
// kernel's artifact a: for a text target, a constant named after the
// kernel, the target and the wave tier (saxpyWGSL, reduceWaveWGSLNative);
// for a Go function, the function, named after the kernel and the
// backend (saxpyCPU).
func (n *Names) Code(kernel string, a *schema.Artifact) string {
	return codeName(n.stems[kernel], Form{a.Backend, a.Target}, a.WaveTier)
}

// codeName is the name of the code of an artifact of form f at tier after
// the stem of its kernel.
func codeName(stem string, f Form, tier schema.Tier) string {
	if !f.Target.Text() {
		return stem + capitals(string(f.Backend))
	}
	name := stem + capitals(string(f.Target))
	if tier != "" {
		name += strings.ToUpper(string(tier[:1])) + string(tier[1:])
	}
	return name
}

// capitals spells s in capitals, without what is no letter or digit:
// "wgsl" is WGSL, "llvm-host" LLVMHOST.
func capitals(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToUpper(r)
		}
		return -1
	}, strings.ToUpper(s))
}

// tiers are the wave tiers an artifact's name may carry; "" for a kernel
// without waves.
var tiers = []schema.Tier{"", schema.TierNative, schema.TierFolded, schema.TierNarrow, schema.TierEmulated, schema.TierScalar}

// forms returns the forms of the artifacts of ks, in order of first use.
func forms(ks []Lowered) []Form {
	var fs []Form
	for _, l := range ks {
		for _, a := range l.Artifacts {
			if f := (Form{a.Backend, a.Target}); !slices.Contains(fs, f) {
				fs = append(fs, f)
			}
		}
	}
	return fs
}

// Plan chooses the names of the generated file of m, whose kernels carry
// artifacts of the forms fs. The names depend only on the names of m's
// kernels, fs and m.Scope. The error lists every name the package takes
// that the file needs, each a [NameError].
func Plan(m *ir.Module, fs []Form) (*Names, error) {
	taken := map[string]bool{}
	var errs []*NameError
	for name, pos := range m.Scope {
		if IsGeneratedFile(pos.File) {
			continue // the files being replaced
		}
		taken[name] = true
	}
	type claimant struct{ need, kind string }
	api := map[string]claimant{} // handle and launcher names, to what they name
	// claim takes name for the API of owner, a kernel or a template.
	claim := func(name, what, kind, owner string, pos ir.Pos) {
		need := fmt.Sprintf("the %s of the %s %s (%v)", what, kind, owner, pos)
		switch prev, ok := api[name]; {
		case ok:
			fix := "rename one of the " + kind + "s"
			if prev.kind != kind {
				fix = "rename the kernel or the template"
			}
			errs = append(errs, &NameError{Pos: pos, Name: name, Need: need + " and " + prev.need, Fix: fix})
		case taken[name]:
			errs = append(errs, &NameError{Pos: m.Scope[name], Name: name, Need: need,
				Fix: fmt.Sprintf("rename this declaration or the %s (the generated file declares %s and %s for a kernel K, %s for a template %s)",
					kind, handleName("K"), launcherName("K"), templateName("T")+" and "+launcherName("T"), "T")})
		}
		api[name] = claimant{need, kind}
		taken[name] = true
	}
	byName := slices.Clone(m.Kernels)
	slices.SortFunc(byName, func(a, b *ir.Kernel) int { return cmp.Compare(a.Name, b.Name) })
	refused := slices.Clone(m.Refused)
	slices.SortFunc(refused, func(a, b *ir.Refusal) int { return cmp.Compare(a.Name, b.Name) })
	for _, k := range byName {
		claim(handleName(k.Name), "handle", "kernel", k.Name, k.Pos)
		claim(launcherName(k.Name), "launcher", "kernel", k.Name, k.Pos)
	}
	for _, r := range refused {
		claim(handleName(r.Name), "handle", "kernel", r.Name, r.Pos)
	}
	for _, t := range sortedTemplates(m) {
		claim(templateName(t.Name), "handle", "template", t.Name, t.Pos)
		if hasCode(m, t) {
			claim(launcherName(t.Name), "launcher", "template", t.Name, t.Pos)
		}
	}
	if len(errs) > 0 {
		return nil, joinByPos(errs)
	}
	n := &Names{stems: map[string]string{}}
	free := func(names ...string) bool {
		return !slices.ContainsFunc(names, func(s string) bool { return taken[s] })
	}
	take := func(names ...string) {
		for _, s := range names {
			taken[s] = true
		}
	}
	pick := func(want string, names func(string) []string) string {
		name := want
		for i := 2; !free(names(name)...); i++ {
			name = fmt.Sprintf("%s_%d", want, i)
		}
		take(names(name)...)
		return name
	}
	one := func(s string) []string { return []string{s} }
	n.XPU, n.GPU, n.GPUImpl = pick("xpu", one), pick("gpu", one), pick("gpuimpl", one)
	n.pick = func(want string) string { return pick(want, one) }
	for _, k := range byName {
		n.stems[k.Name] = pick(lowerFirst(k.Name), func(stem string) []string {
			var names []string
			for _, f := range fs {
				for _, t := range tiers {
					if name := codeName(stem, f, t); !slices.Contains(names, name) {
						names = append(names, name)
					}
				}
			}
			return names
		})
	}
	return n, nil
}

// checkNames refuses the generated file src of m when a name it refers
// to at package level means something else there: a name Go predeclares
// that the package declares anew, or a struct type of the package that a
// local of the file hides.
func checkNames(src []byte, m *ir.Module) error {
	f, err := parser.ParseFile(token.NewFileSet(), FileName, src, parser.SkipObjectResolution)
	if err != nil {
		return fmt.Errorf("emit: parsing the generated file: %w", err)
	}
	outer := map[string]bool{} // the struct types the file refers to
	for _, k := range m.Kernels {
		for _, s := range k.Structs {
			outer[localName(s.Name)] = true
		}
	}
	user := func(name string) (ir.Pos, bool) {
		pos, ok := m.Scope[name]
		return pos, ok && !IsGeneratedFile(pos.File)
	}
	var errs []*NameError
	seen := map[string]bool{}
	refuse := func(e *NameError) {
		if !seen[e.Name] {
			seen[e.Name] = true
			errs = append(errs, e)
		}
	}
	local := func(id *ast.Ident) {
		if pos, ok := user(id.Name); ok && outer[id.Name] {
			refuse(&NameError{Pos: pos, Name: id.Name, Need: "a struct type of the kernels and the name of a local of their CPU code",
				Fix: "rename this declaration"})
		}
	}
	var visit func(x ast.Node) bool
	visit = func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(x.X, visit) // x.Sel names a field or a package member
			return false
		case *ast.KeyValueExpr:
			if _, field := x.Key.(*ast.Ident); field {
				ast.Inspect(x.Value, visit)
				return false
			}
		case *ast.Ident:
			if types.Universe.Lookup(x.Name) != nil {
				if pos, ok := user(x.Name); ok {
					refuse(&NameError{Pos: pos, Name: x.Name, Need: "predeclared by Go, and the generated file uses it as Go's own",
						Fix: "rename this declaration"})
				}
			}
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				for _, e := range x.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						local(id)
					}
				}
			}
		case *ast.RangeStmt:
			if x.Tok == token.DEFINE {
				for _, e := range []ast.Expr{x.Key, x.Value} {
					if id, ok := e.(*ast.Ident); ok {
						local(id)
					}
				}
			}
		case *ast.FuncType:
			for _, l := range []*ast.FieldList{x.Params, x.Results} {
				if l != nil {
					for _, fd := range l.List {
						for _, id := range fd.Names {
							local(id)
						}
					}
				}
			}
		case *ast.DeclStmt:
			if g, ok := x.Decl.(*ast.GenDecl); ok {
				for _, sp := range g.Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							local(id)
						}
					case *ast.TypeSpec:
						local(sp.Name)
					}
				}
			}
		}
		return true
	}
	ast.Inspect(f, visit)
	return joinByPos(errs)
}

// joinByPos joins errs in the order of their positions.
func joinByPos(errs []*NameError) error {
	slices.SortFunc(errs, func(a, b *NameError) int {
		return cmp.Or(cmp.Compare(a.Pos.File, b.Pos.File), cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col), cmp.Compare(a.Name, b.Name))
	})
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return errors.Join(out...)
}
