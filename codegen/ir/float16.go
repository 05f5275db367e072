package ir

// This file builds the device functions of xpu.Float16's conversions, in
// 32-bit integer arithmetic that every lowering already has, so that each
// backend converts exactly (WGSL's pack2x16float and unpack2x16float leave
// rounding and subnormals to the device). They follow xpu's own
// Float16.Float32 and Float16From step for step; the conformance suite
// compares them on every binary16 value.

// f16 builds one function's statements.
type f16 struct{ f *Func }

func (b *f16) v(name string) *Var { return &Var{Name: name, Type: U32Type, Pos: b.f.Pos} }

func c32(v uint32) Expr { return &Const{T: U32Type, Bits: v} }

func vr(v *Var) Expr { return &VarRef{Var: v} }

func op(o Op, x, y Expr) Expr {
	t := x.Type()
	if o >= OpEq && o <= OpLOr {
		t = BoolType
	}
	return &Binary{Op: o, X: x, Y: y, T: t}
}

func (b *f16) decl(v *Var, x Expr) Stmt { return &Decl{Var: v, Init: x, Pos: b.f.Pos} }
func (b *f16) set(v *Var, x Expr) Stmt  { return &Assign{Dst: vr(v), Value: x, Pos: b.f.Pos} }

// cases is an if-else chain: pairs of a condition and its statements,
// and an else block at the end.
func (b *f16) cases(conds []Expr, bodies [][]Stmt) Stmt {
	var out *If
	var last *If
	for i, c := range conds {
		n := &If{Cond: c, Then: &Block{Stmts: bodies[i]}, Pos: b.f.Pos}
		if out == nil {
			out = n
		} else {
			last.Else = &Block{Stmts: []Stmt{n}}
		}
		last = n
	}
	return out
}

// roundUp returns r = r + 1 when rem is past half, or at half with r odd:
// rounding to nearest, ties to even.
func (b *f16) roundUp(r *Var, rem, half Expr) Stmt {
	odd := op(OpNe, op(OpAnd, vr(r), c32(1)), c32(0))
	up := op(OpLOr, op(OpGt, rem, half), op(OpLAnd, op(OpEq, rem, half), odd))
	return &If{Cond: up, Then: &Block{Stmts: []Stmt{b.set(r, op(OpAdd, vr(r), c32(1)))}}, Pos: b.f.Pos}
}

// Float16ToFloat32 returns the device function name(h uint16) float32 of
// xpu.Float16.Float32.
func Float16ToFloat32(name string, p Pos) *Func {
	f := &Func{Name: name, GoName: "Float16.Float32", Result: F32Type, Pos: p}
	b := &f16{f}
	h := &Var{Name: "h", Type: Float16Type, Pos: p}
	f.Params = []*Var{h}
	x, s, e, m, r, sh := b.v("x"), b.v("s"), b.v("e"), b.v("m"), b.v("r"), b.v("sh")
	nan := []Stmt{
		b.set(r, op(OpOr, op(OpOr, vr(s), c32(0x7f800000)), op(OpShl, vr(m), c32(13)))),
		&If{Cond: op(OpNe, vr(m), c32(0)), Then: &Block{Stmts: []Stmt{b.set(r, op(OpOr, vr(r), c32(0x400000)))}}, Pos: p},
	}
	normal := []Stmt{b.set(r, op(OpOr, op(OpOr, vr(s), op(OpShl, op(OpAdd, vr(e), c32(112)), c32(23))), op(OpShl, vr(m), c32(13))))}
	lz := &CallBuiltin{Fn: LeadingZeros32, Args: []Expr{vr(m)}, T: U32Type}
	sub := []Stmt{
		b.decl(sh, op(OpSub, lz, c32(21))),
		b.set(r, op(OpOr, op(OpOr, vr(s), op(OpShl, op(OpSub, c32(113), vr(sh)), c32(23))),
			op(OpShl, op(OpAnd, op(OpShl, vr(m), vr(sh)), c32(0x3ff)), c32(13)))),
	}
	f.Body = &Block{Stmts: []Stmt{
		b.decl(x, &Convert{X: vr(h), T: U32Type}),
		b.decl(s, op(OpShl, op(OpAnd, vr(x), c32(0x8000)), c32(16))),
		b.decl(e, op(OpAnd, op(OpShr, vr(x), c32(10)), c32(0x1f))),
		b.decl(m, op(OpAnd, vr(x), c32(0x3ff))),
		b.decl(r, vr(s)),
		b.cases([]Expr{op(OpEq, vr(e), c32(0x1f)), op(OpNe, vr(e), c32(0)), op(OpNe, vr(m), c32(0))}, [][]Stmt{nan, normal, sub}),
		&Return{Value: &Bitcast{X: vr(r), T: F32Type}, Pos: p},
	}}
	return f
}

// Float32ToFloat16 returns the device function name(f float32) uint16 of
// xpu.Float16From.
func Float32ToFloat16(name string, p Pos) *Func {
	fn := &Func{Name: name, GoName: "Float16From", Result: Float16Type, Pos: p}
	b := &f16{fn}
	f := &Var{Name: "f", Type: F32Type, Pos: p}
	fn.Params = []*Var{f}
	x, s, e, m, r := b.v("x"), b.v("s"), b.v("e"), b.v("m"), b.v("r")
	rem1, mm, sh, rem2, half := b.v("rem1"), b.v("mm"), b.v("sh"), b.v("rem2"), b.v("half")
	inf := op(OpOr, vr(s), c32(0x7c00))
	nan := []Stmt{
		b.set(r, inf),
		&If{Cond: op(OpNe, vr(m), c32(0)), Then: &Block{Stmts: []Stmt{b.set(r, op(OpOr, op(OpOr, vr(r), c32(0x200)), op(OpShr, vr(m), c32(13))))}}, Pos: p},
	}
	normal := []Stmt{
		b.set(r, op(OpOr, op(OpShl, op(OpSub, vr(e), c32(112)), c32(10)), op(OpShr, vr(m), c32(13)))),
		b.decl(rem1, op(OpAnd, vr(m), c32(0x1fff))),
		b.roundUp(r, vr(rem1), c32(0x1000)),
		b.set(r, op(OpOr, vr(r), vr(s))),
	}
	sub := []Stmt{
		b.decl(mm, op(OpOr, vr(m), c32(0x800000))),
		b.decl(sh, op(OpSub, c32(126), vr(e))),
		b.set(r, op(OpShr, vr(mm), vr(sh))),
		b.decl(rem2, op(OpAnd, vr(mm), op(OpSub, op(OpShl, c32(1), vr(sh)), c32(1)))),
		b.decl(half, op(OpShl, c32(1), op(OpSub, vr(sh), c32(1)))),
		b.roundUp(r, vr(rem2), vr(half)),
		b.set(r, op(OpOr, vr(r), vr(s))),
	}
	fn.Body = &Block{Stmts: []Stmt{
		b.decl(x, &Bitcast{X: vr(f), T: U32Type}),
		b.decl(s, op(OpAnd, op(OpShr, vr(x), c32(16)), c32(0x8000))),
		b.decl(e, op(OpAnd, op(OpShr, vr(x), c32(23)), c32(0xff))),
		b.decl(m, op(OpAnd, vr(x), c32(0x7fffff))),
		b.decl(r, vr(s)),
		b.cases([]Expr{op(OpEq, vr(e), c32(0xff)), op(OpGe, vr(e), c32(143)), op(OpGe, vr(e), c32(113)), op(OpGe, vr(e), c32(102))},
			[][]Stmt{nan, {b.set(r, inf)}, normal, sub}),
		&Return{Value: &Convert{X: vr(r), T: Float16Type}, Pos: p},
	}}
	return fn
}
