package wgslgen_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/wgslgen"
	"github.com/goxpu/xpu/schema"
)

// TestRefusals checks that kernels the WGSL lowering cannot carry are
// refused with the rule's name and the kernel's position.
func TestRefusals(t *testing.T) {
	simple := func(body ...ir.Stmt) *ir.Kernel {
		return &ir.Kernel{Name: "K", Block: [3]uint32{64, 1, 1}, Pos: pos("k.go", 1), Body: block(body...)}
	}
	where := pos("k.go", 7)
	counters := buffer("counters", particleType, schema.AccessAtomic, 0)
	flags := buffer("flags", bl, schema.AccessRead, 0)
	u := buffer("u", u32, schema.AccessReadWrite, 0)
	cases := []struct {
		name, rule, msg string
		k               *ir.Kernel
	}{
		{"atomic on a struct field", "xpu-atomic-struct", "struct fields", func() *ir.Kernel {
			k := simple(&ir.ExprStmt{X: atomic(ir.AtomicAdd, field(at(counters, cu(0)), 2), cu(1)), Pos: where})
			k.Params = []*ir.Param{counters}
			return k
		}()},
		{"bool buffer", "xpu-host-shareable", "bool", func() *ir.Kernel {
			k := simple()
			k.Params = []*ir.Param{flags}
			return k
		}()},
		{"bool uniform", "xpu-host-shareable", "uniforms are", func() *ir.Kernel {
			k := simple()
			k.Params = []*ir.Param{scalarParam("b", bl, 0)}
			return k
		}()},
		{"binding out of order", "xpu-binding", "binding 1, want 0", func() *ir.Kernel {
			k := simple()
			k.Params = []*ir.Param{buffer("x", f32, schema.AccessRead, 1)}
			return k
		}()},
		{"overlapping uniforms", "xpu-binding", "must not overlap", func() *ir.Kernel {
			k := simple()
			k.Params = []*ir.Param{scalarParam("a", f32, 0), scalarParam("b", f32, 0)}
			return k
		}()},
		{"names that mangle alike", "xpu-name", "both become v__u00e9_", simple(
			decl(newVar("é", u32), nil),
			&ir.Decl{Var: newVar("_u00e9_", u32), Pos: where},
		)},
		{"barrier in non-uniform flow", "xpu-barrier-nonuniform", "non-uniform", func() *ir.Kernel {
			b := &ir.Barrier{Pos: where}
			k := simple(ifThen(bin(ir.OpLt, query(ir.LocalX), cu(3)), b))
			k.Uniform = &ir.Uniformity{Flow: map[ir.Stmt]bool{b: false}}
			return k
		}()},
		{"struct comparison", "xpu-compare", "cannot compare", func() *ir.Kernel {
			v := newVar("p", particleType)
			return simple(decl(v, nil), &ir.Decl{Var: newVar("same", bl), Init: bin(ir.OpEq, ref(v), ref(v)), Pos: where})
		}()},
		{"atomic on a plain buffer", "xpu-atomic-access", "not atomic", func() *ir.Kernel {
			k := simple(&ir.ExprStmt{X: atomic(ir.AtomicAdd, at(u, cu(0)), cu(1)), Pos: where})
			k.Params = []*ir.Param{u}
			return k
		}()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := wgslgen.Generate(c.k)
			var e *wgslgen.Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want a *wgslgen.Error", err)
			}
			s := err.Error()
			if e.Rule != c.rule || !strings.Contains(s, "["+c.rule+"]") || !strings.Contains(s, c.msg) || !strings.HasPrefix(s, "k.go:") {
				t.Errorf("got %q, want rule [%s], a k.go position and %q", s, c.rule, c.msg)
			}
		})
	}
}
