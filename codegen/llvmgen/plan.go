package llvmgen

// This file splits a kernel body at its barriers (loop fission, package
// fission), and at its wave verbs when a wave spans chunks: each segment
// runs as a loop over the block's chunks; an if or loop around a barrier
// runs once per block around its pieces. Variables used in more than one
// piece live across the pieces in a slot per chunk (a uniform one too:
// every chunk runs the statements that update it), unless each chunk
// computes them again.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/ir/fission"
)

// plan splits the kernel's body and finds the variables that cross
// pieces.
func (g *gen) plan() []fission.Node {
	p, err := fission.Split(g.k.Body, g.k.Uniform, g.waveWidth() > g.W)
	if r, ok := err.(*fission.Refusal); ok {
		g.pos = r.Pos
		g.fail("%s", r.Reason)
	} else if err != nil {
		panic(err)
	}
	g.rematerialize()
	g.cross = map[*ir.Var]bool{}
	for v := range p.Crossing {
		if !g.remat[v] {
			g.cross[v] = true
		}
	}
	return p.Nodes
}

// rematerialize finds the variables that each chunk can compute again
// instead of keeping (g.remat, g.rematOrder): declared once and never
// assigned, from thread queries, scalar parameters, constants and other
// such variables, with no memory access and nothing that faults. Kept in
// a slot their shape (uniform, contiguous) would be lost.
func (g *gen) rematerialize() {
	g.remat = map[*ir.Var]bool{}
	ir.WalkStmts(g.k.Body, func(s ir.Stmt) bool {
		d, ok := s.(*ir.Decl)
		if !ok || d.Init == nil || g.assign[d.Var] != 0 {
			return true
		}
		if _, basic := d.Var.Type.(*ir.Basic); !basic {
			return true
		}
		fine := true
		ir.WalkExpr(d.Init, func(x ir.Expr) bool {
			switch e := x.(type) {
			case *ir.Const, *ir.ScalarRef, *ir.Convert, *ir.Unary:
			case *ir.VarRef:
				fine = fine && g.remat[e.Var]
			case *ir.CallBuiltin:
				fine = fine && e.Fn.IsThreadQuery() && e.Fn != ir.WaveWidth && e.Fn != ir.LaneIndex
			case *ir.Binary:
				fine = fine && pure(e) && e.Op != ir.OpLAnd && e.Op != ir.OpLOr
			default:
				fine = false
			}
			return fine
		})
		if fine {
			g.remat[d.Var] = true
			g.rematOrder = append(g.rematOrder, d)
		}
		return true
	})
}
