package llvmgen

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"math/rand/v2"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/codegen/fuzz"
	"github.com/goxpu/xpu/codegen/sidecar"
	"github.com/goxpu/xpu/llvm"
)

// xpuTypes is package xpu as go/packages loads it, once.
var xpuTypes struct {
	once sync.Once
	pkg  *types.Package
	err  error
}

type xpuImporter struct{}

func (xpuImporter) Import(path string) (*types.Package, error) {
	xpuTypes.once.Do(func() {
		pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes}, "github.com/goxpu/xpu")
		if err == nil && len(pkgs[0].Errors) > 0 {
			err = pkgs[0].Errors[0]
		}
		if err == nil {
			xpuTypes.pkg = pkgs[0].Types
		}
		xpuTypes.err = err
	})
	return xpuTypes.pkg, xpuTypes.err
}

// TestGenerated lowers the kernels the fuzzer's generator writes from
// random choices (every construct of the kernel language, deeply
// nested): each is lowered, or refused by name, and the lowering
// compiles through opt and llc.
func TestGenerated(t *testing.T) {
	tl := tools(t)
	n := 40
	if testing.Short() {
		n = 8
	}
	r := rand.New(rand.NewPCG(13, 17))
	for i := range n {
		data := make([]byte, 64+r.IntN(512))
		for j := range data {
			data[j] = byte(r.Uint32())
		}
		src := fuzz.Source(data)
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "k.go", src, parser.ParseComments)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", i, err, src)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Instances: map[*ast.Ident]types.Instance{}}
		pkg, err := (&types.Config{Importer: xpuImporter{}}).Check("example.com/k", fset, []*ast.File{f}, info)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", i, err, src)
		}
		m, err := frontend.Check(fset, []*ast.File{f}, pkg, info)
		if err != nil {
			continue // the front end's refusal, tested there
		}
		for _, k := range m.Kernels {
			for _, tgt := range Hosts() {
				mod, err := Lower(k, tgt)
				if err != nil {
					if !errors.Is(err, ErrUnsupported) {
						t.Fatalf("seed %d, %s: error %v does not wrap ErrUnsupported\n%s", i, tgt.ISA, err, src)
					}
					t.Logf("seed %d, %s: %v", i, tgt.ISA, err)
					continue
				}
				text, err := llvm.Sprint(mod)
				if err != nil {
					t.Fatalf("seed %d, %s: %v\n%s", i, tgt.ISA, err, src)
				}
				st := sidecar.Target{Triple: tgt.Triple, CPU: tgt.CPU, Features: tgt.Features}
				if _, err := tl.Object(context.Background(), []byte(text), st); err != nil {
					t.Fatalf("seed %d, %s: %v\n%s", i, tgt.ISA, firstLines(err.Error(), 20), src)
				}
			}
		}
	}
}

func firstLines(s string, n int) string {
	for i, c := range s {
		if c == '\n' {
			n--
			if n == 0 {
				return s[:i]
			}
		}
	}
	return s
}
