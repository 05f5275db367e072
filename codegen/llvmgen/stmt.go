package llvmgen

// This file lowers statements. Uniform control flow (the uniformity
// analysis says so) is branches; divergent control flow runs under the
// execution mask (g.cur): an if runs its then-part for the lanes whose
// condition holds and its else-part for the others, skipping a part no
// lane runs; a loop iterates while a lane is active; break, continue and
// return take lanes out of the mask, into the loop's or function's
// record of them.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
)

// loopFrame is a loop being lowered.
type loopFrame struct {
	uniform    bool
	exit, post *llvm.Block // a uniform loop's targets
	done, cont llvm.Value  // a masked loop's slots: lanes that left it, lanes that continue
}

// retFrame is the function being lowered: the kernel or an inlined
// device function.
type retFrame struct {
	kernel  bool
	exit    *llvm.Block
	result  *variable  // a device function's result slot
	retMask llvm.Value // slot: the lanes that returned (device functions)
}

// block lowers the statements of b. It returns true when every lane that
// entered has left (by break, continue or return).
func (g *gen) block(b *ir.Block) bool {
	if b == nil {
		return false
	}
	for _, s := range b.Stmts {
		if g.stmt(s) || g.b.Block.Terminated() {
			return true
		}
	}
	return false
}

func (g *gen) stmt(s ir.Stmt) bool {
	g.flow = g.simt() || !g.forced && (g.full || g.u.Flow[s])
	switch s := s.(type) {
	case *ir.Barrier:
		if !g.simt() {
			g.fail("a barrier the loop fission did not split at")
		}
		g.pos = s.Pos
		g.barrier()
	case *ir.Block:
		return g.block(s)
	case *ir.Decl:
		g.pos = s.Pos
		g.declare(s.Var, s.Init)
	case *ir.Assign:
		g.pos = s.Pos
		g.assignStmt(s)
	case *ir.ExprStmt:
		g.pos = s.Pos
		g.expr(s.X)
	case *ir.If:
		g.pos = s.Pos
		return g.ifStmt(s)
	case *ir.Loop:
		g.pos = s.Pos
		g.loop(s)
	case *ir.Break:
		g.pos = s.Pos
		return g.leave(true)
	case *ir.Continue:
		g.pos = s.Pos
		return g.leave(false)
	case *ir.Return:
		g.pos = s.Pos
		return g.returnStmt(s)
	default:
		g.fail("a statement of type %T", s)
	}
	return false
}

func (g *gen) assignStmt(s *ir.Assign) {
	if _, ok := s.Dst.Type().(*ir.Array); ok {
		if inMemory(s.Dst) {
			p := g.placeOf(s.Dst)
			src := g.arrayOf(s.Value)
			g.store(p, g.loadSlot(src.ptr, src.lt))
			return
		}
		dst := g.arrayOf(s.Dst)
		g.copyArray(dst, g.arrayOf(s.Value), false)
		return
	}
	p := g.placeOf(s.Dst)
	x := g.expr(s.Value)
	g.store(p, x)
}

func (g *gen) ifStmt(s *ir.If) bool {
	cv := g.expr(s.Cond)
	c := cv.x
	b := g.b
	if !isVec(c) {
		tb, eb, after := b.NewBlock("then"), b.NewBlock("else"), b.NewBlock("endif")
		b.CondBr(c, tb, eb)
		b.SetBlock(tb)
		lt := g.block(s.Then)
		if !b.Block.Terminated() {
			b.Br(after)
		}
		b.SetBlock(eb)
		le := g.block(s.Else)
		if !b.Block.Terminated() {
			b.Br(after)
		}
		b.SetBlock(after)
		return lt && le
	}
	m0 := g.mask()
	if !g.coherent(s) {
		return g.maskedIf(s, m0, c)
	}
	// Every lane of the chunk taking the then-part (the guard of a
	// work-item in range, but in the last chunk) runs a copy of it lowered
	// for all lanes: unmasked accesses, no blends, no tests of the mask.
	every := cv.all // a ramp's guard: one scalar test
	switch {
	case every == nil:
		every = g.all(b.And(m0, c))
	case !g.allActive():
		every = b.And(every, g.all(m0))
	}
	all, some, join := b.NewBlock("then.all"), b.NewBlock("then.some"), b.NewBlock("endif.all")
	b.CondBr(every, all, some)
	b.SetBlock(all)
	full, flow := g.full, g.flow
	g.full, g.copying = true, true
	g.block(s.Then)
	g.full, g.copying = full, false
	if !b.Block.Terminated() {
		b.Br(join)
	}
	b.SetBlock(some)
	g.flow = flow
	g.maskedIf(s, m0, c)
	if !b.Block.Terminated() {
		b.Br(join)
	}
	b.SetBlock(join)
	g.flow = false
	return false
}

// maxCoherent bounds the statements of a then-part lowered twice.
const maxCoherent = 64

// coherent reports whether the divergent if s has its then-part lowered
// a second time for a chunk whose lanes all take it: an if without an
// else, of a then-part of at most maxCoherent statements, anywhere
// outside such a copy (masked code within one included: copies in copies
// would double the code at each depth) and outside a device function
// inlined for varying arguments.
func (g *gen) coherent(s *ir.If) bool {
	if g.copying || g.forced || s.Else != nil && len(s.Else.Stmts) > 0 {
		return false
	}
	n := 0
	ir.WalkStmts(s.Then, func(ir.Stmt) bool { n++; return n <= maxCoherent })
	return n <= maxCoherent
}

// maskedIf lowers the divergent if s under the mask: m0 the lanes that
// reach it, c its condition per lane.
func (g *gen) maskedIf(s *ir.If, m0, c llvm.Value) bool {
	b := g.b
	full := g.full
	g.full = false
	defer func() { g.full = full }()
	mt := b.And(m0, c)
	me := b.And(m0, g.not(c))
	g.setMask(mt)
	lt := false
	g.ifThen(g.any(mt), "then", func() { lt = g.block(s.Then) })
	t := g.mask()
	le := false
	if s.Else != nil && len(s.Else.Stmts) > 0 {
		g.setMask(me)
		g.ifThen(g.any(me), "else", func() { le = g.block(s.Else) })
		e := g.mask()
		g.setMask(b.Or(t, e))
	} else {
		g.setMask(b.Or(t, me))
	}
	g.flow = false
	return lt && le
}

// uniformLoop reports whether s runs as a plain loop: entered in uniform
// control flow, with a uniform condition and no break, continue or
// return under a divergent one.
func (g *gen) uniformLoop(s *ir.Loop) bool {
	if g.simt() {
		return true
	}
	u := g.u
	if g.forced || !u.Flow[s] || s.Cond != nil && !u.Value[s.Cond] {
		return false
	}
	ok := true
	var visit func(b *ir.Block, inner bool)
	visit = func(b *ir.Block, inner bool) {
		if b == nil {
			return
		}
		for _, st := range b.Stmts {
			switch st := st.(type) {
			case *ir.Return:
				ok = ok && u.Flow[st]
			case *ir.Break, *ir.Continue:
				ok = ok && (inner || u.Flow[st])
			case *ir.Block:
				visit(st, inner)
			case *ir.If:
				visit(st.Then, inner)
				visit(st.Else, inner)
			case *ir.Loop:
				visit(st.Body, true)
				visit(st.Post, true)
			}
		}
	}
	visit(s.Body, false)
	visit(s.Post, false)
	return ok
}

func (g *gen) loop(s *ir.Loop) {
	b := g.b
	if g.uniformLoop(s) {
		head, body, post, exit := b.NewBlock("loop"), b.NewBlock("loop.body"), b.NewBlock("loop.post"), b.NewBlock("loop.exit")
		b.Br(head)
		b.SetBlock(head)
		if !g.short(s) {
			g.stopCheck()
		}
		if s.Cond != nil {
			g.flow = true
			c := g.expr(s.Cond).x
			if isVec(c) {
				g.fail("a uniform loop condition lowered as varying")
			}
			b.CondBr(c, body, exit)
		} else {
			b.Br(body)
		}
		b.SetBlock(body)
		g.loops = append(g.loops, &loopFrame{uniform: true, exit: exit, post: post})
		g.block(s.Body)
		if !b.Block.Terminated() {
			b.Br(post)
		}
		b.SetBlock(post)
		g.flow = true
		g.block(s.Post)
		g.loops = g.loops[:len(g.loops)-1]
		if !b.Block.Terminated() {
			b.Br(head)
		}
		b.SetBlock(exit)
		return
	}
	full := g.full // a masked loop's lanes leave it one by one
	g.full = false
	defer func() { g.full = full }()
	done := b.Alloca("done", g.vec(llvm.I1), 1)
	cont := b.Alloca("cont", g.vec(llvm.I1), 1)
	b.Store(g.noLanes(), done, 1)
	b.Store(g.noLanes(), cont, 1)
	head, body, exit := b.NewBlock("loop"), b.NewBlock("loop.body"), b.NewBlock("loop.exit")
	b.Br(head)
	b.SetBlock(head)
	if !g.short(s) {
		g.stopCheck()
	}
	g.flow = false
	if s.Cond != nil {
		c := g.splat(g.expr(s.Cond).x)
		m := g.mask()
		b.Store(b.Or(b.Load(g.vec(llvm.I1), done, 1), b.And(m, g.not(c))), done, 1)
		g.setMask(b.And(m, c))
	}
	b.CondBr(g.any(g.mask()), body, exit)
	b.SetBlock(body)
	g.loops = append(g.loops, &loopFrame{done: done, cont: cont})
	g.block(s.Body)
	g.flow = false
	if !b.Block.Terminated() {
		g.setMask(b.Or(g.mask(), b.Load(g.vec(llvm.I1), cont, 1)))
		b.Store(g.noLanes(), cont, 1)
		g.block(s.Post)
	}
	g.loops = g.loops[:len(g.loops)-1]
	if !b.Block.Terminated() {
		b.Br(head)
	}
	b.SetBlock(exit)
	g.setMask(b.Load(g.vec(llvm.I1), done, 1))
	g.flow = false
}

// maxShort is the most iterations of a loop that skips the stop check.
const maxShort = 256

// short reports whether s is a short counted loop, which needs no stop
// check: for v < c (or v <= c) with c a small constant, v a uint32 that
// only its post statement changes, adding a positive constant.
func (g *gen) short(s *ir.Loop) bool {
	c, ok := s.Cond.(*ir.Binary)
	if !ok || c.Op != ir.OpLt && c.Op != ir.OpLe {
		return false
	}
	v, ok := c.X.(*ir.VarRef)
	bound, isConst := c.Y.(*ir.Const)
	if !ok || !isConst || !ir.IsKind(v.Var.Type, ir.U32) || bound.Bits > maxShort || g.assign[v.Var] != 1 {
		return false
	}
	if s.Post == nil || len(s.Post.Stmts) != 1 {
		return false
	}
	a, ok := s.Post.Stmts[0].(*ir.Assign)
	if !ok {
		return false
	}
	dst, ok := a.Dst.(*ir.VarRef)
	inc, isBin := a.Value.(*ir.Binary)
	if !ok || dst.Var != v.Var || !isBin || inc.Op != ir.OpAdd {
		return false
	}
	x, isVar := inc.X.(*ir.VarRef)
	step, isStep := inc.Y.(*ir.Const)
	return isVar && x.Var == v.Var && isStep && step.Bits > 0 && step.Bits <= maxShort
}

// leave lowers a break (brk) or continue of the innermost loop.
func (g *gen) leave(brk bool) bool {
	if len(g.loops) == 0 {
		g.fail("a break or continue outside a loop")
	}
	l := g.loops[len(g.loops)-1]
	b := g.b
	if l.uniform {
		if brk {
			b.Br(l.exit)
		} else {
			b.Br(l.post)
		}
		return true
	}
	slot := l.cont
	if brk {
		slot = l.done
	}
	b.Store(b.Or(b.Load(g.vec(llvm.I1), slot, 1), g.mask()), slot, 1)
	g.setMask(g.noLanes())
	return true
}

func (g *gen) returnStmt(s *ir.Return) bool {
	r := g.ret
	b := g.b
	if s.Value != nil {
		if r.result == nil {
			g.fail("a return with a value from a function without a result")
		}
		if _, ok := r.result.t.(*ir.Array); ok {
			g.copyArray(r.result, g.arrayOf(s.Value), false)
		} else {
			g.storeSlot(r.result.ptr, r.result.lt, g.expr(s.Value), false)
		}
	}
	if g.flow {
		if r.kernel {
			// Every lane of the block returns: none runs a later segment.
			g.setMask(g.noLanes())
		}
		b.Br(r.exit)
		return true
	}
	if !r.kernel {
		b.Store(b.Or(b.Load(g.vec(llvm.I1), r.retMask, 1), g.mask()), r.retMask, 1)
	}
	g.setMask(g.noLanes())
	return true
}
