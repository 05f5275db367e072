package frontend

// This file lowers the wave verbs (xpu.WaveSum, ...), wherever a value
// can be, in the kernel body and in device functions (WaveBallot in a
// wave of at most 32 lanes), and flattens an analyzed kernel for the
// lowerings (ir.Flatten).

import (
	"go/ast"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// wave lowers a call of the wave verb op: xpu.WaveSum(t, v), ...
func (f *fnState) wave(e *ast.CallExpr, op schema.WaveOp) ir.Expr {
	c := f.c
	nerr := f.trouble()
	want := 2
	if op.IsShuffle() {
		want = 3
	}
	if len(e.Args) != want {
		return f.bad()
	}
	if b := f.objBinding(e.Args[0]); b == nil || b.kind != bindThread {
		c.errorf(e.Args[0].Pos(), RuleUnsupported, "xpu.%s on a thread other than the kernel's parameter", op)
		return f.bad()
	}
	t := f.irTypeOf(e, nerr)
	if t == nil {
		return f.bad()
	}
	argT := t
	if op.IsPredicate() {
		argT = ir.BoolType
	}
	w := &ir.Wave{Op: op, T: t, Pos: c.pos(e.Pos()), Args: []ir.Expr{f.exprHint(e.Args[1], argT)}}
	if op.IsShuffle() {
		w.Args = append(w.Args, f.exprHint(e.Args[2], ir.U32Type))
	}
	if op == schema.WaveBallot && f.ks.k.Wave > 32 {
		c.errorf(e.Pos(), RuleWaveBallot, "xpu.WaveBallot in a kernel that declares wave=%d", f.ks.k.Wave)
	}
	return w
}

// flatten puts k's wave verbs in statements of their own and inlines the
// device functions that reach a barrier or a verb (ir.Flatten), then
// analyzes the result again for the lowerings.
func (c *checker) flatten(k *ir.Kernel) {
	if err := ir.Flatten(k); err != nil {
		c.errs = append(c.errs, &Error{Pos: k.Pos, Rule: string(RuleUnsupported), Msg: err.Error(), Fix: fixes[RuleUnsupported]})
		return
	}
	c.analyze(k)
}
