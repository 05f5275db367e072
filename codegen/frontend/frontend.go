// Package frontend is the codegen front end of xpu: it finds the kernels
// of a type-checked Go package (functions whose doc comment carries an
// //xpu:kernel directive), checks that they and the device functions they
// call stay inside the kernel language, instantiates templates, and
// produces the typed, structured IR of package ir.
//
// Layering: the front end knows go/ast, go/types and the IR; it knows no
// output language. Every construct outside the kernel language is refused
// with an [Error] naming its [Rule]; the front end never panics on valid
// Go input and never produces IR for a package it refused.
package frontend

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/goxpu/xpu/codegen/ir"
)

// xpuPath is the import path of the kernel vocabulary.
const xpuPath = "github.com/goxpu/xpu"

// Generated describes the files that the generator writes into the
// package being loaded.
type Generated struct {
	// Files are the generated files' names. Load reads the package as if
	// each held only its package clause: the generator never reads its
	// own previous output, and the names the files declare stay out of
	// the module's Scope.
	Files []string
	// Declares returns the names the files declare for a module, which
	// the package's own code may use before the file exists (may be nil).
	Declares func(*ir.Module) []string
}

// Load loads the Go package in dir, type-checks it and calls [Check].
//
// A package whose code uses what its generated file declares (launchers,
// kernel handles) does not type-check before that file exists. Load
// tolerates exactly those type errors: an error inside a generated file,
// and an "undefined: X" error where X is among the names gen.Declares
// returns for the module found. Every other error fails the load. Kernels
// never depend on generated code, so their types are whole.
func Load(dir string, gen Generated) (*ir.Module, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo,
		Dir: dir,
	}
	for _, name := range gen.Files {
		if err := emptied(cfg, filepath.Join(dir, name)); err != nil {
			return nil, fmt.Errorf("frontend: %w", err)
		}
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, fmt.Errorf("frontend: loading %s: %w", dir, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("frontend: %s holds %d packages, want 1", dir, len(pkgs))
	}
	p := pkgs[0]
	for _, e := range p.Errors {
		// go list reports the compiler's errors on the package itself as
		// one list error headed "# <path>"; go/types reports each of them
		// again as a type error, judged below.
		compiled := strings.HasPrefix(e.Msg, "# "+p.PkgPath+"\n")
		if e.Kind != packages.TypeError && !compiled {
			return nil, fmt.Errorf("frontend: %s: %w", dir, e)
		}
	}
	m, err := Check(p.Fset, p.Syntax, p.Types, p.TypesInfo)
	if err != nil {
		return nil, err
	}
	if errs := unresolved(p, m, gen.Declares); len(errs) > 0 {
		return nil, fmt.Errorf("frontend: %s does not type-check: %w", dir, errors.Join(errs...))
	}
	if err := testScope(dir, m); err != nil {
		return nil, err
	}
	return m, nil
}

// testScope adds to m.Scope the package-level names of the package's
// own test files (package m.Name, not m.Name_test), which share its
// scope when its tests build.
func testScope(dir string, m *ir.Module) error {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return fmt.Errorf("frontend: %w", err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil || f.Name.Name != m.Name {
			// A test file that does not parse fails its own build.
			continue
		}
		add := func(id *ast.Ident) {
			if _, ok := m.Scope[id.Name]; !ok && id.Name != "_" {
				q := fset.Position(id.Pos())
				m.Scope[id.Name] = ir.Pos{File: filepath.Base(q.Filename), Line: q.Line, Col: q.Column}
			}
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name != "init" {
					add(d.Name)
				}
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.ValueSpec:
						for _, id := range sp.Names {
							add(id)
						}
					case *ast.TypeSpec:
						add(sp.Name)
					}
				}
			}
		}
	}
	return nil
}

// emptied adds to cfg's overlay the existing file path emptied down to
// its header and package clause; nothing when there is no such file, or
// when its package clause does not parse (the load then reports it).
func emptied(cfg *packages.Config, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	f, err := parser.ParseFile(token.NewFileSet(), abs, nil, parser.PackageClauseOnly)
	if errors.Is(err, fs.ErrNotExist) || f == nil || f.Name == nil {
		return nil
	}
	if cfg.Overlay == nil {
		cfg.Overlay = map[string][]byte{}
	}
	cfg.Overlay[abs] = fmt.Appendf(nil, "// Code generated by the previous run; emptied for this one. DO NOT EDIT.\n\npackage %s\n", f.Name.Name)
	return nil
}

// TypeCheck type-checks the Go package in dir as if its files named by
// files held their contents, and returns the errors found in those files
// (those of the package's other files are their own business). The
// generator checks its files so before it writes them: a generated file
// that does not build is a bug of the generator, reported instead of
// written.
func TypeCheck(dir string, files map[string][]byte) error {
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedTypes,
		Dir:     dir,
		Overlay: map[string][]byte{},
	}
	for name, src := range files {
		abs, err := filepath.Abs(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("frontend: %w", err)
		}
		cfg.Overlay[abs] = src
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return fmt.Errorf("frontend: loading %s: %w", dir, err)
	}
	var errs []error
	for _, p := range pkgs {
		for _, e := range p.Errors {
			at, _, _ := strings.Cut(e.Pos, ":")
			listed := e.Pos == "" && !strings.HasPrefix(e.Msg, "# ") // not the compiler's errors again
			if _, ours := cfg.Overlay[at]; ours || listed {
				errs = append(errs, e)
			}
		}
	}
	return errors.Join(errs...)
}

// unresolved returns the type errors of p that its generated file, once
// written for m, would not resolve.
func unresolved(p *packages.Package, m *ir.Module, declared func(*ir.Module) []string) []error {
	generated := map[string]bool{}
	for _, f := range p.Syntax {
		if ast.IsGenerated(f) {
			generated[p.Fset.File(f.Pos()).Name()] = true
		}
	}
	names := map[string]bool{}
	if declared != nil {
		for _, n := range declared(m) {
			names[n] = true
		}
	}
	var errs []error
	for _, e := range p.Errors {
		if e.Kind != packages.TypeError {
			continue
		}
		file, _, _ := strings.Cut(e.Pos, ":")
		if generated[file] {
			continue
		}
		if name, ok := strings.CutPrefix(e.Msg, "undefined: "); ok && names[name] {
			continue
		}
		errs = append(errs, e)
	}
	return errs
}

// Check finds the kernels among files, which make up the type-checked
// package pkg described by info, and translates them to IR. Files whose
// first line is a "// Code generated ... DO NOT EDIT." comment are not
// searched for kernels, but their functions may be called. The error, if
// any, is an [ErrorList] of every refusal found, sorted by position.
func Check(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info) (*ir.Module, error) {
	return newChecker(fset, pkg, info).check(files)
}

func newChecker(fset *token.FileSet, pkg *types.Package, info *types.Info) *checker {
	return &checker{
		fset:      fset,
		pkg:       pkg,
		info:      info,
		decls:     make(map[*types.Func]*ast.FuncDecl),
		funcNames: make(map[string]bool),
		mod:       &ir.Module{Package: pkg.Path(), Name: pkg.Name()},
	}
}

func (c *checker) check(files []*ast.File) (*ir.Module, error) {
	c.collect(files)
	c.scope()
	for _, d := range c.kernels {
		c.kernel(d)
	}
	if len(c.errs) > 0 {
		return nil, sortErrors(c.errs)
	}
	return c.mod, nil
}

// checker holds the state of one Check.
type checker struct {
	fset        *token.FileSet
	pkg         *types.Package
	info        *types.Info
	decls       map[*types.Func]*ast.FuncDecl // every function of the package with a body
	kernels     []*ast.FuncDecl               // functions with an //xpu:kernel directive
	kernelNames map[string]bool               // kernel and member names taken
	funcNames   map[string]bool               // device function names taken in the module
	mod         *ir.Module
	errs        []*Error
	constEvals  int // expressions constValue evaluated: at most one per expression of a body
}

// collect indexes the package's functions and finds the kernels.
func (c *checker) collect(files []*ast.File) {
	for _, f := range files {
		generated := isGenerated(f)
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if obj, ok := c.info.Defs[fd.Name].(*types.Func); ok {
				c.decls[obj] = fd
			}
			if !generated && hasDirective(fd.Doc) {
				c.kernels = append(c.kernels, fd)
			}
		}
	}
}

// scope records the package-level names of the package in the module.
func (c *checker) scope() {
	sc := c.pkg.Scope()
	c.mod.Scope = make(map[string]ir.Pos, sc.Len())
	for _, name := range sc.Names() {
		c.mod.Scope[name] = c.pos(sc.Lookup(name).Pos())
	}
}

// isGenerated reports whether f starts with a "// Code generated ... DO
// NOT EDIT." line.
func isGenerated(f *ast.File) bool {
	if len(f.Comments) == 0 || f.Comments[0].Pos() > f.Package {
		return false
	}
	first := f.Comments[0].List[0].Text
	return strings.HasPrefix(first, "// Code generated ") && strings.HasSuffix(first, " DO NOT EDIT.")
}

// pos converts a token position to an IR position (base file name).
func (c *checker) pos(p token.Pos) ir.Pos {
	if !p.IsValid() {
		return ir.Pos{}
	}
	q := c.fset.Position(p)
	return ir.Pos{File: filepath.Base(q.Filename), Line: q.Line, Col: q.Column}
}

// errorf reports a refusal at p under rule with the rule's fix sentence.
func (c *checker) errorf(p token.Pos, rule Rule, format string, args ...any) {
	c.errorFix(p, rule, fixes[rule], format, args...)
}

// errorFix reports a refusal with a fix sentence of its own.
func (c *checker) errorFix(p token.Pos, rule Rule, fix, format string, args ...any) {
	c.errs = append(c.errs, &Error{Pos: c.pos(p), Rule: string(rule), Msg: fmt.Sprintf(format, args...), Fix: fix})
}
