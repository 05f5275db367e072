package frontend

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/goxpu/xpu/codegen/ir"
)

// The packages test sources may import, loaded once.
var (
	importsOnce sync.Once
	imports     map[string]*types.Package
	importsErr  error
)

// testImporter returns the xpu package (and math and math/bits) as
// go/packages loads them.
type testImporter struct{}

func (testImporter) Import(path string) (*types.Package, error) {
	importsOnce.Do(func() {
		cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes}
		pkgs, err := packages.Load(cfg, xpuPath, "math", "math/bits")
		if err != nil {
			importsErr = err
			return
		}
		imports = make(map[string]*types.Package)
		for _, p := range pkgs {
			imports[p.PkgPath] = p.Types
		}
	})
	if importsErr != nil {
		return nil, importsErr
	}
	if p := imports[path]; p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("test importer: package %q not available", path)
}

var _ types.Importer = testImporter{}

// typeCheck parses and type-checks one source file as package path "k".
func typeCheck(name string, src []byte) (*token.FileSet, []*ast.File, *types.Package, *types.Info, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	info := newInfo()
	conf := types.Config{Importer: testImporter{}, GoVersion: "go1.26"}
	pkg, err := conf.Check("example.com/k", fset, []*ast.File{f}, info)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return fset, []*ast.File{f}, pkg, info, nil
}

// newInfo returns a types.Info with the maps Check reads.
func newInfo() *types.Info {
	return &types.Info{
		Types:      make(map[ast.Expr]types.TypeAndValue),
		Defs:       make(map[*ast.Ident]types.Object),
		Uses:       make(map[*ast.Ident]types.Object),
		Selections: make(map[*ast.SelectorExpr]*types.Selection),
		Instances:  make(map[*ast.Ident]types.Instance),
	}
}

// checkSource type-checks src and runs Check on it.
func checkSource(t testing.TB, src string) (*ir.Module, error) {
	t.Helper()
	fset, files, pkg, info, err := typeCheck("k.go", []byte(src))
	if err != nil {
		t.Fatalf("type-check: %v", err)
	}
	return Check(fset, files, pkg, info)
}
