package wgslgen_test

import (
	"math"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// Small constructors that keep the hand-built IR of the test kernels
// readable.

var (
	i32 = ir.I32Type
	u32 = ir.U32Type
	f32 = ir.F32Type
	bl  = ir.BoolType
)

func pos(file string, line int) ir.Pos { return ir.Pos{File: file, Line: line, Col: 2} }

func ci(v int32) *ir.Const   { return &ir.Const{T: i32, Bits: uint32(v)} }
func cu(v uint32) *ir.Const  { return &ir.Const{T: u32, Bits: v} }
func cf(v float32) *ir.Const { return &ir.Const{T: f32, Bits: math.Float32bits(v)} }

func newVar(name string, t ir.Type) *ir.Var { return &ir.Var{Name: name, Type: t} }
func ref(v *ir.Var) *ir.VarRef              { return &ir.VarRef{Var: v} }
func sref(p *ir.Param) *ir.ScalarRef        { return &ir.ScalarRef{Param: p} }

func bin(op ir.Op, x, y ir.Expr) *ir.Binary {
	t := x.Type()
	switch op {
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpLAnd, ir.OpLOr:
		t = bl
	}
	return &ir.Binary{Op: op, X: x, Y: y, T: t}
}

func un(op ir.Op, x ir.Expr) *ir.Unary { return &ir.Unary{Op: op, X: x, T: x.Type()} }

// at indexes a buffer (*ir.Param), shared array (*ir.Shared) or array
// expression.
func at(x any, i ir.Expr) *ir.Index {
	switch x := x.(type) {
	case *ir.Param:
		return &ir.Index{X: &ir.BufferRef{Param: x}, Index: i, T: x.Type}
	case *ir.Shared:
		return &ir.Index{X: &ir.SharedRef{Shared: x}, Index: i, T: x.Elem}
	case ir.Expr:
		return &ir.Index{X: x, Index: i, T: x.Type().(*ir.Array).Elem}
	}
	panic("at: bad operand")
}

func field(x ir.Expr, i int) *ir.FieldOf {
	return &ir.FieldOf{X: x, Field: i, T: x.Type().(*ir.Struct).Fields[i].Type}
}

func query(b ir.Builtin) *ir.CallBuiltin { return &ir.CallBuiltin{Fn: b, T: u32} }

func math1(b ir.Builtin, args ...ir.Expr) *ir.CallBuiltin {
	return &ir.CallBuiltin{Fn: b, Args: args, T: args[0].Type()}
}

func conv(x ir.Expr, t *ir.Basic) *ir.Convert { return &ir.Convert{X: x, T: t} }

func atomic(op ir.AtomicOp, ptr ir.Expr, args ...ir.Expr) *ir.Atomic {
	a := &ir.Atomic{Op: op, Ptr: ptr, Args: args, T: ptr.Type()}
	if op == ir.AtomicStore {
		a.T = nil
	}
	return a
}

func buffer(name string, t ir.Type, acc schema.Access, binding int) *ir.Param {
	p := &ir.Param{Name: name, Kind: ir.BufferParam, Type: t, Access: acc, Binding: binding}
	if acc == schema.AccessAtomic {
		p.AtomicElem = t
		if t == f32 {
			p.AtomicElem = u32
		}
	}
	return p
}

func scalarParam(name string, t ir.Type, offset int) *ir.Param {
	return &ir.Param{Name: name, Kind: ir.ScalarParam, Type: t, Binding: offset}
}

func block(s ...ir.Stmt) *ir.Block             { return &ir.Block{Stmts: s} }
func decl(v *ir.Var, init ir.Expr) *ir.Decl    { return &ir.Decl{Var: v, Init: init} }
func assign(dst, v ir.Expr) *ir.Assign         { return &ir.Assign{Dst: dst, Value: v} }
func ifThen(c ir.Expr, then ...ir.Stmt) *ir.If { return &ir.If{Cond: c, Then: block(then...)} }

// forLoop is for init; cond; post { body }, as the front end builds it:
// the init precedes the Loop in an enclosing block.
func forLoop(init ir.Stmt, cond ir.Expr, post ir.Stmt, body ...ir.Stmt) *ir.Block {
	l := &ir.Loop{Cond: cond, Body: block(body...)}
	if post != nil {
		l.Post = block(post)
	}
	return block(init, l)
}
