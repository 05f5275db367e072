package golower

import "github.com/goxpu/xpu/codegen/ir"

// This file splits the kernel body at its barriers (loop fission) and finds
// the variables that live across them.

// node is a piece of the kernel body as the lowering runs it: a segment
// (a loop over the work-items) or a uniform if or loop around segments.
type node interface{ node() }

// segment is a run of barrier-free statements that every work-item runs
// before the block moves on.
type segment struct {
	id    int
	stmts []ir.Stmt
}

// uniformIf is an if with a barrier inside; its condition is uniform.
type uniformIf struct {
	id        int // id of the condition's evaluation
	cond      ir.Expr
	then, els []node
	pos       ir.Pos
}

// uniformLoop is a loop with a barrier inside; its condition is uniform.
type uniformLoop struct {
	id         int     // id of the condition's evaluation
	cond       ir.Expr // nil: no condition
	body, post []node
	pos        ir.Pos
}

func (*segment) node()     {}
func (*uniformIf) node()   {}
func (*uniformLoop) node() {}

// plan splits the body, checks what the lowering can carry and finds the
// variables live across barriers.
func (g *gen) plan() error {
	for _, f := range g.k.Funcs {
		if f.Barrier {
			return g.refuse(f.Pos, "device function %s reaches a barrier; call Barrier in the kernel body", f.GoName)
		}
	}
	if g.k.Body == nil {
		return g.refuse(g.k.Pos, "no body")
	}
	nodes, err := g.split(g.k.Body.Stmts)
	if err != nil {
		return err
	}
	g.nodes = nodes
	uses := map[*ir.Var]map[int]bool{}
	var returns bool
	walkNodes(nodes, func(id int, s ir.Stmt, e ir.Expr) {
		if _, ok := s.(*ir.Return); ok {
			returns = true
		}
		// A declaration counts as a use of its variable; an expression
		// inside it (its initial value) uses what the expression reads.
		var v *ir.Var
		if r, ok := e.(*ir.VarRef); ok {
			v = r.Var
		} else if d, ok := s.(*ir.Decl); ok && e == nil {
			v = d.Var
		}
		if v == nil {
			return
		}
		if uses[v] == nil {
			uses[v] = map[int]bool{}
		}
		uses[v][id] = true
	})
	g.cross = map[*ir.Var]bool{}
	for v, ids := range uses {
		if len(ids) > 1 {
			g.cross[v] = true
		}
	}
	walkWaves(nodes, func(n *waveNode) { g.cross[n.dst] = true })
	g.done = returns && !isSegment(nodes)
	g.placeVars()
	return nil
}

func isSegment(nodes []node) bool {
	if len(nodes) != 1 {
		return false
	}
	_, ok := nodes[0].(*segment)
	return ok
}

// split turns statements into nodes, refusing what the lowering cannot
// carry.
func (g *gen) split(stmts []ir.Stmt) ([]node, error) {
	var (
		nodes []node
		cur   []ir.Stmt
	)
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		if err := g.checkSegment(cur); err != nil {
			return err
		}
		nodes = append(nodes, &segment{id: g.nextID(), stmts: cur})
		cur = nil
		return nil
	}
	for _, s := range stmts {
		if !hasBarrier(s) {
			cur = append(cur, s)
			continue
		}
		if err := flush(); err != nil {
			return nil, err
		}
		switch s := s.(type) {
		case *ir.Barrier:
			if err := g.uniformFlow(s, s.Pos); err != nil {
				return nil, err
			}
		case *ir.Decl, *ir.Assign:
			n, err := g.waveSplit(s)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, n)
		case *ir.Block:
			inner, err := g.split(s.Stmts)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, inner...)
		case *ir.If:
			n, err := g.splitIf(s)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, n)
		case *ir.Loop:
			n, err := g.splitLoop(s)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, n)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return nodes, nil
}

func (g *gen) nextID() int {
	g.nSeg++
	return g.nSeg - 1
}

func (g *gen) splitIf(s *ir.If) (node, error) {
	if err := g.uniformCond(s, s.Cond, s.Pos, "if"); err != nil {
		return nil, err
	}
	n := &uniformIf{id: g.nextID(), cond: s.Cond, pos: s.Pos}
	var err error
	if n.then, err = g.split(s.Then.Stmts); err != nil {
		return nil, err
	}
	if s.Else != nil {
		if n.els, err = g.split(s.Else.Stmts); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (g *gen) splitLoop(s *ir.Loop) (node, error) {
	if err := g.uniformCond(s, s.Cond, s.Pos, "loop"); err != nil {
		return nil, err
	}
	if s.Post != nil && hasBarrier(s.Post) {
		return nil, g.refuse(s.Pos, "a barrier in the post statement of a loop")
	}
	n := &uniformLoop{id: g.nextID(), cond: s.Cond, pos: s.Pos}
	var err error
	if n.body, err = g.split(s.Body.Stmts); err != nil {
		return nil, err
	}
	if s.Post != nil {
		if n.post, err = g.split(s.Post.Stmts); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// uniformFlow refuses s unless the analysis found it in uniform control
// flow.
func (g *gen) uniformFlow(s ir.Stmt, pos ir.Pos) error {
	u := g.k.Uniform
	if u == nil {
		return g.refuse(pos, "a barrier, but the uniformity analysis has not run")
	}
	if !u.Flow[s] {
		return g.refuse(pos, "a barrier in non-uniform control flow")
	}
	return nil
}

// uniformCond refuses an if or loop around a barrier unless it is in
// uniform flow with a uniform condition.
func (g *gen) uniformCond(s ir.Stmt, cond ir.Expr, pos ir.Pos, what string) error {
	if err := g.uniformFlow(s, pos); err != nil {
		return err
	}
	if cond != nil && !g.k.Uniform.Value[cond] {
		return g.refuse(pos, "a barrier inside a %s whose condition is not workgroup-uniform", what)
	}
	return nil
}

// checkSegment refuses a break or continue that would leave a loop with
// a barrier inside (the loop runs around the work-item loops).
func (g *gen) checkSegment(stmts []ir.Stmt) error {
	switch s := ir.LeavingBranch(stmts).(type) {
	case *ir.Break:
		return g.refuse(s.Pos, "a break out of a loop that contains a barrier")
	case *ir.Continue:
		return g.refuse(s.Pos, "a continue in a loop that contains a barrier")
	}
	return nil
}

// hasBarrier reports whether s contains a barrier statement or a wave
// verb's statement: a point where work-items meet.
func hasBarrier(s ir.Stmt) bool {
	switch s := s.(type) {
	case *ir.Barrier:
		return true
	case *ir.Decl, *ir.Assign:
		return isWave(s)
	case *ir.Block:
		for _, t := range s.Stmts {
			if hasBarrier(t) {
				return true
			}
		}
	case *ir.If:
		return hasBarrier(s.Then) || s.Else != nil && hasBarrier(s.Else)
	case *ir.Loop:
		return hasBarrier(s.Body) || s.Post != nil && hasBarrier(s.Post)
	}
	return false
}

// walkNodes calls f for every statement and expression of the nodes with
// the id of the segment or condition evaluation it belongs to.
func walkNodes(nodes []node, f func(id int, s ir.Stmt, e ir.Expr)) {
	for _, n := range nodes {
		switch n := n.(type) {
		case *segment:
			for _, s := range n.stmts {
				walkStmt(s, func(s ir.Stmt, e ir.Expr) { f(n.id, s, e) })
			}
		case *waveNode:
			f(n.id, n.stmt, nil)
			exprs := n.w.Args
			if a, ok := n.stmt.(*ir.Assign); ok {
				exprs = append([]ir.Expr{a.Dst}, exprs...)
			}
			for _, x := range exprs {
				walkExpr(x, func(e ir.Expr) { f(n.id, nil, e) })
			}
		case *uniformIf:
			walkExpr(n.cond, func(e ir.Expr) { f(n.id, nil, e) })
			walkNodes(n.then, f)
			walkNodes(n.els, f)
		case *uniformLoop:
			if n.cond != nil {
				walkExpr(n.cond, func(e ir.Expr) { f(n.id, nil, e) })
			}
			walkNodes(n.body, f)
			walkNodes(n.post, f)
		}
	}
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
