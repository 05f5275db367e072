package golower

import (
	"slices"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/ir/fission"
)

// This file decides where a variable of the kernel body lives once the
// body is split at its barriers. A variable used by one segment only is a
// local of the work-item loop. Of those used by several:
//
//   - a recomputed variable is declared once, never written again, from
//     constants, uniforms, the work-item's coordinates and other recomputed
//     variables: each segment that uses it recomputes it instead of
//     keeping a per-work-item array;
//   - a block scalar is written only by uniform statements (a declaration
//     or an assignment of a workgroup-uniform value, in uniform control
//     flow, at the start of a segment): those run once per block, outside
//     the work-item loop, and a uniform loop's condition over block
//     scalars is evaluated once;
//   - every other one is a per-work-item array (cross).

// storage is where the variables of a split body live.
type storage struct {
	remat  map[*ir.Var]*ir.Decl // recomputed variables and their declarations
	order  map[*ir.Var]int      // declaration order of the recomputed ones
	scalar map[*ir.Var]bool     // block scalars
	hoist  map[ir.Stmt]bool     // statements run once per block
}

// placeVars fills g.store and takes the recomputed variables and block
// scalars out of g.cross.
func (g *gen) placeVars() {
	g.store = storage{remat: map[*ir.Var]*ir.Decl{}, order: map[*ir.Var]int{},
		scalar: map[*ir.Var]bool{}, hoist: map[ir.Stmt]bool{}}
	writes := map[*ir.Var][]ir.Stmt{}
	atomic := map[*ir.Var]bool{}
	n := 0
	fission.Walk(g.nodes, func(_ int, s ir.Stmt, e ir.Expr) {
		if e != nil {
			if a, ok := e.(*ir.Atomic); ok {
				atomic[rootVar(a.Ptr)] = true
			}
			return
		}
		switch s := s.(type) {
		case *ir.Decl:
			writes[s.Var] = append(writes[s.Var], s)
			g.store.order[s.Var] = n
			n++
		case *ir.Assign:
			if v := rootVar(s.Dst); v != nil {
				writes[v] = append(writes[v], s)
			}
		}
	})
	g.findRemat(writes, atomic)
	if !g.done && g.k.Uniform != nil {
		g.findScalars(writes, atomic)
	}
	for v := range g.cross {
		if g.store.remat[v] != nil || g.store.scalar[v] {
			delete(g.cross, v)
		}
	}
}

// findRemat finds the recomputed variables.
func (g *gen) findRemat(writes map[*ir.Var][]ir.Stmt, atomic map[*ir.Var]bool) {
	cand := map[*ir.Var]*ir.Decl{}
	for v, ws := range writes {
		d, ok := ws[0].(*ir.Decl)
		if _, basic := v.Type.(*ir.Basic); ok && basic && len(ws) == 1 && d.Init != nil && !atomic[v] {
			cand[v] = d
		}
	}
	for changed := true; changed; {
		changed = false
		for v, d := range cand {
			if !pureExpr(d.Init, func(w *ir.Var) bool { return cand[w] != nil }, true) {
				delete(cand, v)
				changed = true
			}
		}
	}
	g.store.remat = cand
}

// findScalars finds the block scalars and the statements hoisted out of
// the work-item loops.
func (g *gen) findScalars(writes map[*ir.Var][]ir.Stmt, atomic map[*ir.Var]bool) {
	u := g.k.Uniform
	cand := map[*ir.Var]bool{}
	for v, ws := range writes {
		if _, basic := v.Type.(*ir.Basic); !basic || atomic[v] || g.store.remat[v] != nil {
			continue
		}
		ok := true
		for _, s := range ws {
			val := writtenValue(s)
			ok = ok && u.Flow[s] && (val == nil || u.Value[val])
			if a, isAssign := s.(*ir.Assign); isAssign {
				_, plain := a.Dst.(*ir.VarRef)
				ok = ok && plain
			}
		}
		cand[v] = ok
	}
	var segs []*fission.Segment
	fission.Visit(g.nodes, func(n fission.Node) {
		if s, ok := n.(*fission.Segment); ok {
			segs = append(segs, s)
		}
	})
	for changed := true; changed; {
		changed = false
		hoist := map[ir.Stmt]bool{}
		for _, sg := range segs {
			for _, s := range sg.Stmts {
				if !g.hoistable(s, cand) {
					break
				}
				hoist[s] = true
			}
		}
		for v, ok := range cand {
			if ok && !allIn(writes[v], hoist) {
				cand[v] = false
				changed = true
			}
		}
		g.store.hoist = hoist
	}
	for v, ok := range cand {
		if ok {
			g.store.scalar[v] = true
		}
	}
}

// hoistable reports whether s writes a candidate block scalar with a value
// computed from block scalars and uniforms only.
func (g *gen) hoistable(s ir.Stmt, cand map[*ir.Var]bool) bool {
	var v *ir.Var
	switch s := s.(type) {
	case *ir.Decl:
		v = s.Var
	case *ir.Assign:
		v = rootVar(s.Dst)
	default:
		return false
	}
	val := writtenValue(s)
	return cand[v] && (val == nil || pureExpr(val, func(w *ir.Var) bool { return cand[w] }, false))
}

// writtenValue is the value a declaration or assignment stores.
func writtenValue(s ir.Stmt) ir.Expr {
	switch s := s.(type) {
	case *ir.Decl:
		return s.Init
	case *ir.Assign:
		return s.Value
	}
	return nil
}

func allIn(ss []ir.Stmt, set map[ir.Stmt]bool) bool {
	for _, s := range ss {
		if !set[s] {
			return false
		}
	}
	return true
}

// pureExpr reports whether e reads nothing but constants, uniforms, block
// coordinates and the variables ok accepts, calls nothing and cannot
// fault (see mayPanic); with local set, the work-item's coordinates too.
func pureExpr(e ir.Expr, ok func(*ir.Var) bool, local bool) bool {
	pure := true
	walkExpr(e, func(e ir.Expr) {
		switch e := e.(type) {
		case *ir.Const, *ir.ScalarRef, *ir.Len:
		case *ir.VarRef:
			pure = pure && ok(e.Var)
		case *ir.Unary, *ir.Convert:
		case *ir.Binary:
			pure = pure && !mayPanic(e)
		case *ir.CallBuiltin:
			pure = pure && (blockBuiltin(e.Fn) || local && itemBuiltin(e.Fn))
		default:
			pure = false
		}
	})
	return pure
}

// mayPanic reports whether Go may panic on e: a division or remainder
// (an integer one by zero), a shift by a signed count (a negative one).
func mayPanic(e *ir.Binary) bool {
	switch e.Op {
	case ir.OpDiv, ir.OpRem:
		return true
	case ir.OpShl, ir.OpShr:
		return !isU32(e.Y.Type())
	}
	return false
}

// blockBuiltin reports the builtins every work-item of a block agrees on.
func blockBuiltin(fn ir.Builtin) bool {
	switch fn {
	case ir.GroupX, ir.GroupY, ir.GroupZ, ir.NumGroupsX, ir.NumGroupsY, ir.NumGroupsZ,
		ir.BlockX, ir.BlockY, ir.BlockZ, ir.WaveWidth:
		return true
	}
	return false
}

// itemBuiltin reports the builtins of a work-item's coordinates.
func itemBuiltin(fn ir.Builtin) bool {
	switch fn {
	case ir.GlobalX, ir.GlobalY, ir.GlobalZ, ir.LocalX, ir.LocalY, ir.LocalZ, ir.LocalIndex, ir.LaneIndex:
		return true
	}
	return false
}

// rematNeeded returns the recomputed variables that stmts and exprs use
// but do not declare, with those they are computed from, in declaration
// order.
func (g *gen) rematNeeded(stmts []ir.Stmt, exprs ...ir.Expr) []*ir.Var {
	declared := map[*ir.Var]bool{}
	need := map[*ir.Var]bool{}
	var add func(v *ir.Var)
	add = func(v *ir.Var) {
		d := g.store.remat[v]
		if d == nil || declared[v] || need[v] {
			return
		}
		need[v] = true
		walkExpr(d.Init, func(e ir.Expr) {
			if r, ok := e.(*ir.VarRef); ok {
				add(r.Var)
			}
		})
	}
	var used []*ir.Var
	visit := func(e ir.Expr) {
		if r, ok := e.(*ir.VarRef); ok {
			used = append(used, r.Var)
		}
	}
	for _, s := range stmts {
		walkStmt(s, func(s ir.Stmt, e ir.Expr) {
			if d, ok := s.(*ir.Decl); ok && e == nil {
				declared[d.Var] = true
			}
			if e != nil {
				visit(e)
			}
		})
	}
	for _, e := range exprs {
		walkExpr(e, visit)
	}
	for _, v := range used {
		add(v)
	}
	vs := make([]*ir.Var, 0, len(need))
	for v := range need {
		vs = append(vs, v)
	}
	slices.SortFunc(vs, func(a, b *ir.Var) int { return g.store.order[a] - g.store.order[b] })
	return vs
}

// loadRemat recomputes the variables vs for the current work-item.
func (g *gen) loadRemat(vs []*ir.Var) {
	for _, v := range vs {
		g.line("var %s %s = %s", varName(v), typeName(v.Type), g.expr(g.store.remat[v].Init))
		g.line("_ = %s", varName(v))
	}
}
