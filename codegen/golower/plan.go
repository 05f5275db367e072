package golower

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/ir/fission"
)

// This file splits the kernel body at its barriers and wave verbs (loop
// fission, package fission) and finds the variables that live across
// them.

// plan splits the body, checks what the lowering can carry and finds the
// variables live across barriers.
func (g *gen) plan() error {
	for _, f := range g.k.Funcs {
		if f.Barrier || f.Wave != "" {
			return g.refuse(f.Pos, "device function %s reaches a barrier or a wave verb; the front end inlines it (ir.Flatten)", f.GoName)
		}
	}
	if g.k.Body == nil {
		return g.refuse(g.k.Pos, "no body")
	}
	p, err := fission.Split(g.k.Body, g.k.Uniform, true)
	if r, ok := err.(*fission.Refusal); ok {
		return g.refuse(r.Pos, "%s", r.Reason)
	} else if err != nil {
		return err
	}
	g.nodes, g.nSeg, g.cross = p.Nodes, p.IDs, p.Crossing
	var returns bool
	fission.Walk(g.nodes, func(_ int, s ir.Stmt, _ ir.Expr) {
		if _, ok := s.(*ir.Return); ok {
			returns = true
		}
	})
	walkWaves(g.nodes, func(n *fission.Wave) { g.cross[n.Dst] = true })
	g.done = returns && !isSegment(g.nodes)
	g.placeVars()
	return nil
}

func isSegment(nodes []fission.Node) bool {
	if len(nodes) != 1 {
		return false
	}
	_, ok := nodes[0].(*fission.Segment)
	return ok
}

func (g *gen) nextID() int {
	g.nSeg++
	return g.nSeg - 1
}

// walkStmt calls f for s, every statement inside it (with a nil
// expression) and every expression inside them (with their statement).
func walkStmt(s ir.Stmt, f func(s ir.Stmt, e ir.Expr)) {
	ir.WalkStmts(&ir.Block{Stmts: []ir.Stmt{s}}, func(t ir.Stmt) bool {
		f(t, nil)
		for _, x := range ir.StmtExprs(t) {
			walkExpr(x, func(e ir.Expr) { f(t, e) })
		}
		return true
	})
}

// walkExpr calls f for e and every expression inside it.
func walkExpr(e ir.Expr, f func(ir.Expr)) {
	ir.WalkExpr(e, func(x ir.Expr) bool { f(x); return true })
}
