// Package fission splits a kernel body at the points where the
// work-items of a block meet (loop fission), for the lowerings that run a
// block's work-items as loops on one thread: each barrier-free run of
// statements becomes a segment, run for every work-item before the block
// goes on; an if or loop around such a point, which the uniformity
// analysis (ir.Uniformity) must find uniform, runs once for the block
// around its pieces. The split finds the variables that live across
// pieces and refuses, with a Refusal, what no such lowering can carry.
//
// Layering: it knows the IR (codegen/ir) alone and no output language;
// the CPU lowerings (codegen/golower, codegen/llvmgen) use it, each
// wrapping a Refusal in its own rule and error.
package fission

import (
	"fmt"

	"github.com/goxpu/xpu/codegen/ir"
)

// Node is a piece of the body as the block runs it: *Segment, *Wave, *If
// or *Loop.
type Node interface{ node() }

// Segment is barrier-free statements every work-item runs before the
// block goes on.
type Segment struct {
	ID    int
	Stmts []ir.Stmt
}

// Wave is a wave verb's statement split out of the segments: its lanes
// meet there as at a barrier.
type Wave struct {
	ID   int
	Stmt ir.Stmt // the Decl or Assign (ir.WaveStmt)
	Verb *ir.Wave
	Dst  *ir.Var
}

// If is an if around a split point; its condition is uniform. ID is that
// of the condition's evaluation.
type If struct {
	ID         int
	Cond       ir.Expr
	Then, Else []Node
	Pos        ir.Pos
}

// Loop is a loop around a split point; its condition, nil for none, is
// uniform. ID is that of the condition's evaluation.
type Loop struct {
	ID         int
	Cond       ir.Expr
	Body, Post []Node
	Pos        ir.Pos
}

func (*Segment) node() {}
func (*Wave) node()    {}
func (*If) node()      {}
func (*Loop) node()    {}

// Plan is a body split into nodes.
type Plan struct {
	Nodes []Node
	// IDs is the number of ids handed out, 0 to IDs-1: one per segment,
	// wave and condition evaluation, in the order of the body.
	IDs int
	// Crossing holds the variables used (declared or read or written) in
	// more than one id's piece: those that must live across the pieces.
	Crossing map[*ir.Var]bool
}

// Refusal is a body the split cannot carry: the place and the reason, in
// words a lowering puts after its own rule name.
type Refusal struct {
	Pos    ir.Pos
	Reason string
}

func (r *Refusal) Error() string { return fmt.Sprintf("%v: %s", r.Pos, r.Reason) }

// Split splits body at its barriers and, with waves set, at its wave
// verbs' statements (ir.WaveStmt), by the uniformity analysis u. Its
// error is a *Refusal: a split point outside uniform control flow or
// inside an if or loop whose condition is not uniform (or u nil), one in
// a loop's post statement, or a break or continue that would leave a
// loop around a split point (that loop runs around the segment's loop
// over the work-items).
func Split(body *ir.Block, u *ir.Uniformity, waves bool) (*Plan, error) {
	s := &splitter{u: u, waves: waves}
	nodes, err := s.split(body.Stmts)
	if err != nil {
		return nil, err
	}
	return &Plan{Nodes: nodes, IDs: s.ids, Crossing: crossing(nodes)}, nil
}

// splitter splits one body.
type splitter struct {
	u     *ir.Uniformity
	waves bool
	ids   int
}

func (p *splitter) id() int {
	p.ids++
	return p.ids - 1
}

func (p *splitter) split(stmts []ir.Stmt) ([]Node, error) {
	var (
		nodes []Node
		cur   []ir.Stmt
	)
	flush := func() error {
		if len(cur) == 0 {
			return nil
		}
		switch s := ir.LeavingBranch(cur).(type) {
		case *ir.Break:
			return &Refusal{s.Pos, "a break out of a loop that contains a barrier"}
		case *ir.Continue:
			return &Refusal{s.Pos, "a continue in a loop that contains a barrier"}
		}
		nodes = append(nodes, &Segment{ID: p.id(), Stmts: cur})
		cur = nil
		return nil
	}
	for _, s := range stmts {
		if !p.splits(s) {
			cur = append(cur, s)
			continue
		}
		if err := flush(); err != nil {
			return nil, err
		}
		var (
			n   Node
			err error
		)
		switch s := s.(type) {
		case *ir.Barrier:
			err = p.uniformFlow(s, s.Pos, "a barrier")
		case *ir.Decl, *ir.Assign:
			w, dst := ir.WaveStmt(s)
			if err = p.uniformFlow(s, w.Pos, "a wave verb"); err == nil {
				n = &Wave{ID: p.id(), Stmt: s, Verb: w, Dst: dst}
			}
		case *ir.Block:
			var inner []Node
			if inner, err = p.split(s.Stmts); err == nil {
				nodes = append(nodes, inner...)
			}
		case *ir.If:
			n, err = p.splitIf(s)
		case *ir.Loop:
			n, err = p.splitLoop(s)
		}
		if err != nil {
			return nil, err
		}
		if n != nil {
			nodes = append(nodes, n)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return nodes, nil
}

func (p *splitter) splitIf(s *ir.If) (Node, error) {
	if err := p.uniformCond(s, s.Cond, s.Pos, "an if"); err != nil {
		return nil, err
	}
	n := &If{ID: p.id(), Cond: s.Cond, Pos: s.Pos}
	var err error
	if n.Then, err = p.split(s.Then.Stmts); err != nil {
		return nil, err
	}
	if s.Else != nil {
		if n.Else, err = p.split(s.Else.Stmts); err != nil {
			return nil, err
		}
	}
	return n, nil
}

func (p *splitter) splitLoop(s *ir.Loop) (Node, error) {
	if err := p.uniformCond(s, s.Cond, s.Pos, "a loop"); err != nil {
		return nil, err
	}
	if s.Post != nil && p.splits(s.Post) {
		return nil, &Refusal{s.Pos, "a barrier in the post statement of a loop"}
	}
	n := &Loop{ID: p.id(), Cond: s.Cond, Pos: s.Pos}
	var err error
	if n.Body, err = p.split(s.Body.Stmts); err != nil {
		return nil, err
	}
	if s.Post != nil {
		if n.Post, err = p.split(s.Post.Stmts); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// uniformFlow refuses s, what it is, unless the analysis found it in
// uniform control flow.
func (p *splitter) uniformFlow(s ir.Stmt, pos ir.Pos, what string) error {
	if p.u == nil {
		return &Refusal{pos, what + ", but the uniformity analysis has not run"}
	}
	if !p.u.Flow[s] {
		return &Refusal{pos, what + " in non-uniform control flow"}
	}
	return nil
}

// uniformCond refuses an if or loop around a split point unless it is in
// uniform flow with a uniform condition.
func (p *splitter) uniformCond(s ir.Stmt, cond ir.Expr, pos ir.Pos, what string) error {
	if err := p.uniformFlow(s, pos, "a barrier"); err != nil {
		return err
	}
	if cond != nil && !p.u.Value[cond] {
		return &Refusal{pos, "a barrier inside " + what + " whose condition is not workgroup-uniform"}
	}
	return nil
}

// splits reports whether s holds a split point: a barrier statement, or
// with waves set a wave verb's statement.
func (p *splitter) splits(s ir.Stmt) bool {
	found := false
	ir.WalkStmts(&ir.Block{Stmts: []ir.Stmt{s}}, func(t ir.Stmt) bool {
		if _, ok := t.(*ir.Barrier); ok {
			found = true
		}
		if w, _ := ir.WaveStmt(t); w != nil && p.waves {
			found = true
		}
		return !found
	})
	return found
}
