package emit

// This file chooses the package-level names of the generated file. A
// kernel's handle and launcher are its API, named after the kernel: a name
// the package declares already, or that another kernel's API takes,
// refuses the generation by name (RuleGeneratedName). The file's other
// names (the WGSL constants, the CPU functions, the import names of xpu
// and gpu) are its own business: each is chosen free of every name of the
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

	"github.com/goxpu/xpu/codegen/ir"
)

// RuleGeneratedName names the refusal of a package that declares a name
// the generated file must declare (a kernel's handle or launcher) or use
// (a name Go predeclares, a struct type that a local of the file would
// hide).
const RuleGeneratedName = "xpu-generated-name"

// ErrGeneratedName is wrapped by every [NameError].
var ErrGeneratedName = errors.New("a name the generated file needs is taken")

// NameError is a name the generated file needs that is taken: declared
// by the package at Pos, or by another kernel's API.
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
	XPU, GPU string // the import names of packages xpu and gpu
	stems    map[string]string
}

// CPU returns the name of the CPU block function of kernel.
func (n *Names) CPU(kernel string) string { return n.stems[kernel] + "CPU" }

// wgsl returns the name of kernel's WGSL constant.
func (n *Names) wgsl(kernel string) string { return n.stems[kernel] + "WGSL" }

// variant returns the name of the constant of kernel's WGSL at a wave
// tier.
func (n *Names) variant(kernel, tier string) string { return variantName(n.wgsl(kernel), tier) }

// variantName is the name of the constant of a wave tier's WGSL, after
// the constant of the kernel's WGSL.
func variantName(wgsl, tier string) string {
	if tier == "" {
		return wgsl
	}
	return wgsl + strings.ToUpper(tier[:1]) + tier[1:]
}

// Plan chooses the names of the generated file of m, whose kernels
// lowered as ks (their WGSL and wave variants; the CPU code comes after,
// named by [Names.CPU]). The names depend only on the names of m's
// kernels, their wave tiers and m.Scope. The error lists every name the
// package takes that the file needs, each a [NameError].
func Plan(m *ir.Module, ks []Lowered) (*Names, error) {
	taken := map[string]bool{}
	var errs []*NameError
	for name, pos := range m.Scope {
		if pos.File == FileName {
			continue // the file being replaced
		}
		taken[name] = true
	}
	api := map[string]string{} // handle and launcher names, to what they name
	claim := func(name, what, kernel string, pos ir.Pos) {
		need := fmt.Sprintf("the %s of the kernel %s (%v)", what, kernel, pos)
		switch {
		case api[name] != "":
			errs = append(errs, &NameError{Pos: pos, Name: name, Need: need + " and " + api[name],
				Fix: "rename one of the kernels"})
		case taken[name]:
			errs = append(errs, &NameError{Pos: m.Scope[name], Name: name, Need: need,
				Fix: fmt.Sprintf("rename this declaration or the kernel (the generated file declares %s and %s for a kernel K)",
					handleName("K"), launcherName("K"))})
		}
		api[name] = need
		taken[name] = true
	}
	byName := slices.Clone(ks)
	slices.SortFunc(byName, func(a, b Lowered) int { return cmp.Compare(a.Kernel.Name, b.Kernel.Name) })
	refused := slices.Clone(m.Refused)
	slices.SortFunc(refused, func(a, b *ir.Refusal) int { return cmp.Compare(a.Name, b.Name) })
	for _, l := range byName {
		claim(handleName(l.Kernel.Name), "handle", l.Kernel.Name, l.Kernel.Pos)
		claim(launcherName(l.Kernel.Name), "launcher", l.Kernel.Name, l.Kernel.Pos)
	}
	for _, r := range refused {
		claim(handleName(r.Name), "handle", r.Name, r.Pos)
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
	n.XPU, n.GPU = pick("xpu", one), pick("gpu", one)
	for _, l := range byName {
		n.stems[l.Kernel.Name] = pick(lowerFirst(l.Kernel.Name), func(stem string) []string {
			names := []string{stem + "CPU", stem + "WGSL"}
			for _, v := range l.WaveVariants {
				names = append(names, variantName(stem+"WGSL", v.Tier))
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
		return pos, ok && pos.File != FileName
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
