package frontend

// This file lowers the wave verbs (xpu.WaveSum, ...) and checks where they
// may stand: as the whole value of a variable's declaration or assignment
// in the kernel body, and for WaveBallot in a wave of at most 32 lanes.

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
	if !f.kernel {
		c.errorf(e.Pos(), RuleWavePlacement, "xpu.%s in a device function", op)
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

// wavePlacement refuses a wave verb that is not the whole value of a
// variable's declaration or assignment (ir.WaveStmt).
func (c *checker) wavePlacement(k *ir.Kernel) {
	ir.WalkStmts(k.Body, func(s ir.Stmt) bool {
		top, _ := ir.WaveStmt(s)
		for _, x := range ir.StmtExprs(s) {
			ir.WalkExpr(x, func(x ir.Expr) bool {
				if w, ok := x.(*ir.Wave); ok && w != top {
					c.errs = append(c.errs, &Error{Pos: w.Pos, Rule: string(RuleWavePlacement),
						Msg: "xpu." + w.Op.String() + " inside an expression", Fix: fixes[RuleWavePlacement]})
				}
				return true
			})
		}
		return true
	})
}
