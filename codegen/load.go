package codegen

// This file loads a kernel package for generation.

import (
	"errors"
	"fmt"

	"golang.org/x/tools/go/packages"

	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/codegen/ir"
)

// load loads the package in dir as frontend.Load does, with the build tag
// emit.BuildTag set: the generated file, and any file of the package that
// uses what it declares, carry //go:build !xpugen, so that a missing or
// stale generated file never keeps the package from type-checking while
// it is being generated.
func load(dir string) (*ir.Module, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
			packages.NeedTypes | packages.NeedTypesInfo,
		Dir:        dir,
		BuildFlags: []string{"-tags=" + emit.BuildTag},
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, fmt.Errorf("codegen: loading %s: %w", dir, err)
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("codegen: %s holds %d packages, want 1", dir, len(pkgs))
	}
	p := pkgs[0]
	if len(p.Errors) > 0 {
		errs := make([]error, len(p.Errors))
		for i, e := range p.Errors {
			errs[i] = e
		}
		return nil, fmt.Errorf("codegen: %s does not type-check (files that use the generated API need //go:build !%s): %w",
			dir, emit.BuildTag, errors.Join(errs...))
	}
	return frontend.Check(p.Fset, p.Syntax, p.Types, p.TypesInfo)
}
