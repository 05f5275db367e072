package wgslgen

import (
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// TestForLowering: a for whose clauses lower to one expression each
// becomes WGSL's for; one whose condition needs statements (a call on the
// right of &&) stays a loop that evaluates them on every iteration; a
// variable never assigned again is a let.
func TestForLowering(t *testing.T) {
	u32 := func(v uint32) ir.Expr { return &ir.Const{T: ir.U32Type, Bits: v} }
	out := &ir.Param{Name: "out", Kind: ir.BufferParam, Type: ir.U32Type, Access: schema.AccessReadWrite}
	x := &ir.Var{Name: "x", Type: ir.U32Type}
	i := &ir.Var{Name: "i", Type: ir.U32Type}
	fv := &ir.Var{Name: "v", Type: ir.U32Type}
	f := &ir.Func{Name: "small", GoName: "small", Params: []*ir.Var{fv}, Result: ir.BoolType,
		Body: &ir.Block{Stmts: []ir.Stmt{&ir.Return{Value: &ir.Binary{Op: ir.OpLt, X: &ir.VarRef{Var: fv}, Y: u32(5), T: ir.BoolType}}}}}
	loop := func(cond ir.Expr) ir.Stmt {
		ref := &ir.VarRef{Var: i}
		return &ir.Block{Stmts: []ir.Stmt{
			&ir.Decl{Var: i, Init: u32(0)},
			&ir.Loop{Cond: cond,
				Post: &ir.Block{Stmts: []ir.Stmt{&ir.Assign{Dst: ref, Value: &ir.Binary{Op: ir.OpAdd, X: ref, Y: u32(1), T: ir.U32Type}}}},
				Body: &ir.Block{Stmts: []ir.Stmt{&ir.Assign{Dst: &ir.Index{X: &ir.BufferRef{Param: out}, Index: ref, T: ir.U32Type}, Value: &ir.VarRef{Var: x}}}}},
		}}
	}
	lt := &ir.Binary{Op: ir.OpLt, X: &ir.VarRef{Var: i}, Y: u32(10), T: ir.BoolType}
	for _, c := range []struct {
		name string
		cond ir.Expr
		want []string
	}{
		{"simple", lt, []string{"let v_x: u32 = 7u;", "for (var v_i: u32 = 0u; v_i < 10u; v_i = v_i + 1u) {"}},
		{"call in the condition", &ir.Binary{Op: ir.OpLAnd, X: lt, Y: &ir.Call{Func: f, Args: []ir.Expr{&ir.VarRef{Var: i}}}, T: ir.BoolType},
			[]string{"var v_i: u32;", "v_i = 0u;", "loop {", "var xpu_t1: bool = v_i < 10u;", "if !xpu_t1 {", "continuing {", "v_i = v_i + 1u;"}},
	} {
		k := &ir.Kernel{Name: "K", Func: "K", Block: [3]uint32{1, 1, 1}, Params: []*ir.Param{out}, Funcs: []*ir.Func{f},
			Body: &ir.Block{Stmts: []ir.Stmt{&ir.Decl{Var: x, Init: u32(7)}, loop(c.cond)}}}
		src, err := Generate(k)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(src, w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, src)
			}
		}
		if c.name != "simple" && strings.Contains(src, "for (") {
			t.Errorf("%s: lowered to a for:\n%s", c.name, src)
		}
	}
}
