package ir

import (
	"errors"
	"testing"

	"github.com/goxpu/xpu/schema"
)

// Helpers that build IR by hand.

func u32(v uint32) *Const { return &Const{T: U32Type, Bits: v} }

func ref(v *Var) *VarRef { return &VarRef{Var: v} }

func bin(op Op, x, y Expr) *Binary {
	t := x.Type()
	if op >= OpEq && op <= OpLOr {
		t = BoolType
	}
	return &Binary{Op: op, X: x, Y: y, T: t}
}

func local() *CallBuiltin { return &CallBuiltin{Fn: LocalX, T: U32Type} }

func group() *CallBuiltin { return &CallBuiltin{Fn: GroupX, T: U32Type} }

func block(s ...Stmt) *Block { return &Block{Stmts: s} }

func pos(line int) Pos { return Pos{File: "k.go", Line: line, Col: 1} }

// kernel returns a kernel with a float32 buffer y and a uint32 scalar n.
func kernel(body ...Stmt) (*Kernel, *Param, *Param) {
	y := &Param{Name: "y", Kind: BufferParam, Type: F32Type}
	n := &Param{Name: "n", Kind: ScalarParam, Type: U32Type}
	return &Kernel{Name: "K", Params: []*Param{y, n}, Body: block(body...)}, y, n
}

// barrierLines returns the lines of the barrier errors of Analyze.
func barrierLines(t *testing.T, k *Kernel) []int {
	t.Helper()
	err := Analyze(k)
	if err == nil {
		return nil
	}
	var list BarrierErrors
	if !errors.As(err, &list) {
		t.Fatalf("Analyze: %v", err)
	}
	var lines []int
	for _, e := range list {
		lines = append(lines, e.Pos.Line)
	}
	return lines
}

func TestAccess(t *testing.T) {
	x := &Param{Name: "x", Kind: BufferParam, Type: F32Type}
	y := &Param{Name: "y", Kind: BufferParam, Type: F32Type}
	z := &Param{Name: "z", Kind: BufferParam, Type: F32Type}
	h := &Param{Name: "h", Kind: BufferParam, Type: F32Type}
	u := &Param{Name: "u", Kind: BufferParam, Type: I32Type}
	s := &Shared{Name: "s", Elem: U32Type, Len: 4}
	w := &Shared{Name: "w", Elem: F32Type, Len: 4}
	i := local()
	k := &Kernel{
		Params: []*Param{x, y, z, h, u},
		Shared: []*Shared{s, w},
		Body: block(
			&Assign{Dst: &Index{X: &BufferRef{Param: y}, Index: i, T: F32Type}, Value: &Index{X: &BufferRef{Param: x}, Index: i, T: F32Type}},
			&Assign{Dst: &Index{X: &BufferRef{Param: z}, Index: u32(0), T: F32Type},
				Value: bin(OpAdd, &Index{X: &BufferRef{Param: z}, Index: u32(1), T: F32Type}, &Const{T: F32Type})},
			&ExprStmt{X: &Atomic{Op: AtomicAddFloat32, Ptr: &Index{X: &BufferRef{Param: h}, Index: u32(0), T: F32Type}, Args: []Expr{&Const{T: F32Type}}, T: F32Type}},
			&ExprStmt{X: &Atomic{Op: AtomicAdd, Ptr: &Index{X: &SharedRef{Shared: s}, Index: u32(0), T: U32Type}, Args: []Expr{u32(1)}, T: U32Type}},
			&Assign{Dst: &Index{X: &SharedRef{Shared: w}, Index: u32(0), T: F32Type}, Value: &Const{T: F32Type}},
		),
	}
	if err := Analyze(k); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		got, want schema.Access
		name      string
	}{
		{x.Access, schema.AccessRead, "x"}, {y.Access, schema.AccessWrite, "y"}, {z.Access, schema.AccessReadWrite, "z"},
		{h.Access, schema.AccessAtomic, "h"}, {u.Access, schema.AccessNone, "u"}, {s.Access, schema.AccessAtomic, "s"},
		{w.Access, schema.AccessWrite, "w"},
	} {
		if c.got != c.want {
			t.Errorf("%s: access %v, want %v", c.name, c.got, c.want)
		}
	}
	if h.AtomicElem != U32Type || s.AtomicElem != U32Type {
		t.Errorf("atomic elements %v %v, want uint32", h.AtomicElem, s.AtomicElem)
	}
	// Analyze may run again with the same result.
	if err := Analyze(k); err != nil || y.Access != schema.AccessWrite {
		t.Errorf("second Analyze: %v, y %v", err, y.Access)
	}
}

func TestFuncBarrier(t *testing.T) {
	inner := &Func{Name: "inner", GoName: "inner", Body: block(&Barrier{})}
	outer := &Func{Name: "outer", GoName: "outer", Body: block(&ExprStmt{X: &Call{Func: inner}})}
	plain := &Func{Name: "plain", GoName: "plain", Body: block(&Return{})}
	k, _, _ := kernel(&ExprStmt{X: &Call{Func: outer}}, &ExprStmt{X: &Call{Func: plain}})
	k.Funcs = []*Func{inner, outer, plain}
	if err := Analyze(k); err != nil {
		t.Fatal(err)
	}
	if !inner.Barrier || !outer.Barrier || plain.Barrier {
		t.Errorf("Barrier: inner %v outer %v plain %v", inner.Barrier, outer.Barrier, plain.Barrier)
	}
}

func TestUniformValues(t *testing.T) {
	k, y, n := kernel()
	a := &Var{Name: "a", Type: U32Type}
	b := &Var{Name: "b", Type: U32Type}
	c := &Var{Name: "c", Type: F32Type}
	loadY := &Index{X: &BufferRef{Param: y}, Index: u32(0), T: F32Type}
	scalar := bin(OpMul, &ScalarRef{Param: n}, group())
	k.Body = block(
		&Decl{Var: a, Init: scalar},
		&Decl{Var: b, Init: u32(0)},
		&If{Cond: bin(OpLt, local(), ref(a)), Then: block(&Assign{Dst: ref(b), Value: u32(1)})},
		&Decl{Var: c, Init: loadY},
	)
	if err := Analyze(k); err != nil {
		t.Fatal(err)
	}
	u := k.Uniform
	if !u.Value[scalar] {
		t.Error("n*GroupX() is not uniform")
	}
	if u.Value[loadY] {
		t.Error("a load from a buffer is uniform")
	}
	ifs := k.Body.Stmts[2].(*If)
	if u.Value[ifs.Cond] || !u.Flow[ifs] || u.Flow[ifs.Then.Stmts[0]] {
		t.Error("LocalX() < a: the condition is uniform, or the if is not, or its body is")
	}
	// b is assigned under a non-uniform condition: later reads are not uniform.
	r := ref(b)
	k.Body.Stmts = append(k.Body.Stmts, &Decl{Var: &Var{Name: "d", Type: U32Type}, Init: r})
	if err := Analyze(k); err != nil {
		t.Fatal(err)
	}
	if k.Uniform.Value[r] {
		t.Error("b is uniform after a non-uniform assignment")
	}
}

func TestBarrierRule(t *testing.T) {
	_, _, n := kernel()
	i := &Var{Name: "i", Type: U32Type}
	// for i := 0; i < n; i++ { barrier }: uniform loop.
	uniformLoop := func(line int, start Expr, body ...Stmt) Stmt {
		return block(
			&Decl{Var: i, Init: start},
			&Loop{
				Cond: bin(OpLt, ref(i), &ScalarRef{Param: n}),
				Post: block(&Assign{Dst: ref(i), Value: bin(OpAdd, ref(i), u32(1))}),
				Body: block(body...),
				Pos:  pos(line),
			},
		)
	}
	cases := []struct {
		name string
		body []Stmt
		want []int
	}{
		{"top level", []Stmt{&Barrier{Pos: pos(1)}}, nil},
		{"uniform if", []Stmt{&If{Cond: bin(OpGt, &ScalarRef{Param: n}, u32(0)), Then: block(&Barrier{Pos: pos(2)})}}, nil},
		{"non-uniform if", []Stmt{&If{Cond: bin(OpLt, local(), &ScalarRef{Param: n}), Then: block(&Barrier{Pos: pos(3)})}}, []int{3}},
		{"uniform loop", []Stmt{uniformLoop(4, u32(0), &Barrier{Pos: pos(5)})}, nil},
		{"non-uniform loop", []Stmt{uniformLoop(6, local(), &Barrier{Pos: pos(7)})}, []int{7}},
		{"after non-uniform loop", []Stmt{uniformLoop(8, local()), &Barrier{Pos: pos(9)}}, nil},
		{"after non-uniform return", []Stmt{
			&If{Cond: bin(OpLt, local(), u32(3)), Then: block(&Return{})},
			&Barrier{Pos: pos(10)},
		}, []int{10}},
		{"after uniform return", []Stmt{
			&If{Cond: bin(OpLt, group(), u32(3)), Then: block(&Return{})},
			&Barrier{Pos: pos(11)},
		}, nil},
		{"non-uniform break taints the loop", []Stmt{uniformLoop(12, u32(0),
			&Barrier{Pos: pos(13)},
			&If{Cond: bin(OpEq, local(), u32(1)), Then: block(&Break{})},
		)}, []int{13}},
		{"non-uniform short circuit", []Stmt{&ExprStmt{X: bin(OpLAnd, bin(OpEq, local(), u32(0)), bin(OpEq, u32(0), u32(0)))}, &Barrier{Pos: pos(14)}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, _, _ := kernel(c.body...)
			k.Params[1] = n
			got := barrierLines(t, k)
			if len(got) != len(c.want) || len(got) > 0 && got[0] != c.want[0] {
				t.Errorf("barrier errors on lines %v, want %v", got, c.want)
			}
		})
	}
}

func TestBarrierThroughFunc(t *testing.T) {
	_, _, n := kernel()
	p := &Var{Name: "p", Type: U32Type}
	// func g(p uint32) { if p > 0 { barrier } }
	g := &Func{Name: "g", GoName: "g", Params: []*Var{p}, Body: block(
		&If{Cond: bin(OpGt, ref(p), u32(0)), Then: block(&Barrier{Pos: pos(1)})},
	)}
	// func h() { barrier }
	h := &Func{Name: "h", GoName: "h", Body: block(&Barrier{Pos: pos(2)})}
	call := func(f *Func, line int, args ...Expr) Stmt {
		return &ExprStmt{X: &Call{Func: f, Args: args, Pos: pos(line)}}
	}
	cases := []struct {
		name string
		body []Stmt
		want []int
	}{
		{"uniform argument", []Stmt{call(g, 10, &ScalarRef{Param: n})}, nil},
		{"non-uniform argument", []Stmt{call(g, 11, local())}, []int{11}},
		{"call in uniform flow", []Stmt{call(h, 12)}, nil},
		{"call in non-uniform flow", []Stmt{&If{Cond: bin(OpEq, local(), u32(0)), Then: block(call(h, 13))}}, []int{13}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, _, _ := kernel(c.body...)
			k.Params[1] = n
			k.Funcs = []*Func{g, h}
			got := barrierLines(t, k)
			if len(got) != len(c.want) || len(got) > 0 && got[0] != c.want[0] {
				t.Errorf("barrier errors on lines %v, want %v", got, c.want)
			}
			var be *BarrierError
			if len(got) > 0 && !errors.As(Analyze(k), &be) {
				t.Error("errors.As finds no *BarrierError")
			}
		})
	}
}
