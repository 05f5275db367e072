package llvmgen

// This file splits a kernel body at its barriers (loop fission), and at
// its wave verbs when a wave spans chunks: each barrier-free run of
// statements is a segment, which runs as a loop over
// the block's chunks; an if or loop around a barrier (uniform, as the
// uniformity analysis requires) runs once per block around its segments.
// Variables used in more than one piece live across the pieces in a slot
// per chunk (a uniform one too: every chunk runs the statements that
// update it).

import "github.com/goxpu/xpu/codegen/ir"

// piece is a part of the body as the block runs it.
type piece interface{ piece() }

// segment is barrier-free statements every work-item runs before the
// block goes on.
type segment struct {
	id    int
	stmts []ir.Stmt
}

// blockIf is an if around a barrier: its condition is uniform.
type blockIf struct {
	id        int
	cond      ir.Expr
	then, els []piece
	pos       ir.Pos
}

// blockLoop is a loop around a barrier: its condition is uniform.
type blockLoop struct {
	id         int
	cond       ir.Expr
	body, post []piece
	pos        ir.Pos
}

// waveStep is a wave verb whose wave spans chunks (a declared width
// above W): the chunks first compute its operands, then each chunk its
// result from its wave's.
type waveStep struct {
	id  int
	w   *ir.Wave
	dst *ir.Var
	pos ir.Pos
}

func (*segment) piece()   {}
func (*waveStep) piece()  {}
func (*blockIf) piece()   {}
func (*blockLoop) piece() {}

// planner splits one kernel body.
type planner struct {
	g      *gen
	nextID int
}

// plan splits the kernel's body and finds the variables that cross
// pieces.
func (g *gen) plan() []piece {
	p := &planner{g: g}
	pieces := p.split(g.k.Body.Stmts)
	uses := map[*ir.Var]map[int]bool{}
	use := func(id int, v *ir.Var) {
		if uses[v] == nil {
			uses[v] = map[int]bool{}
		}
		uses[v][id] = true
	}
	exprUses := func(id int, x ir.Expr) {
		ir.WalkExpr(x, func(e ir.Expr) bool {
			if r, ok := e.(*ir.VarRef); ok {
				use(id, r.Var)
			}
			return true
		})
	}
	var walk func([]piece)
	walk = func(ps []piece) {
		for _, pc := range ps {
			switch pc := pc.(type) {
			case *segment:
				ir.WalkStmts(&ir.Block{Stmts: pc.stmts}, func(s ir.Stmt) bool {
					if d, ok := s.(*ir.Decl); ok {
						use(pc.id, d.Var)
					}
					for _, x := range ir.StmtExprs(s) {
						exprUses(pc.id, x)
					}
					return true
				})
			case *waveStep:
				use(pc.id, pc.dst)
				for _, a := range pc.w.Args {
					exprUses(pc.id, a)
				}
			case *blockIf:
				exprUses(pc.id, pc.cond)
				walk(pc.then)
				walk(pc.els)
			case *blockLoop:
				if pc.cond != nil {
					exprUses(pc.id, pc.cond)
				}
				walk(pc.body)
				walk(pc.post)
			}
		}
	}
	walk(pieces)
	g.rematerialize()
	g.cross = map[*ir.Var]bool{}
	for v, ids := range uses {
		if len(ids) > 1 && !g.remat[v] {
			g.cross[v] = true
		}
	}
	return pieces
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

func (p *planner) id() int {
	p.nextID++
	return p.nextID - 1
}

func (p *planner) split(stmts []ir.Stmt) []piece {
	var out []piece
	var cur []ir.Stmt
	flush := func() {
		if len(cur) > 0 {
			p.checkSegment(cur)
			out = append(out, &segment{id: p.id(), stmts: cur})
			cur = nil
		}
	}
	u := p.g.k.Uniform
	for _, s := range stmts {
		if !p.splits(s) {
			cur = append(cur, s)
			continue
		}
		flush()
		p.g.pos = stmtPos(s)
		if !u.Flow[s] {
			p.g.fail("a barrier or wave verb in non-uniform control flow")
		}
		switch s := s.(type) {
		case *ir.Decl, *ir.Assign:
			w, dst := ir.WaveStmt(s)
			out = append(out, &waveStep{id: p.id(), w: w, dst: dst, pos: w.Pos})
		case *ir.Barrier:
		case *ir.Block:
			out = append(out, p.split(s.Stmts)...)
		case *ir.If:
			if !u.Value[s.Cond] {
				p.g.fail("a barrier inside an if whose condition is not workgroup-uniform")
			}
			n := &blockIf{id: p.id(), cond: s.Cond, pos: s.Pos}
			n.then = p.split(s.Then.Stmts)
			if s.Else != nil {
				n.els = p.split(s.Else.Stmts)
			}
			out = append(out, n)
		case *ir.Loop:
			if s.Cond != nil && !u.Value[s.Cond] {
				p.g.fail("a barrier inside a loop whose condition is not workgroup-uniform")
			}
			if s.Post != nil && p.splits(s.Post) {
				p.g.fail("a barrier in the post statement of a loop")
			}
			n := &blockLoop{id: p.id(), cond: s.Cond, pos: s.Pos}
			n.body = p.split(s.Body.Stmts)
			if s.Post != nil {
				n.post = p.split(s.Post.Stmts)
			}
			out = append(out, n)
		default:
			p.g.fail("a barrier inside a %T", s)
		}
	}
	flush()
	return out
}

// checkSegment refuses a break or continue that leaves a loop with a
// barrier inside: that loop runs around the chunk loops.
func (p *planner) checkSegment(stmts []ir.Stmt) {
	if s := ir.LeavingBranch(stmts); s != nil {
		p.g.pos = stmtPos(s)
		p.g.fail("a break or continue of a loop that contains a barrier")
	}
}

// splits reports whether s holds a barrier statement or a wave verb
// whose wave spans chunks: where the body splits.
func (p *planner) splits(s ir.Stmt) bool {
	found := false
	wide := p.g.waveWidth() > p.g.W
	ir.WalkStmts(&ir.Block{Stmts: []ir.Stmt{s}}, func(t ir.Stmt) bool {
		if _, ok := t.(*ir.Barrier); ok {
			found = true
		}
		if w, _ := ir.WaveStmt(t); w != nil && wide {
			found = true
		}
		return !found
	})
	return found
}

// stmtPos returns a statement's position.
func stmtPos(s ir.Stmt) ir.Pos {
	switch s := s.(type) {
	case *ir.Decl:
		return s.Pos
	case *ir.Assign:
		return s.Pos
	case *ir.If:
		return s.Pos
	case *ir.Loop:
		return s.Pos
	case *ir.Break:
		return s.Pos
	case *ir.Continue:
		return s.Pos
	case *ir.Return:
		return s.Pos
	case *ir.Barrier:
		return s.Pos
	case *ir.ExprStmt:
		return s.Pos
	}
	return ir.Pos{}
}
