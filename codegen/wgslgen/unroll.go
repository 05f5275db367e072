package wgslgen

// This file unrolls counted loops that store to a work-item's own arrays.
//
// A register tile is spelled as CUDA tutorials spell it: private arrays
// (acc[i*TN+j], a[l]) stored to at indices computed from the counters of
// loops of constant trip count. Mesa's NIR, which lavapipe and every Mesa
// Vulkan driver run, unrolls such a loop unconditionally only when an
// array is indexed by the counter itself; a computed index (i*TN+j)
// leaves the loop to a size heuristic, and a loop it keeps leaves the
// array in memory, loaded and stored at every step. A 128x128 GEMM tile
// of 8x8 micro-tiles ran at a third of the same tile unrolled. So the
// lowering unrolls these loops itself, within a budget, and every index
// becomes a constant.

import (
	"slices"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

// Unrolling bounds: a loop runs at most maxUnrollTrips times, and its
// unrolled body (with the unrolled loops inside it) holds at most
// maxUnrollNodes IR nodes, about sixty statements of arithmetic an
// iteration at 64 iterations; an 8x8 micro-tile's multiply-adds over four
// depths take about 6,500.
const (
	maxUnrollTrips = 64
	maxUnrollNodes = 16384
)

// unrolling is what the lowering decided for one loop: the values its
// counter takes, or none when it stays a loop.
type unrolling struct {
	values []*ir.Const
	nodes  int // the IR nodes of its lowering, unrolled or not
}

// unrolled decides, once per loop, whether the for loop of counter d and
// loop s is unrolled: its counter starts at a constant and changes only by
// its post statement, a function of the counter and constants, its
// condition is one too, it ends within maxUnrollTrips iterations, no break
// or continue leaves it, its body stores to a private array at an index
// that depends on the counter, and its unrolled body fits maxUnrollNodes.
func (l *lowerer) unrolled(d *ir.Decl, s *ir.Loop) *unrolling {
	if u, ok := l.unrolls[s]; ok {
		return u
	}
	body := l.nodes(s.Body)
	u := &unrolling{nodes: body + exprNodes(s.Cond) + l.nodes(s.Post)}
	l.unrolls[s] = u
	values := trips(d, s)
	if values == nil || leaves(s.Body) || assigns(s.Body, d.Var) || !writesPrivate(s.Body, d.Var) {
		return u
	}
	if n := len(values) * body; n <= maxUnrollNodes {
		u.values, u.nodes = values, n
	}
	return u
}

// trips returns the values the counter of d takes in the loop s, or nil
// when they are not constants or number more than maxUnrollTrips (or
// none: a loop that never runs is left as it is).
func trips(d *ir.Decl, s *ir.Loop) []*ir.Const {
	v := d.Var
	t, ok := v.Type.(*ir.Basic)
	if !ok || t.Kind != ir.I32 && t.Kind != ir.U32 || s.Cond == nil || s.Post == nil || len(s.Post.Stmts) != 1 {
		return nil
	}
	step, ok := s.Post.Stmts[0].(*ir.Assign)
	if !ok {
		return nil
	}
	if r, ok := step.Dst.(*ir.VarRef); !ok || r.Var != v {
		return nil
	}
	at, ok := evalConst(d.Init, v, nil)
	if !ok {
		return nil
	}
	var values []*ir.Const
	for {
		c, ok := evalConst(s.Cond, v, at)
		if !ok {
			return nil
		}
		if c.Bits == 0 {
			break
		}
		if len(values) == maxUnrollTrips {
			return nil
		}
		values = append(values, at)
		if at, ok = evalConst(step.Value, v, at); !ok {
			return nil
		}
	}
	return values
}

// evalConst evaluates x, a tree of constants, v (whose value is at) and
// Go's operators on them, with Go's semantics; false when x is anything
// else.
func evalConst(x ir.Expr, v *ir.Var, at *ir.Const) (*ir.Const, bool) {
	switch e := x.(type) {
	case *ir.Const:
		return e, !e.T.Wide64()
	case *ir.VarRef:
		return at, e.Var == v && at != nil
	case *ir.Binary:
		a, ok := evalConst(e.X, v, at)
		if !ok {
			return nil, false
		}
		b, ok := evalConst(e.Y, v, at)
		if !ok {
			return nil, false
		}
		return foldBinary(&ir.Binary{Op: e.Op, X: a, Y: b, T: e.T})
	}
	return nil, false
}

// leaves reports whether a break or continue in b leaves the loop whose
// body b is.
func leaves(b *ir.Block) bool { return ir.LeavingBranch(b.Stmts) != nil }

// assigns reports whether some statement of b stores to v.
func assigns(b *ir.Block, v *ir.Var) bool {
	found := false
	ir.WalkStmts(b, func(s ir.Stmt) bool {
		if a, ok := s.(*ir.Assign); ok && rootVar(a.Dst) == v {
			found = true
		}
		if w, dst := ir.WaveStmt(s); w != nil && dst == v {
			found = true
		}
		return !found
	})
	return found
}

// writesPrivate reports whether b stores to an element of an array or
// vector of a work-item's own (a variable, not a buffer or a shared
// array) at an index that depends on v: v itself, or a variable of b
// declared or assigned from one that does. Only stores count: an array
// that a loop only reads is read from memory at the counter's offset,
// one offset for every lane, as fast as registers (the quantized
// mat-vec's rows of weights ran 20% slower unrolled).
func writesPrivate(b *ir.Block, v *ir.Var) bool {
	dep := map[*ir.Var]bool{v: true}
	depends := func(x ir.Expr) bool {
		found := false
		ir.WalkExpr(x, func(e ir.Expr) bool {
			if r, ok := e.(*ir.VarRef); ok && dep[r.Var] {
				found = true
			}
			return !found
		})
		return found
	}
	found := false
	ir.WalkStmts(b, func(s ir.Stmt) bool {
		switch s := s.(type) {
		case *ir.Decl:
			if s.Init != nil && depends(s.Init) {
				dep[s.Var] = true
			}
		case *ir.Assign:
			if r, ok := s.Dst.(*ir.VarRef); ok && depends(s.Value) {
				dep[r.Var] = true
			}
			ir.WalkExpr(s.Dst, func(e ir.Expr) bool {
				if ix, ok := e.(*ir.Index); ok && rootVar(ix.X) != nil && depends(ix.Index) {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	return found
}

// nodes counts the IR nodes of b as the lowering spells it: a loop it
// unrolls counts its body once an iteration.
func (l *lowerer) nodes(b *ir.Block) int {
	if b == nil {
		return 0
	}
	n := 0
	for _, s := range b.Stmts {
		n++
		if inner, ok := s.(*ir.Block); ok {
			if d, loop, ok := forClauses(inner); ok {
				n += exprNodes(d.Init) + l.unrolled(d, loop).nodes
				continue
			}
		}
		for _, x := range ir.StmtExprs(s) {
			n += exprNodes(x)
		}
		switch s := s.(type) {
		case *ir.Block:
			n += l.nodes(s)
		case *ir.If:
			n += l.nodes(s.Then) + l.nodes(s.Else)
		case *ir.Loop:
			n += l.nodes(s.Body) + l.nodes(s.Post)
		}
	}
	return n
}

func exprNodes(x ir.Expr) int {
	n := 0
	ir.WalkExpr(x, func(ir.Expr) bool { n++; return true })
	return n
}

// unroll lowers the loop s of counter d as its body once for each of the
// counter's values, in which the counter spells its value, so that the
// lowering folds what it computes. A copy that declares names is a block
// of its own.
func (l *lowerer) unroll(d *ir.Decl, s *ir.Loop, values []*ir.Const) {
	for _, c := range values {
		l.fn.alias[d.Var] = lit(c.T.Kind, c.Bits)
		b := l.block(s.Body)
		if slices.ContainsFunc(b.Stmts, declares) {
			l.emit(b)
		} else {
			l.emit(b.Stmts...)
		}
	}
	delete(l.fn.alias, d.Var)
}

func declares(s wgsl.Stmt) bool {
	switch s.(type) {
	case *wgsl.VarDecl, *wgsl.LetDecl:
		return true
	}
	return false
}
