package golower_test

import (
	"math"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// The IR of the kernels of package lowered, built by hand as the front end
// would build it, with the uniformity facts the analysis would find.

var (
	u32 = ir.U32Type
	f32 = ir.F32Type
)

func cu(v uint32) *ir.Const    { return &ir.Const{T: u32, Bits: v} }
func cf(v float32) *ir.Const   { return &ir.Const{T: f32, Bits: math.Float32bits(v)} }
func ref(v *ir.Var) *ir.VarRef { return &ir.VarRef{Var: v} }
func bin(op ir.Op, x, y ir.Expr) *ir.Binary {
	t := x.Type()
	if op >= ir.OpEq && op <= ir.OpLOr {
		t = ir.BoolType
	}
	return &ir.Binary{Op: op, X: x, Y: y, T: t}
}
func q(b ir.Builtin) *ir.CallBuiltin { return &ir.CallBuiltin{Fn: b, T: u32} }
func idx(x, i ir.Expr) *ir.Index     { return &ir.Index{X: x, Index: i, T: x.Type()} }
func buf(p *ir.Param) *ir.BufferRef  { return &ir.BufferRef{Param: p} }
func sh(s *ir.Shared) *ir.SharedRef  { return &ir.SharedRef{Shared: s} }
func decl(v *ir.Var, init ir.Expr) *ir.Decl {
	return &ir.Decl{Var: v, Init: init}
}
func set(dst, v ir.Expr) *ir.Assign { return &ir.Assign{Dst: dst, Value: v} }
func block(ss ...ir.Stmt) *ir.Block { return &ir.Block{Stmts: ss} }
func bufParam(name string, t ir.Type, binding int, a schema.Access) *ir.Param {
	return &ir.Param{Name: name, Kind: ir.BufferParam, Type: t, Binding: binding, Access: a}
}
func scalar(name string, t ir.Type, offset int) *ir.Param {
	return &ir.Param{Name: name, Kind: ir.ScalarParam, Type: t, Binding: offset}
}

// uniform marks every statement of k as in uniform flow except those in
// nonUniform, and the given expressions as uniform values.
func uniform(k *ir.Kernel, nonUniform []ir.Stmt, values ...ir.Expr) {
	u := &ir.Uniformity{Value: map[ir.Expr]bool{}, Flow: map[ir.Stmt]bool{}}
	var mark func(ss []ir.Stmt)
	mark = func(ss []ir.Stmt) {
		for _, s := range ss {
			u.Flow[s] = true
			switch s := s.(type) {
			case *ir.Block:
				mark(s.Stmts)
			case *ir.If:
				mark(s.Then.Stmts)
				if s.Else != nil {
					mark(s.Else.Stmts)
				}
			case *ir.Loop:
				mark(s.Body.Stmts)
				if s.Post != nil {
					mark(s.Post.Stmts)
				}
			}
		}
	}
	mark(k.Body.Stmts)
	for _, s := range nonUniform {
		u.Flow[s] = false
	}
	for _, e := range values {
		u.Value[e] = true
	}
	k.Uniform = u
}

func saxpyIR() *ir.Kernel { return saxpyBlockIR(64) }

func saxpyBlockIR(bs uint32) *ir.Kernel {
	y, x := bufParam("y", f32, 0, schema.AccessReadWrite), bufParam("x", f32, 1, schema.AccessRead)
	a, n := scalar("a", f32, 0), scalar("n", u32, 4)
	i := &ir.Var{Name: "i", Type: u32}
	yi := idx(buf(y), ref(i))
	k := &ir.Kernel{
		Name: "Saxpy", Func: "Saxpy", Block: [3]uint32{bs, 1, 1},
		Params: []*ir.Param{y, x, a, n},
		Body: block(block(
			decl(i, q(ir.GlobalX)),
			&ir.If{Cond: bin(ir.OpLt, ref(i), &ir.ScalarRef{Param: n}), Then: block(
				set(yi, bin(ir.OpAdd, bin(ir.OpMul, &ir.ScalarRef{Param: a}, idx(buf(x), ref(i))), yi)),
			)},
		)),
	}
	uniform(k, nil)
	return k
}

func blockSumIR() *ir.Kernel {
	out, in := bufParam("out", f32, 0, schema.AccessWrite), bufParam("in", f32, 1, schema.AccessRead)
	groups := scalar("groups", u32, 0)
	s := &ir.Shared{Name: "s", Elem: f32, Len: 64}
	l, h := &ir.Var{Name: "l", Type: u32}, &ir.Var{Name: "h", Type: u32}
	early := bin(ir.OpGe, q(ir.GroupX), &ir.ScalarRef{Param: groups})
	cond := bin(ir.OpGt, ref(h), cu(0))
	k := &ir.Kernel{
		Name: "BlockSum", Func: "BlockSum", Block: [3]uint32{64, 1, 1},
		Params: []*ir.Param{out, in, groups},
		Shared: []*ir.Shared{s},
		Body: block(
			&ir.If{Cond: early, Then: block(&ir.Return{})},
			decl(l, q(ir.LocalIndex)),
			set(idx(sh(s), ref(l)), idx(buf(in), q(ir.GlobalX))),
			&ir.Barrier{},
			decl(h, cu(32)),
			&ir.Loop{
				Cond: cond,
				Post: block(set(ref(h), bin(ir.OpShr, ref(h), cu(1)))),
				Body: block(
					&ir.If{Cond: bin(ir.OpLt, ref(l), ref(h)), Then: block(
						set(idx(sh(s), ref(l)), bin(ir.OpAdd, idx(sh(s), ref(l)), idx(sh(s), bin(ir.OpAdd, ref(l), ref(h))))),
					)},
					&ir.Barrier{},
				),
			},
			&ir.If{Cond: bin(ir.OpEq, ref(l), cu(0)), Then: block(
				set(idx(buf(out), q(ir.GroupX)), idx(sh(s), cu(0))),
			)},
		),
	}
	uniform(k, nil, early, cond)
	return k
}

// dotIR is an inner product over buffers, of a run-time length, between
// barriers: the strip dot product's case, with a fallback that faults
// where the buffers are short.
func dotIR() *ir.Kernel {
	out, a, b := bufParam("out", f32, 0, schema.AccessWrite), bufParam("a", f32, 1, schema.AccessRead), bufParam("b", f32, 2, schema.AccessRead)
	m := scalar("m", u32, 0)
	v := func(name string, t ir.Type) *ir.Var { return &ir.Var{Name: name, Type: t} }
	tx, ty, acc, k := v("tx", u32), v("ty", u32), v("acc", f32), v("k", u32)
	k1 := &ir.Kernel{
		Name: "Dot", Func: "Dot", Block: [3]uint32{8, 2, 1},
		Params: []*ir.Param{out, a, b, m},
		Body: block(
			decl(tx, q(ir.LocalX)), decl(ty, q(ir.LocalY)),
			decl(acc, cf(0.5)),
			&ir.Barrier{},
			block(
				decl(k, cu(1)),
				&ir.Loop{
					Cond: bin(ir.OpLt, ref(k), &ir.ScalarRef{Param: m}),
					Post: block(set(ref(k), bin(ir.OpAdd, ref(k), cu(1)))),
					Body: block(set(ref(acc), bin(ir.OpAdd,
						bin(ir.OpMul, idx(buf(b), bin(ir.OpAdd, bin(ir.OpMul, ref(k), cu(8)), ref(tx))),
							idx(buf(a), bin(ir.OpAdd, bin(ir.OpShl, ref(ty), cu(5)), ref(k)))),
						ref(acc)))),
				},
			),
			&ir.Barrier{},
			set(idx(buf(out), bin(ir.OpAdd, bin(ir.OpMul, ref(ty), cu(8)), ref(tx))), ref(acc)),
		),
	}
	uniform(k1, nil)
	return k1
}

func gemmIR() *ir.Kernel {
	c, a, b := bufParam("c", f32, 0, schema.AccessWrite), bufParam("a", f32, 1, schema.AccessRead), bufParam("b", f32, 2, schema.AccessRead)
	n := scalar("n", u32, 0)
	nn := &ir.ScalarRef{Param: n}
	as, bs := &ir.Shared{Name: "as", Elem: f32, Len: 256}, &ir.Shared{Name: "bs", Elem: f32, Len: 256}
	v := func(name string, t ir.Type) *ir.Var { return &ir.Var{Name: name, Type: t} }
	tx, ty, row, col, acc, k0, kk := v("tx", u32), v("ty", u32), v("row", u32), v("col", u32), v("acc", f32), v("k0", u32), v("k", u32)
	cond := bin(ir.OpLt, ref(k0), nn)
	at := func(x, y ir.Expr) ir.Expr { return bin(ir.OpAdd, bin(ir.OpMul, x, cu(16)), y) }
	k := &ir.Kernel{
		Name: "Gemm", Func: "Gemm", Block: [3]uint32{16, 16, 1},
		Params: []*ir.Param{c, a, b, n},
		Shared: []*ir.Shared{as, bs},
		Body: block(
			decl(tx, q(ir.LocalX)), decl(ty, q(ir.LocalY)),
			decl(row, bin(ir.OpAdd, bin(ir.OpMul, q(ir.GroupY), cu(16)), ref(ty))),
			decl(col, bin(ir.OpAdd, bin(ir.OpMul, q(ir.GroupX), cu(16)), ref(tx))),
			decl(acc, nil),
			block(
				decl(k0, cu(0)),
				&ir.Loop{
					Cond: cond,
					Post: block(set(ref(k0), bin(ir.OpAdd, ref(k0), cu(16)))),
					Body: block(
						set(idx(sh(as), at(ref(ty), ref(tx))), idx(buf(a), bin(ir.OpAdd, bin(ir.OpAdd, bin(ir.OpMul, ref(row), nn), ref(k0)), ref(tx)))),
						set(idx(sh(bs), at(ref(ty), ref(tx))), idx(buf(b), bin(ir.OpAdd, bin(ir.OpMul, bin(ir.OpAdd, ref(k0), ref(ty)), nn), ref(col)))),
						&ir.Barrier{},
						block(
							decl(kk, cu(0)),
							&ir.Loop{
								Cond: bin(ir.OpLt, ref(kk), cu(16)),
								Post: block(set(ref(kk), bin(ir.OpAdd, ref(kk), cu(1)))),
								Body: block(set(ref(acc), bin(ir.OpAdd, ref(acc),
									bin(ir.OpMul, idx(sh(as), at(ref(ty), ref(kk))), idx(sh(bs), at(ref(kk), ref(tx))))))),
							},
						),
						&ir.Barrier{},
					),
				},
			),
			set(idx(buf(c), bin(ir.OpAdd, bin(ir.OpMul, ref(row), nn), ref(col))), ref(acc)),
		),
	}
	uniform(k, nil, cond)
	return k
}

func histogramIR() *ir.Kernel {
	bins, in := bufParam("bins", u32, 0, schema.AccessAtomic), bufParam("in", u32, 1, schema.AccessRead)
	bins.AtomicElem = u32
	n := scalar("n", u32, 0)
	x := &ir.Var{Name: "x", Type: u32}
	bucket := &ir.Func{Name: "bucket", GoName: "bucket", Params: []*ir.Var{x}, Result: u32,
		Body: block(&ir.Return{Value: bin(ir.OpRem, ref(x), cu(8))})}
	i := &ir.Var{Name: "i", Type: u32}
	k := &ir.Kernel{
		Name: "Histogram", Func: "Histogram", Block: [3]uint32{64, 1, 1},
		Params: []*ir.Param{bins, in, n},
		Funcs:  []*ir.Func{bucket},
		Body: block(
			decl(i, q(ir.GlobalX)),
			&ir.If{Cond: bin(ir.OpGe, ref(i), &ir.ScalarRef{Param: n}), Then: block(&ir.Return{})},
			&ir.ExprStmt{X: &ir.Atomic{Op: ir.AtomicAdd, T: u32,
				Ptr:  idx(buf(bins), &ir.Call{Func: bucket, Args: []ir.Expr{idx(buf(in), ref(i))}}),
				Args: []ir.Expr{cu(1)}}},
		),
	}
	uniform(k, nil)
	return k
}

// barrierAfterDivergentReturn is refused: its barrier is in non-uniform
// flow.
func barrierAfterDivergentReturn() *ir.Kernel {
	n := scalar("n", u32, 0)
	bar := &ir.Barrier{Pos: ir.Pos{File: "k.go", Line: 9, Col: 2}}
	k := &ir.Kernel{
		Name: "Divergent", Block: [3]uint32{64, 1, 1}, Params: []*ir.Param{n},
		Body: block(
			&ir.If{Cond: bin(ir.OpGe, q(ir.GlobalX), &ir.ScalarRef{Param: n}), Then: block(&ir.Return{})},
			bar,
		),
	}
	uniform(k, []ir.Stmt{bar})
	return k
}

// barrierInDivergentLoop is refused: the loop around its barrier has a
// condition that is not uniform.
func barrierInDivergentLoop() *ir.Kernel {
	j := &ir.Var{Name: "j", Type: u32}
	k := &ir.Kernel{
		Name: "DivergentLoop", Block: [3]uint32{64, 1, 1},
		Body: block(
			decl(j, cu(0)),
			&ir.Loop{Cond: bin(ir.OpLt, ref(j), q(ir.LocalX)), Body: block(&ir.Barrier{}, set(ref(j), bin(ir.OpAdd, ref(j), cu(1))))},
		),
	}
	uniform(k, nil)
	return k
}

// breakOutOfBarrierLoop is refused: the loop runs around the work-item
// loops, so a break cannot leave it for one work-item.
func breakOutOfBarrierLoop() *ir.Kernel {
	k := &ir.Kernel{
		Name: "BreakOut", Block: [3]uint32{64, 1, 1},
		Body: block(&ir.Loop{Body: block(&ir.Barrier{}, &ir.Break{})}),
	}
	uniform(k, nil)
	return k
}

// constants exercises folding: none of these may reach Go as an
// overflowing constant.
func constantsIR() *ir.Kernel {
	out := bufParam("out", ir.I32Type, 0, schema.AccessWrite)
	i32 := func(v int32) *ir.Const { return &ir.Const{T: ir.I32Type, Bits: uint32(v)} }
	k := &ir.Kernel{
		Name: "Constants", Block: [3]uint32{1, 1, 1}, Params: []*ir.Param{out},
		Body: block(
			set(idx(buf(out), cu(0)), bin(ir.OpAdd, i32(math.MaxInt32), i32(1))),
			set(idx(buf(out), cu(1)), &ir.Unary{Op: ir.OpNeg, X: i32(math.MinInt32), T: ir.I32Type}),
			set(idx(buf(out), cu(2)), &ir.Convert{X: bin(ir.OpSub, cu(0), cu(1)), T: ir.I32Type}),
			set(idx(buf(out), cu(3)), &ir.Convert{X: bin(ir.OpDiv, cf(1), cf(0)), T: ir.I32Type}),
		),
	}
	uniform(k, nil)
	return k
}

// guardIR is a kernel whose one segment is i := t.GlobalX(), j := T(i) +
// k, if cond(j, m) { out[i] = x[i] + 1 }, with k and m uniforms of type t
// (int32 or uint32): the guard hoisted out of the work-item loop, under
// every comparison, with the bound on either side.
func guardIR(name string, t *ir.Basic, cond func(j, m ir.Expr) ir.Expr) *ir.Kernel {
	out, x := bufParam("out", f32, 0, schema.AccessWrite), bufParam("x", f32, 1, schema.AccessRead)
	k, m := scalar("k", t, 0), scalar("m", t, 4)
	i, j := &ir.Var{Name: "i", Type: u32}, &ir.Var{Name: "j", Type: t}
	var ti ir.Expr = ref(i)
	if t.Kind != ir.U32 {
		ti = &ir.Convert{X: ref(i), T: t}
	}
	kn := &ir.Kernel{
		Name: name, Func: name, Block: [3]uint32{64, 1, 1},
		Params: []*ir.Param{out, x, k, m},
		Body: block(
			decl(i, q(ir.GlobalX)),
			decl(j, bin(ir.OpAdd, ti, &ir.ScalarRef{Param: k})),
			&ir.If{Cond: cond(ref(j), &ir.ScalarRef{Param: m}), Then: block(
				set(idx(buf(out), ref(i)), bin(ir.OpAdd, idx(buf(x), ref(i)), cf(1))),
			)},
		),
	}
	uniform(kn, nil)
	return kn
}

// belowIR is Below: m >= i+k, uint32.
func belowIR() *ir.Kernel {
	return guardIR("Below", u32, func(j, m ir.Expr) ir.Expr { return bin(ir.OpGe, m, j) })
}

// aboveIR is Above: i+k > m, uint32.
func aboveIR() *ir.Kernel {
	return guardIR("Above", u32, func(j, m ir.Expr) ir.Expr { return bin(ir.OpGt, j, m) })
}

// signedBelowIR is SignedBelow: int32(i)+k < m.
func signedBelowIR() *ir.Kernel {
	return guardIR("SignedBelow", ir.I32Type, func(j, m ir.Expr) ir.Expr { return bin(ir.OpLt, j, m) })
}

// signedFromIR is SignedFrom: m <= int32(i)+k.
func signedFromIR() *ir.Kernel {
	return guardIR("SignedFrom", ir.I32Type, func(j, m ir.Expr) ir.Expr { return bin(ir.OpLe, m, j) })
}

// negativeShiftIR shifts by the int32 constant -1, which Go rejects at
// compile time and panics on at run time (as a thread query that folds to
// -1 is).
func negativeShiftIR() *ir.Kernel {
	out := bufParam("out", ir.I32Type, 0, schema.AccessWrite)
	cell := idx(buf(out), q(ir.GlobalX))
	k := &ir.Kernel{
		Name: "NegShift", Func: "NegShift", Block: [3]uint32{64, 1, 1},
		Params: []*ir.Param{out},
		Body: block(
			set(cell, bin(ir.OpShl, &ir.Const{T: ir.I32Type, Bits: 5}, &ir.Const{T: ir.I32Type, Bits: 0xffffffff})),
		),
	}
	uniform(k, nil)
	return k
}

// constantIndexIR reads a shared array and writes a buffer at indexes
// that fold to constants: BlockX-1 and 0 in range, BlockX and -1 out.
func constantIndexIR() *ir.Kernel {
	out := bufParam("out", f32, 0, schema.AccessWrite)
	s := &ir.Shared{Name: "s", Elem: f32, Len: 64}
	bx := q(ir.BlockX)
	minus1 := &ir.Convert{X: bin(ir.OpSub, bx, cu(65)), T: ir.I32Type}
	k := &ir.Kernel{
		Name: "ConstIndex", Func: "ConstIndex", Block: [3]uint32{64, 1, 1},
		Params: []*ir.Param{out}, Shared: []*ir.Shared{s},
		Body: block(
			set(idx(buf(out), cu(0)), idx(sh(s), bin(ir.OpSub, bx, cu(1)))),
			set(idx(buf(out), minus1), idx(sh(s), bx)),
		),
	}
	uniform(k, nil)
	return k
}
