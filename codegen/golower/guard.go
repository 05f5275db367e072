package golower

import (
	"fmt"

	"github.com/goxpu/xpu/codegen/ir"
)

// This file hoists a segment's guard out of the work-item loop. In a
// block of one row, a segment that is (after declarations with no effect)
// one if without else, whose condition compares lx plus a value the
// block's work-items share with another shared value (i < n with i :=
// t.GlobalX()), runs its body for a run of consecutive lanes: when the
// left side cannot wrap across the block's lanes, its value at lane lx is
// its value at lane 0 plus lx, exactly, so the lanes that pass are those
// below (or from) one bound. The block computes that run once and the
// loop runs over it without the test; a block whose left side could wrap
// runs the loop as written. Lanes that fail the test do nothing the kernel
// could observe (the condition and the declarations before it cannot
// fault and write nothing that outlives the work-item), so skipping them
// changes neither results nor faults.

// guard is a segment's guard: e op u, e at step one from lane to lane and
// u shared by the lanes.
type guard struct {
	s    *ir.If
	e, u ir.Expr
	op   ir.Op // OpLt, OpLe, OpGt or OpGe, with e on the left
}

// laneGuard returns the guard of the segment stmts, or nil.
func (g *gen) laneGuard(stmts []ir.Stmt) *guard {
	if g.size[1] != 1 || g.size[2] != 1 || len(stmts) == 0 {
		return nil
	}
	last := len(stmts) - 1
	for _, s := range stmts[:last] {
		d, ok := s.(*ir.Decl)
		if !ok || !g.quietDecl(d) {
			return nil
		}
	}
	switch s := stmts[last].(type) {
	case *ir.Block:
		return g.laneGuard(s.Stmts)
	case *ir.If:
		if s.Else != nil && len(s.Else.Stmts) > 0 {
			return nil
		}
		return g.guardOf(s)
	}
	return nil
}

// quietDecl reports whether d declares a variable of the work-item alone
// (not kept across barriers, not a block scalar) from a value that cannot
// fault: a lane that skips it changes nothing.
func (g *gen) quietDecl(d *ir.Decl) bool {
	if g.cross[d.Var] || g.store.scalar[d.Var] {
		return false
	}
	return d.Init == nil || pureExpr(d.Init, func(*ir.Var) bool { return true }, true)
}

// guardOf returns the guard of s when its condition is one.
func (g *gen) guardOf(s *ir.If) *guard {
	c, ok := s.Cond.(*ir.Binary)
	if !ok || !ir.IsInteger(c.X.Type()) || typeName(c.X.Type()) != typeName(c.Y.Type()) {
		return nil
	}
	var flip ir.Op
	switch c.Op {
	case ir.OpLt:
		flip = ir.OpGt
	case ir.OpLe:
		flip = ir.OpGe
	case ir.OpGt:
		flip = ir.OpLt
	case ir.OpGe:
		flip = ir.OpLe
	default:
		return nil
	}
	x, okx := g.laneStep(c.X, nil)
	y, oky := g.laneStep(c.Y, nil)
	switch {
	case !okx || !oky:
		return nil
	case x == 1 && y == 0:
		return &guard{s: s, e: c.X, u: c.Y, op: c.Op}
	case x == 0 && y == 1:
		return &guard{s: s, e: c.Y, u: c.X, op: flip}
	}
	return nil
}

// guardRange writes the computation, at lane 0, of the run of lanes lo
// <= lx < hi that pass the guard, and gok, false where the lane's side
// of the comparison could wrap across the block's lanes. The bounds are taken in int64
// from the operands' own type, so a signed comparison stays signed.
func (g *gen) guardRange(gd *guard) {
	n := int64(g.size[0])
	top := int64(1<<32 - 1) // the largest value of the left side's type
	if k, _ := gd.e.Type().(*ir.Basic); k != nil && k.Kind == ir.I32 {
		top = 1<<31 - 1
	}
	g.line("// The guard %s holds for the lanes lo <= lx < hi; gok: %s", g.expr(gd.s.Cond), g.expr(gd.e))
	g.line("// steps by one from lane to lane without wrapping.")
	g.line("lo, hi, gok := uint32(0), uint32(0), false")
	g.line("if e0, u0 := int64(%s), int64(%s); e0 <= %d {", g.expr(gd.e), g.expr(gd.u), top-(n-1))
	g.nest(func() {
		g.line("gok = true")
		switch gd.op {
		case ir.OpLt:
			g.line("hi = uint32(min(max(u0-e0, 0), %d))", n)
		case ir.OpLe:
			g.line("hi = uint32(min(max(u0-e0+1, 0), %d))", n)
		case ir.OpGt:
			g.line("lo, hi = uint32(min(max(u0-e0+1, 0), %d)), %d", n, n)
		case ir.OpGe:
			g.line("lo, hi = uint32(min(max(u0-e0, 0), %d)), %d", n, n)
		}
	})
	g.line("}")
}

// guardNote is the comment on the block that stands for the guarded if
// in a loop over the guard's lanes.
func (g *gen) guardNote(gd *guard) string {
	return fmt.Sprintf("// %s holds for lo <= lx < hi", g.expr(gd.s.Cond))
}
