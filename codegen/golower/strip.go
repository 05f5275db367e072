package golower

import "github.com/goxpu/xpu/codegen/ir"

// This file recognizes the inner product of a segment and writes it as a
// strip dot product (gpu.CPUDotStrip): the segment
//
//	for k := k0; k < K; k++ {
//		acc += A[a + ay*ly + ak*k] * B[b + by*ly + bk*k + lx]
//	}
//
// with acc kept in a per-work-item array, K, k0, a and b uniform over the
// block, and the steps constants, is the same dot product for every
// work-item of a row with a shared A element and consecutive B elements.
// The strip runs the work-items of the block lane-wide, each with its own
// chain of products and sums in the order written, so the result is bit for
// bit that of the loop. Where the strip would reach outside its arrays, the
// work-item loop runs as written (and faults where it would have).

// stripMatch is a recognized inner product.
type stripMatch struct {
	k, acc  *ir.Var
	init, n ir.Expr // k0 and K
	a, b    ir.Expr // the indexed arrays: a broadcast, b consecutive
	ia, ib  ir.Expr // their indexes
	fa, fb  affine  // and the indexes' coefficients
}

// affine is the coefficients of an index that is c + x*lx + y*ly + k*k
// (mod 2^32) with c uniform over the block.
type affine struct{ x, y, k uint32 }

// strip writes the segment stmts as a strip dot product when they are one,
// with body (the work-item loop's body) as its fallback, and reports
// whether it did.
func (g *gen) strip(stmts []ir.Stmt, body string) bool {
	m, ok := g.matchStrip(stmts)
	if !ok {
		return false
	}
	bx, by := g.size[0], g.size[1]
	g.line("{")
	g.nest(func() {
		g.line("lx, ly, li := uint32(0), uint32(0), uint32(0)")
		g.line("_, _, _ = lx, ly, li")
		g.loadRemat(g.rematNeeded(nil, m.init, m.n, m.ia, m.ib))
		g.line("%s := %s", varName(m.k), g.expr(m.init))
		g.line("st := gpu.CPUDotStrip{Acc: a_%s[:], Lanes: %d, Rows: %d, AccRow: %d,", m.acc.Name, bx, by, bx)
		g.line("\tA: %s, AOff: int(%s), ARow: %d, AK: %d,", g.sliceOf(m.a), g.expr(m.ia), m.fa.y, m.fa.k)
		g.line("\tB: %s, BOff: int(%s), BRow: %d, BK: %d}", g.sliceOf(m.b), g.expr(m.ib), m.fb.y, m.fb.k)
		g.line("if kn := %s; kn > %s {", g.expr(m.n), varName(m.k))
		g.line("\tst.K = int(kn - %s)", varName(m.k))
		g.line("}")
		g.line("if !st.Run() {")
		g.nest(func() { g.items(body, g.usedLabel) })
		g.line("}")
	})
	g.line("}")
	return true
}

// sliceOf spells an indexed array as a slice.
func (g *gen) sliceOf(e ir.Expr) string {
	if _, ok := e.(*ir.SharedRef); ok {
		return g.expr(e) + "[:]"
	}
	return g.expr(e)
}

// matchStrip recognizes stmts as an inner product.
func (g *gen) matchStrip(stmts []ir.Stmt) (*stripMatch, bool) {
	if g.done || g.size[2] != 1 || len(stmts) != 1 {
		return nil, false
	}
	blk, ok := stmts[0].(*ir.Block)
	if !ok || len(blk.Stmts) != 2 {
		return nil, false
	}
	d, ok1 := blk.Stmts[0].(*ir.Decl)
	l, ok2 := blk.Stmts[1].(*ir.Loop)
	if !ok1 || !ok2 || d.Init == nil || !isU32(d.Var.Type) || l.Post == nil || l.Body == nil {
		return nil, false
	}
	m := &stripMatch{k: d.Var, init: d.Init}
	uniform := func(e ir.Expr) bool {
		return isU32(e.Type()) && pureExpr(e, func(v *ir.Var) bool { return g.store.scalar[v] }, false)
	}
	cond, ok := l.Cond.(*ir.Binary)
	if !ok || cond.Op != ir.OpLt || !isVar(cond.X, m.k) || !uniform(cond.Y) || !uniform(m.init) {
		return nil, false
	}
	m.n = cond.Y
	if len(l.Post.Stmts) != 1 || !isIncrement(l.Post.Stmts[0], m.k) || len(l.Body.Stmts) != 1 {
		return nil, false
	}
	set, ok := l.Body.Stmts[0].(*ir.Assign)
	if !ok {
		return nil, false
	}
	dst, ok := set.Dst.(*ir.VarRef)
	if !ok || !g.cross[dst.Var] || !isF32(dst.Var.Type) {
		return nil, false
	}
	m.acc = dst.Var
	sum, ok := set.Value.(*ir.Binary)
	if !ok || sum.Op != ir.OpAdd {
		return nil, false
	}
	prod := sum.Y
	if !isVar(sum.X, m.acc) {
		if !isVar(sum.Y, m.acc) {
			return nil, false
		}
		prod = sum.X
	}
	mul, ok := prod.(*ir.Binary)
	if !ok || mul.Op != ir.OpMul {
		return nil, false
	}
	p, ok1 := g.stripOperand(mul.X)
	q, ok2 := g.stripOperand(mul.Y)
	if !ok1 || !ok2 {
		return nil, false
	}
	fp, ok1 := g.affine(p.Index, m.k)
	fq, ok2 := g.affine(q.Index, m.k)
	if !ok1 || !ok2 {
		return nil, false
	}
	switch {
	case fp.x == 0 && fq.x == 1:
	case fp.x == 1 && fq.x == 0:
		p, q, fp, fq = q, p, fq, fp
	default:
		return nil, false
	}
	if !small(fp) || !small(fq) {
		return nil, false
	}
	m.a, m.ia, m.fa = p.X, p.Index, fp
	m.b, m.ib, m.fb = q.X, q.Index, fq
	return m, true
}

// stripOperand accepts a float32 element of a shared array or of a buffer
// not touched atomically.
func (g *gen) stripOperand(e ir.Expr) (*ir.Index, bool) {
	ix, ok := e.(*ir.Index)
	if !ok || !isF32(ix.T) || atomicElement(ix) {
		return nil, false
	}
	switch ix.X.(type) {
	case *ir.SharedRef, *ir.BufferRef:
		return ix, true
	}
	return nil, false
}

// affine returns the coefficients of e, a uint32 index, in lx, ly and k.
func (g *gen) affine(e ir.Expr, k *ir.Var) (affine, bool) {
	if !isU32(e.Type()) {
		return affine{}, false
	}
	if _, ok := fold(e); ok {
		return affine{}, true
	}
	switch e := e.(type) {
	case *ir.ScalarRef:
		return affine{}, true
	case *ir.VarRef:
		switch {
		case e.Var == k:
			return affine{k: 1}, true
		case g.store.scalar[e.Var]:
			return affine{}, true
		case g.store.remat[e.Var] != nil:
			return g.affine(g.store.remat[e.Var].Init, k)
		}
	case *ir.CallBuiltin:
		switch {
		case e.Fn == ir.LocalX || e.Fn == ir.GlobalX:
			return affine{x: 1}, true
		case e.Fn == ir.LocalY || e.Fn == ir.GlobalY:
			return affine{y: 1}, true
		case e.Fn == ir.LocalIndex:
			return affine{x: 1, y: g.size[0]}, true
		case e.Fn == ir.LocalZ || e.Fn == ir.GlobalZ || blockBuiltin(e.Fn):
			return affine{}, true
		}
	case *ir.Convert:
		return g.affine(e.X, k)
	case *ir.Binary:
		return g.affineBinary(e, k)
	}
	return affine{}, false
}

func (g *gen) affineBinary(e *ir.Binary, k *ir.Var) (affine, bool) {
	x, okx := g.affine(e.X, k)
	y, oky := g.affine(e.Y, k)
	if !okx || !oky {
		return affine{}, false
	}
	scale := func(f affine, c uint32) affine { return affine{f.x * c, f.y * c, f.k * c} }
	switch e.Op {
	case ir.OpAdd:
		return affine{x.x + y.x, x.y + y.y, x.k + y.k}, true
	case ir.OpSub:
		return affine{x.x - y.x, x.y - y.y, x.k - y.k}, true
	case ir.OpMul:
		if c, ok := fold(e.X); ok {
			return scale(y, c.Bits), true
		}
		if c, ok := fold(e.Y); ok {
			return scale(x, c.Bits), true
		}
	case ir.OpShl:
		if c, ok := fold(e.Y); ok && c.Bits < 32 {
			return scale(x, 1<<c.Bits), true
		}
	}
	return affine{}, x == affine{} && y == affine{} && e.Op != ir.OpDiv && e.Op != ir.OpRem
}

// small reports coefficients a strip can step by (below 2^31).
func small(f affine) bool { return f.x < 1<<31 && f.y < 1<<31 && f.k < 1<<31 }

func isU32(t ir.Type) bool { b, ok := t.(*ir.Basic); return ok && b.Kind == ir.U32 }

func isF32(t ir.Type) bool { b, ok := t.(*ir.Basic); return ok && b.Kind == ir.F32 }

func isVar(e ir.Expr, v *ir.Var) bool { r, ok := e.(*ir.VarRef); return ok && r.Var == v }

// isIncrement reports whether s is k = k + 1.
func isIncrement(s ir.Stmt, k *ir.Var) bool {
	a, ok := s.(*ir.Assign)
	if !ok || !isVar(a.Dst, k) {
		return false
	}
	b, ok := a.Value.(*ir.Binary)
	if !ok || b.Op != ir.OpAdd || !isVar(b.X, k) {
		return false
	}
	c, ok := fold(b.Y)
	return ok && c.Bits == 1
}
