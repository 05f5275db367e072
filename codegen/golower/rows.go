package golower

import (
	"fmt"

	"github.com/goxpu/xpu/codegen/ir"
)

// This file writes a segment that copies one element per work-item, with
// the consecutive work-items of a row at consecutive elements on both
// sides, such as a tile load
//
//	for i := uint32(0); i < 4; i++ {
//		as[(ty+16*i)*16+tx] = a[(row0+ty+16*i)*n+k0+tx]
//	}
//
// a row at a time: for each row of the block the statements run once, as
// lane 0 would, and each copy moves the whole row (gpuimpl.CPUCopyRow). A row
// whose copy would reach outside its arrays runs lane by lane as written,
// and faults where the work-items would. The copies read no array the
// segment writes, so only work-items that write the same element (a race
// on every device) can tell the order apart.

// rows writes the segment stmts as row copies when they are, and reports
// whether it did.
func (g *gen) rows(stmts []ir.Stmt) bool {
	if g.done {
		return false
	}
	written, read := map[string]bool{}, map[string]bool{}
	if !g.rowStmts(stmts, map[*ir.Var]bool{}, written, read) {
		return false
	}
	for a := range read {
		if written[a] {
			return false
		}
	}
	open := 0
	for i, axis := range []string{"lz", "ly"} {
		if n := g.size[2-i]; n > 1 {
			g.line("for %s := uint32(0); %s < %d; %s++ {", axis, axis, n, axis)
			g.indent++
			open++
		}
	}
	g.line("{")
	g.nest(func() {
		g.line("lx := uint32(0)")
		g.line("li := %s", g.linear())
		g.line("_, _ = lx, li")
		g.loadRemat(g.rematNeeded(stmts))
		g.rowMode = true
		g.stmts(stmts)
		g.rowMode = false
	})
	g.line("}")
	for range open {
		g.indent--
		g.line("}")
	}
	return true
}

// linear spells the linear local index of (lx, ly, lz).
func (g *gen) linear() string {
	if g.size[1] == 1 && g.size[2] == 1 {
		return "lx"
	}
	return fmt.Sprintf("lx + %d*ly + %d*lz", g.size[0], g.size[0]*g.size[1])
}

// rowStmts reports whether stmts are copies, in blocks and in loops with
// constant bounds, and records the arrays they write and read.
func (g *gen) rowStmts(stmts []ir.Stmt, loops map[*ir.Var]bool, written, read map[string]bool) bool {
	for _, s := range stmts {
		if l, ok := matchCountLoop(s); ok {
			_, ok1 := fold(l.init)
			_, ok2 := fold(l.n)
			loops[l.v] = true
			if !ok1 || !ok2 || !g.rowStmts(l.body, loops, written, read) {
				return false
			}
			continue
		}
		switch s := s.(type) {
		case *ir.Block:
			if !g.rowStmts(s.Stmts, loops, written, read) {
				return false
			}
		case *ir.Assign:
			dst, ok1 := g.rowOperand(s.Dst, loops)
			src, ok2 := g.rowOperand(s.Value, loops)
			if !ok1 || !ok2 || typeName(dst.T) != typeName(src.T) {
				return false
			}
			written[g.expr(dst.X)] = true
			read[g.expr(src.X)] = true
		default:
			return false
		}
	}
	return true
}

// rowOperand accepts an element of a shared array or of a buffer not
// touched atomically whose index steps by one from lane to lane.
func (g *gen) rowOperand(e ir.Expr, loops map[*ir.Var]bool) (*ir.Index, bool) {
	ix, ok := e.(*ir.Index)
	if !ok || atomicElement(ix) || !isU32(ix.Index.Type()) {
		return nil, false
	}
	switch ix.X.(type) {
	case *ir.SharedRef, *ir.BufferRef:
	default:
		return nil, false
	}
	c, ok := g.laneStep(ix.Index, loops)
	return ix, ok && c == 1
}

// rowCopy writes a copy of the row mode: the whole row at once, or lane
// by lane as written where the row does not fit.
func (g *gen) rowCopy(s *ir.Assign) {
	dst, src := s.Dst.(*ir.Index), s.Value.(*ir.Index)
	g.line("if !%s(%s, %s, %s, %s, %d) {", g.call("gpuimpl", "CPUCopyRow"), g.sliceOf(dst.X), g.expr(dst.Index),
		g.sliceOf(src.X), g.expr(src.Index), g.size[0])
	g.nest(func() {
		g.rowMode = false
		g.line("for lx := uint32(0); lx < %d; lx++ {", g.size[0])
		g.nest(func() {
			g.line("li := %s", g.linear())
			g.line("_ = li")
			g.loadRemat(g.rematNeeded(nil, dst, src))
			g.stmt(s)
		})
		g.line("}")
		g.rowMode = true
	})
	g.line("}")
}

// laneStep returns the step of e, an int32 or uint32 value, from one lane
// of a row to the next (mod 2^32) when e is that step times lx plus a
// value the lanes of a row share, built without faults from constants,
// uniforms, the row's coordinates, recomputed variables and the counters
// of loops. Both integer types wrap alike, and a conversion between them
// keeps the bits, so one step serves either sign.
func (g *gen) laneStep(e ir.Expr, loops map[*ir.Var]bool) (uint32, bool) {
	if !ir.IsInteger(e.Type()) {
		return 0, false
	}
	if _, ok := fold(e); ok {
		return 0, true
	}
	switch e := e.(type) {
	case *ir.ScalarRef, *ir.Len:
		return 0, true
	case *ir.VarRef:
		switch {
		case loops[e.Var] || g.store.scalar[e.Var]:
			return 0, true
		case g.store.remat[e.Var] != nil:
			return g.laneStep(g.store.remat[e.Var].Init, loops)
		}
	case *ir.CallBuiltin:
		switch {
		case e.Fn == ir.LocalX || e.Fn == ir.GlobalX || e.Fn == ir.LocalIndex:
			return 1, true
		case e.Fn == ir.LocalY || e.Fn == ir.GlobalY || e.Fn == ir.LocalZ || e.Fn == ir.GlobalZ || blockBuiltin(e.Fn):
			return 0, true
		}
	case *ir.Convert:
		return g.laneStep(e.X, loops)
	case *ir.Binary:
		if mayPanic(e) {
			return 0, false
		}
		x, okx := g.laneStep(e.X, loops)
		y, oky := g.laneStep(e.Y, loops)
		if !okx || !oky {
			return 0, false
		}
		switch e.Op {
		case ir.OpAdd:
			return x + y, true
		case ir.OpSub:
			return x - y, true
		case ir.OpMul:
			if c, ok := fold(e.X); ok {
				return c.Bits * y, true
			}
			if c, ok := fold(e.Y); ok {
				return x * c.Bits, true
			}
		case ir.OpShl:
			if c, ok := fold(e.Y); ok && c.Bits < 32 {
				return x << c.Bits, true
			}
		}
		return 0, x == 0 && y == 0
	}
	return 0, false
}
