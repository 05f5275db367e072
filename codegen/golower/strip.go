package golower

import "github.com/goxpu/xpu/codegen/ir"

// This file recognizes the inner product of a segment and writes it as a
// strip dot product (gpuimpl.CPUDotStrip): the segment
//
//	for k := k0; k < K; k++ {
//		acc += A[a + ay*ly + ak*k] * B[b + by*ly + bk*k + lx]
//	}
//
// with acc kept in a per-work-item array, K, k0, a and b uniform over the
// block, and the steps constants, is the same dot product for every
// work-item of a row with a shared A element and consecutive B elements.
// The accumulator may also be a micro-tile: an element of a private
// array kept across barriers, indexed by the counters i and j of loops
// with constant bounds nested with the k loop in any order,
//
//	acc[c + ci*i + cj*j] += A[... + ai*i + ak*k] * B[... + bj*j + bk*k + lx]
//
// (the sum may be written either way round), so that each work-item adds
// the products of a row of A's tile and a column of B's. The strip runs
// the work-items of the block lane-wide, each element of each work-item
// with its own chain of products and sums in the order written, so the
// result is bit for bit that of the loop. Where the strip would reach
// outside its arrays, the work-item loop runs as written (and faults
// where it would have).

// stripMatch is a recognized inner product.
type stripMatch struct {
	k, acc  *ir.Var
	init, n ir.Expr    // k0 and K
	cells   [2]*ir.Var // the micro-tile's counters i and j, or nil
	ncell   [2]uint32  // and their counts
	accAt   [3]uint32  // the accumulator element: c, ci and cj
	a, b    ir.Expr    // the indexed arrays: a broadcast, b consecutive
	ia, ib  ir.Expr    // their indexes
	fa, fb  affine     // and the indexes' coefficients
}

// affine is the coefficients of an index that is c + x*lx + y*ly + k*k +
// i*i + j*j (mod 2^32) with c uniform over the block.
type affine struct{ x, y, k, i, j uint32 }

// counters are the loop counters an index may step with: k, i and j.
type counters [3]*ir.Var

// countLoop is a loop `for v := init; v < n; v++` of a segment.
type countLoop struct {
	v       *ir.Var
	init, n ir.Expr
	body    []ir.Stmt
}

// strip writes the segment stmts as a strip dot product when they are one,
// with body (the work-item loop's body) as its fallback, and reports
// whether it did.
func (g *gen) strip(stmts []ir.Stmt, body string) bool {
	m, ok := g.matchStrip(stmts)
	if !ok {
		return false
	}
	bx, by := g.size[0], g.size[1]
	bn := g.blockCount()
	g.line("{")
	g.nest(func() {
		g.line("lx := uint32(0)")
		g.line("ly := uint32(0)")
		g.line("li := uint32(0)")
		g.line("_, _, _ = lx, ly, li")
		g.loadRemat(g.rematNeeded(nil, m.init, m.n, m.ia, m.ib))
		g.line("%s := %s", varName(m.k), g.expr(m.init))
		for _, c := range m.cells {
			if c != nil {
				g.line("%s := uint32(0)", varName(c))
			}
		}
		g.line("st := %s.CPUDotStrip{Acc: a_%s[:], AccOff: %d, Lanes: %d, Rows: %d, AccRow: %d,",
			g.gpu, m.acc.Name, m.accAt[0]*bn, bx, by, bx)
		g.line("\tI: %d, J: %d, AccI: %d, AccJ: %d,", max(m.ncell[0], 1), max(m.ncell[1], 1), m.accAt[1]*bn, m.accAt[2]*bn)
		g.line("\tA: %s, AOff: int(%s), ARow: %d, AI: %d, AK: %d,", g.sliceOf(m.a), g.expr(m.ia), m.fa.y, m.fa.i, m.fa.k)
		g.line("\tB: %s, BOff: int(%s), BRow: %d, BJ: %d, BK: %d}", g.sliceOf(m.b), g.expr(m.ib), m.fb.y, m.fb.j, m.fb.k)
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
	if g.done || g.size[2] != 1 {
		return nil, false
	}
	var loops []countLoop
	for len(stmts) == 1 {
		if l, ok := matchCountLoop(stmts[0]); ok {
			loops = append(loops, l)
			stmts = l.body
			continue
		}
		b, ok := stmts[0].(*ir.Block)
		if !ok {
			break
		}
		stmts = b.Stmts
	}
	if len(stmts) != 1 || len(loops) == 0 || len(loops) > 3 {
		return nil, false
	}
	set, ok := stmts[0].(*ir.Assign)
	if !ok {
		return nil, false
	}
	m := &stripMatch{}
	if !g.matchAcc(m, set, loops) {
		return nil, false
	}
	sum := set.Value.(*ir.Binary)
	prod := sum.Y
	if g.place(set.Dst) != g.expr(sum.X) {
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
	cs := counters{m.k, m.cells[0], m.cells[1]}
	fp, ok1 := g.affine(p.Index, cs)
	fq, ok2 := g.affine(q.Index, cs)
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
	// Each cell counter steps one operand only: i the broadcast A, j the
	// consecutive B, whichever loop is the outer one.
	if fp.i == 0 && fq.i != 0 {
		m.cells[0], m.cells[1] = m.cells[1], m.cells[0]
		m.ncell[0], m.ncell[1] = m.ncell[1], m.ncell[0]
		m.accAt[1], m.accAt[2] = m.accAt[2], m.accAt[1]
		fp.i, fp.j, fq.i, fq.j = fp.j, fp.i, fq.j, fq.i
	}
	if fp.j != 0 || fq.i != 0 || m.cells[0] != nil && fp.i == 0 || m.cells[1] != nil && fq.j == 0 {
		return nil, false
	}
	m.a, m.ia, m.fa = p.X, p.Index, fp
	m.b, m.ib, m.fb = q.X, q.Index, fq
	return m, true
}

// matchCountLoop recognizes s as `{ v := init; for v < n { ... }; v++ }`
// over a uint32 counter.
func matchCountLoop(s ir.Stmt) (countLoop, bool) {
	blk, ok := s.(*ir.Block)
	if !ok || len(blk.Stmts) != 2 {
		return countLoop{}, false
	}
	d, ok1 := blk.Stmts[0].(*ir.Decl)
	l, ok2 := blk.Stmts[1].(*ir.Loop)
	if !ok1 || !ok2 || d.Init == nil || !isU32(d.Var.Type) || l.Post == nil || l.Body == nil {
		return countLoop{}, false
	}
	cond, ok := l.Cond.(*ir.Binary)
	if !ok || cond.Op != ir.OpLt || !isVar(cond.X, d.Var) {
		return countLoop{}, false
	}
	if len(l.Post.Stmts) != 1 || !isIncrement(l.Post.Stmts[0], d.Var) {
		return countLoop{}, false
	}
	return countLoop{v: d.Var, init: d.Init, n: cond.Y, body: l.Body.Stmts}, true
}

// matchAcc recognizes the accumulator of set, acc = acc + product, and
// the roles of the loops around it: the one loop its element does not
// depend on is k, with uniform bounds; the others count cells of a
// micro-tile from zero to a constant, each to its own elements.
func (g *gen) matchAcc(m *stripMatch, set *ir.Assign, loops []countLoop) bool {
	sum, ok := set.Value.(*ir.Binary)
	if !ok || sum.Op != ir.OpAdd || !isF32(set.Dst.Type()) {
		return false
	}
	dst := g.place(set.Dst)
	if dst != g.expr(sum.X) && dst != g.expr(sum.Y) {
		return false
	}
	uniform := func(e ir.Expr) bool {
		return isU32(e.Type()) && pureExpr(e, func(v *ir.Var) bool { return g.store.scalar[v] }, false)
	}
	var index ir.Expr
	switch d := set.Dst.(type) {
	case *ir.VarRef:
		m.acc = d.Var
	case *ir.Index:
		r, ok := d.X.(*ir.VarRef)
		if !ok {
			return false
		}
		m.acc, index = r.Var, d.Index
	default:
		return false
	}
	if !g.cross[m.acc] {
		return false
	}
	if index == nil {
		if len(loops) != 1 || !uniform(loops[0].init) || !uniform(loops[0].n) {
			return false
		}
		m.k, m.init, m.n = loops[0].v, loops[0].init, loops[0].n
		return true
	}
	arr, ok := laneMajor(m.acc)
	if !ok || !isF32(arr.Elem) {
		return false
	}
	env := map[*ir.Var]uint32{}
	for _, l := range loops {
		env[l.v] = 0
	}
	base, ok := constAt(index, env)
	if !ok {
		return false
	}
	m.accAt[0] = base
	var cells []countLoop
	for _, l := range loops {
		env[l.v] = 1
		at, ok := constAt(index, env)
		env[l.v] = 0
		switch {
		case !ok:
			return false
		case at == base:
			if m.k != nil || !uniform(l.init) || !uniform(l.n) {
				return false
			}
			m.k, m.init, m.n = l.v, l.init, l.n
		default:
			c0, ok1 := fold(l.init)
			cn, ok2 := fold(l.n)
			if !ok1 || !ok2 || c0.Bits != 0 || cn.Bits == 0 || cn.Bits > 64 {
				return false
			}
			m.accAt[1+len(cells)] = at - base
			m.cells[len(cells)], m.ncell[len(cells)] = l.v, cn.Bits
			cells = append(cells, l)
		}
	}
	if m.k == nil {
		return false
	}
	return accIndexes(index, env, m, arr.Len)
}

// accIndexes checks, cell by cell, that the accumulator's index is
// c + ci*i + cj*j and stays inside the array.
func accIndexes(index ir.Expr, env map[*ir.Var]uint32, m *stripMatch, n int) bool {
	ni, nj := max(m.ncell[0], 1), max(m.ncell[1], 1)
	for i := range ni {
		for j := range nj {
			if m.cells[0] != nil {
				env[m.cells[0]] = i
			}
			if m.cells[1] != nil {
				env[m.cells[1]] = j
			}
			at, ok := constAt(index, env)
			if !ok || at != m.accAt[0]+i*m.accAt[1]+j*m.accAt[2] || at >= uint32(n) {
				return false
			}
		}
	}
	return true
}

// constAt evaluates a uint32 index built of constants and the variables
// of env, with the IR's wrapping arithmetic.
func constAt(e ir.Expr, env map[*ir.Var]uint32) (uint32, bool) {
	if c, ok := fold(e); ok {
		return c.Bits, isU32(c.T)
	}
	switch e := e.(type) {
	case *ir.VarRef:
		v, ok := env[e.Var]
		return v, ok
	case *ir.Binary:
		x, ok1 := constAt(e.X, env)
		y, ok2 := constAt(e.Y, env)
		if !ok1 || !ok2 || !isU32(e.T) {
			return 0, false
		}
		switch e.Op {
		case ir.OpAdd:
			return x + y, true
		case ir.OpSub:
			return x - y, true
		case ir.OpMul:
			return x * y, true
		case ir.OpShl:
			return x << y, true
		}
	}
	return 0, false
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

// affine returns the coefficients of e, a uint32 index, in lx, ly and the
// counters cs.
func (g *gen) affine(e ir.Expr, cs counters) (affine, bool) {
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
		case e.Var == cs[0]:
			return affine{k: 1}, true
		case e.Var == cs[1]:
			return affine{i: 1}, true
		case e.Var == cs[2]:
			return affine{j: 1}, true
		case g.store.scalar[e.Var]:
			return affine{}, true
		case g.store.remat[e.Var] != nil:
			return g.affine(g.store.remat[e.Var].Init, cs)
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
		return g.affine(e.X, cs)
	case *ir.Binary:
		return g.affineBinary(e, cs)
	}
	return affine{}, false
}

func (g *gen) affineBinary(e *ir.Binary, cs counters) (affine, bool) {
	x, okx := g.affine(e.X, cs)
	y, oky := g.affine(e.Y, cs)
	if !okx || !oky {
		return affine{}, false
	}
	scale := func(f affine, c uint32) affine { return affine{f.x * c, f.y * c, f.k * c, f.i * c, f.j * c} }
	switch e.Op {
	case ir.OpAdd:
		return affine{x.x + y.x, x.y + y.y, x.k + y.k, x.i + y.i, x.j + y.j}, true
	case ir.OpSub:
		return affine{x.x - y.x, x.y - y.y, x.k - y.k, x.i - y.i, x.j - y.j}, true
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
	return affine{}, x == affine{} && y == affine{} && !mayPanic(e)
}

// small reports coefficients a strip can step by (below 2^31).
func small(f affine) bool {
	return f.x < 1<<31 && f.y < 1<<31 && f.k < 1<<31 && f.i < 1<<31 && f.j < 1<<31
}

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
