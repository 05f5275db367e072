package codegen

// This file loads a kernel package for generation.

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/codegen/ir"
)

// load loads the package in dir and runs the front end on it.
//
// A package whose code uses what its generated file declares (launchers,
// kernel handles) cannot type-check before that file exists, or while it is
// stale. Such type errors do not stop generation: an error inside the
// generated file, and an "undefined" error that names something the new
// file will declare, are expected; every other error fails the load. The
// kernels themselves never depend on the generated file, so their types
// are whole.
func load(dir string) (*ir.Module, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo,
		Dir: dir,
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, fmt.Errorf("codegen: loading %s: %w", dir, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("codegen: %s holds %d packages, want 1", dir, len(pkgs))
	}
	p := pkgs[0]
	for _, e := range p.Errors {
		// go list reports the compiler's errors on the package itself as
		// one list error headed "# <path>"; go/types reports each of them
		// again as a type error, judged below.
		compiled := strings.HasPrefix(e.Msg, "# "+p.PkgPath+"\n")
		if e.Kind != packages.TypeError && !compiled {
			return nil, fmt.Errorf("codegen: %s: %w", dir, e)
		}
	}
	m, err := frontend.Check(p.Fset, p.Syntax, p.Types, p.TypesInfo)
	if err != nil {
		return nil, err
	}
	if errs := unexpected(p.Errors, m); len(errs) > 0 {
		return nil, fmt.Errorf("codegen: %s does not type-check: %w", dir, errors.Join(errs...))
	}
	return m, nil
}

// unexpected returns the type errors that the generated file of m would
// not resolve.
func unexpected(errs []packages.Error, m *ir.Module) []error {
	declared := map[string]bool{}
	for _, name := range emit.Declares(m) {
		declared[name] = true
	}
	var out []error
	for _, e := range errs {
		if e.Kind != packages.TypeError {
			continue
		}
		file, _, _ := strings.Cut(e.Pos, ":")
		if filepath.Base(file) == emit.FileName {
			continue
		}
		if name, ok := strings.CutPrefix(e.Msg, "undefined: "); ok && declared[name] {
			continue
		}
		out = append(out, e)
	}
	return out
}
