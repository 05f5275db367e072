package golower

import (
	"fmt"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
)

// This file writes the statements of a segment or a device function: the
// work of one work-item between two barriers.

func (g *gen) stmts(ss []ir.Stmt) {
	for _, s := range ss {
		g.stmt(s)
	}
}

func (g *gen) stmt(s ir.Stmt) {
	switch s := s.(type) {
	case *ir.Block:
		g.line("{")
		g.nest(func() { g.stmts(s.Stmts) })
		g.line("}")
	case *ir.Decl:
		g.decl(s)
	case *ir.Assign:
		if _, copies := s.Dst.(*ir.Index); copies && g.rowMode {
			g.rowCopy(s)
			return
		}
		if atomicElement(s.Dst) {
			g.line("%s(&%s, %s)", g.call("xpu", "AtomicStore"), g.place(s.Dst), g.expr(s.Value))
			return
		}
		g.line("%s = %s", g.place(s.Dst), g.expr(s.Value))
	case *ir.If:
		if g.guarded != nil && s == g.guarded.s {
			// The loop runs only the lanes that pass (guard.go).
			g.line("{ %s", g.guardNote(g.guarded))
			g.nest(func() { g.stmts(s.Then.Stmts) })
			g.line("}")
			return
		}
		g.line("if %s {", g.expr(s.Cond))
		g.nest(func() { g.stmts(s.Then.Stmts) })
		if s.Else != nil && len(s.Else.Stmts) > 0 {
			g.line("} else {")
			g.nest(func() { g.stmts(s.Else.Stmts) })
		}
		g.line("}")
	case *ir.Loop:
		g.loop(s)
	case *ir.Break:
		g.line("break")
	case *ir.Continue:
		g.cont()
	case *ir.Return:
		g.ret(s)
	case *ir.ExprStmt:
		switch s.X.(type) {
		case *ir.Call, *ir.Atomic:
			g.line("%s", g.expr(s.X))
		default:
			g.line("_ = %s", g.expr(s.X))
		}
	case *ir.Barrier:
		g.fail(g.refuse(s.Pos, "a barrier the lowering did not split at"))
	default:
		g.fail(g.refuse(g.k.Pos, "a statement of type %T", s))
	}
}

func (g *gen) nest(f func()) {
	g.indent++
	f()
	g.indent--
}

// decl declares a variable, or sets the work-item's copy of one kept in a
// per-work-item array, or sets a block scalar.
func (g *gen) decl(s *ir.Decl) {
	v := varName(s.Var)
	init := zero(s.Var.Type)
	if s.Init != nil {
		init = g.expr(s.Init)
	}
	if !g.inFunc && (g.cross[s.Var] || g.store.scalar[s.Var]) {
		g.line("%s = %s", v, init)
		return
	}
	if s.Init == nil {
		g.line("var %s %s", v, typeName(s.Var.Type))
	} else {
		g.line("var %s %s = %s", v, typeName(s.Var.Type), init)
	}
	g.line("_ = %s", v)
}

// loop writes an IR loop that runs inside one work-item. A continue jumps
// to the post statements, which sit after the body's own block so that the
// jump crosses no declaration.
func (g *gen) loop(s *ir.Loop) {
	needsPoll := loopWork(s) == 0
	if v, n, ok := chunked(s); ok && needsPoll {
		// A run that ends within pollEvery iterations runs the loop as
		// it is; a longer one runs it in chunks of pollEvery, with one
		// read of the stop flag each.
		vn, nn, end := varName(v), g.expr(n), fmt.Sprintf("end%d", g.nextID())
		g.line("if %s-%s > %d {", nn, vn, pollEvery)
		g.nest(func() {
			g.loopAs(s, false, fmt.Sprintf("for %s := %s + min(%s-%s, %d); %s < %s; {", end, vn, nn, vn, pollEvery, vn, end))
		})
		g.line("} else {")
		g.nest(func() { g.loopAs(s, false, "") })
		g.line("}")
		return
	}
	g.loopAs(s, needsPoll, "")
}

// loopAs writes s, with a poll at the top of each iteration when poll is
// set, or, when chunk is not empty, in chunks: chunk is the header of the
// inner loop of one chunk, after a poll (see loop).
func (g *gen) loopAs(s *ir.Loop, poll bool, chunk string) {
	w := &loopW{}
	hasPost := s.Post != nil && len(s.Post.Stmts) > 0
	if hasPost {
		w.cont = fmt.Sprintf("next%d", g.nextID())
	}
	cond := ""
	if s.Cond != nil {
		cond = g.expr(s.Cond) + " "
	}
	g.loops = append(g.loops, w)
	body := g.capture(func() { g.stmts(s.Body.Stmts) })
	g.loops = g.loops[:len(g.loops)-1]
	g.line("for %s{", cond)
	switch {
	case chunk != "":
		g.nest(g.poll)
		g.line("\t%s", chunk)
	case poll:
		g.nest(g.poll)
	}
	if !hasPost {
		g.out.WriteString(body)
		g.line("}")
		return
	}
	g.nest(func() {
		g.line("{")
		g.out.WriteString(body)
		g.line("}")
	})
	if w.usedCont {
		g.line("%s:", w.cont)
	}
	g.nest(func() { g.stmts(s.Post.Stmts) })
	if chunk != "" {
		g.line("\t}")
	}
	g.line("}")
}

// poll writes the check that stops a loop whose launch is to stop: a
// loop may never end, and the launch's context must still be able to end
// it. The flag is read from a local (function.go), and the stop is the
// panic CPUBlock.Poll makes, written in place: Go knows a panic does not
// return, so the check falls through on the loop's path, where a call to
// Poll made it a taken branch around the call's spills (a Collatz while
// loop ran 1.5x as long as with no check, 1.1x with the panic).
func (g *gen) poll() { g.line("if stop.Load() { panic(%s.CPUStopped) }", g.gpu) }

// pollEvery is how many iterations of a counting loop share one read of
// the stop flag (chunked).
const pollEvery = 1024

// chunked returns the counter v and bound n of a loop `for v < n { ...
// }; v++` whose body sets neither and breaks nowhere out of it, and whose
// n is a scalar parameter, a constant or a variable: such a loop can run
// in chunks of pollEvery iterations without changing what it does.
func chunked(l *ir.Loop) (*ir.Var, ir.Expr, bool) {
	v, n, ok := counting(l)
	if !ok {
		return nil, nil, false
	}
	var bound *ir.Var
	switch n := n.(type) {
	case *ir.ScalarRef, *ir.Const:
	case *ir.VarRef:
		bound = n.Var
	default:
		return nil, nil, false
	}
	sets := func(s ir.Stmt) bool {
		a, isSet := s.(*ir.Assign)
		return isSet && (isVar(a.Dst, v) || bound != nil && isVar(a.Dst, bound))
	}
	ir.WalkStmts(l.Body, func(s ir.Stmt) bool {
		switch s := s.(type) {
		case *ir.Break:
			ok = false
		case *ir.Loop:
			// Its breaks are its own; its body and its post statements
			// may still set v or n.
			for _, b := range []*ir.Block{s.Body, s.Post} {
				ir.WalkStmts(b, func(s ir.Stmt) bool {
					ok = ok && !sets(s)
					return ok
				})
			}
			return false
		}
		ok = ok && !sets(s)
		return ok
	})
	return v, n, ok
}

// counting returns the counter v and bound n of a loop `for v < n {
// ... }; v++` that counts a uint32 up by one.
func counting(l *ir.Loop) (*ir.Var, ir.Expr, bool) {
	cond, ok := l.Cond.(*ir.Binary)
	if !ok || cond.Op != ir.OpLt || l.Post == nil || len(l.Post.Stmts) != 1 {
		return nil, nil, false
	}
	r, ok := cond.X.(*ir.VarRef)
	if !ok || !isU32(r.Var.Type) || !isIncrement(l.Post.Stmts[0], r.Var) {
		return nil, nil, false
	}
	return r.Var, cond.Y, true
}

// pollFree is the most body runs a loop may make without a poll
// (loopWork): a short counted loop ends by itself, and a poll in it
// would cost the innermost loops of a kernel (a micro-tile's) the most.
const pollFree = 4096

// loopWork returns how many times at most the bodies of l and of the
// loops in it run, when l counts a uint32 up by one to a constant (`for
// v < N { ... }; v++`, v set nowhere else) and that is at most pollFree;
// 0 otherwise, when l needs a poll.
func loopWork(l *ir.Loop) uint64 {
	v, bound, ok := counting(l)
	if !ok {
		return 0
	}
	n, ok := fold(bound)
	if !ok {
		return 0
	}
	inner := uint64(1)
	ir.WalkStmts(l.Body, func(s ir.Stmt) bool {
		switch s := s.(type) {
		case *ir.Assign:
			if isVar(s.Dst, v) {
				inner = pollFree + 1
			}
		case *ir.Loop:
			if w := loopWork(s); w == 0 {
				inner = pollFree + 1
			} else {
				inner += w
			}
			return false
		}
		return true
	})
	if w := uint64(n.Bits) * inner; w <= pollFree {
		return w
	}
	return 0
}

// capture returns what f writes, one level deeper.
func (g *gen) capture(f func()) string {
	saved := g.out
	g.out = strings.Builder{}
	g.indent += 2
	f()
	g.indent -= 2
	s := g.out.String()
	g.out = saved
	return s
}

func (g *gen) cont() {
	if len(g.loops) == 0 {
		g.fail(g.refuse(g.k.Pos, "a continue outside a loop"))
		return
	}
	w := g.loops[len(g.loops)-1]
	if w.cont == "" {
		g.line("continue")
		return
	}
	w.usedCont = true
	g.line("goto %s", w.cont)
}

// ret ends the work-item (in the kernel body) or returns from a device
// function.
func (g *gen) ret(s *ir.Return) {
	if g.inFunc {
		if s.Value != nil {
			g.line("return %s", g.expr(s.Value))
		} else {
			g.line("return")
		}
		return
	}
	if g.done {
		g.line("done[li] = true")
	}
	g.usedLabel = true
	g.line("continue %s", g.segLabel)
}
