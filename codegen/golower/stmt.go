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
			g.line("%s.AtomicStore(&%s, %s)", g.xpu, g.place(s.Dst), g.expr(s.Value))
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
	g.line("}")
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
