package wgslgen

import (
	"testing"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// TestStorageFences checks which barriers fence storage: those with an
// access to a writable buffer on both sides, counting loops around both.
func TestStorageFences(t *testing.T) {
	out := &ir.Param{Name: "out", Kind: ir.BufferParam, Type: ir.U32Type, Access: schema.AccessReadWrite}
	in := &ir.Param{Name: "in", Kind: ir.BufferParam, Type: ir.U32Type, Access: schema.AccessRead, Binding: 1}
	zero := &ir.Const{T: ir.U32Type}
	at := func(p *ir.Param) ir.Expr { return &ir.Index{X: &ir.BufferRef{Param: p}, Index: zero, T: ir.U32Type} }
	v := &ir.Var{Name: "v", Type: ir.U32Type}
	write := func(p *ir.Param) ir.Stmt { return &ir.Assign{Dst: at(p), Value: zero} }
	read := func(p *ir.Param) ir.Stmt { return &ir.Assign{Dst: &ir.VarRef{Var: v}, Value: at(p)} }
	writer := &ir.Func{Name: "writer", Body: &ir.Block{Stmts: []ir.Stmt{write(out)}}}
	call := &ir.ExprStmt{X: &ir.Call{Func: writer}}
	loop := func(s ...ir.Stmt) ir.Stmt { return &ir.Loop{Body: &ir.Block{Stmts: s}} }

	for _, c := range []struct {
		name string
		body func(b *ir.Barrier) []ir.Stmt
		want bool
	}{
		{"write then read", func(b *ir.Barrier) []ir.Stmt { return []ir.Stmt{write(out), b, read(out)} }, true},
		{"read then write", func(b *ir.Barrier) []ir.Stmt { return []ir.Stmt{read(out), b, write(out)} }, true},
		{"only after", func(b *ir.Barrier) []ir.Stmt { return []ir.Stmt{b, read(out), write(out)} }, false},
		{"only before", func(b *ir.Barrier) []ir.Stmt { return []ir.Stmt{write(out), b} }, false},
		{"read-only on both sides", func(b *ir.Barrier) []ir.Stmt { return []ir.Stmt{read(in), b, read(in), write(out)} }, false},
		{"loop around both", func(b *ir.Barrier) []ir.Stmt { return []ir.Stmt{loop(b, write(out))} }, true},
		{"loop then write", func(b *ir.Barrier) []ir.Stmt { return []ir.Stmt{loop(read(in), b), write(out)} }, false},
		{"write in a loop before", func(b *ir.Barrier) []ir.Stmt { return []ir.Stmt{loop(write(out)), b, read(out)} }, true},
		{"call that writes", func(b *ir.Barrier) []ir.Stmt { return []ir.Stmt{call, b, call} }, true},
		{"write in a branch", func(b *ir.Barrier) []ir.Stmt {
			return []ir.Stmt{&ir.If{Cond: &ir.Const{T: ir.BoolType}, Then: &ir.Block{Stmts: []ir.Stmt{write(out)}}}, b, read(out)}
		}, true},
	} {
		b := &ir.Barrier{}
		k := &ir.Kernel{Params: []*ir.Param{out, in}, Funcs: []*ir.Func{writer}, Body: &ir.Block{Stmts: c.body(b)}}
		if got := storageFences(k)[b]; got != c.want {
			t.Errorf("%s: fence %v, want %v", c.name, got, c.want)
		}
	}
}
