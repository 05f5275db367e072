package fission

// This file walks a split body: its nodes, and the statements and
// expressions each id's piece evaluates.

import "github.com/goxpu/xpu/codegen/ir"

// Visit calls f for every node of nodes and, before going on, for the
// nodes inside it, in the order of the body.
func Visit(nodes []Node, f func(Node)) {
	for _, n := range nodes {
		f(n)
		switch n := n.(type) {
		case *If:
			Visit(n.Then, f)
			Visit(n.Else, f)
		case *Loop:
			Visit(n.Body, f)
			Visit(n.Post, f)
		}
	}
}

// Walk calls f for every statement and expression of the nodes with the
// id of the piece it belongs to: a segment's statements, nested ones
// included, each with a nil expression and then with every expression
// inside it; a wave's statement, then its operands (an Assign's
// destination first) with a nil statement; an if's or loop's condition
// with a nil statement.
func Walk(nodes []Node, f func(id int, s ir.Stmt, e ir.Expr)) {
	exprs := func(id int, x ir.Expr) {
		ir.WalkExpr(x, func(e ir.Expr) bool { f(id, nil, e); return true })
	}
	Visit(nodes, func(n Node) {
		switch n := n.(type) {
		case *Segment:
			ir.WalkStmts(&ir.Block{Stmts: n.Stmts}, func(s ir.Stmt) bool {
				f(n.ID, s, nil)
				for _, x := range ir.StmtExprs(s) {
					ir.WalkExpr(x, func(e ir.Expr) bool { f(n.ID, s, e); return true })
				}
				return true
			})
		case *Wave:
			f(n.ID, n.Stmt, nil)
			if a, ok := n.Stmt.(*ir.Assign); ok {
				exprs(n.ID, a.Dst)
			}
			for _, x := range n.Verb.Args {
				exprs(n.ID, x)
			}
		case *If:
			exprs(n.ID, n.Cond)
		case *Loop:
			exprs(n.ID, n.Cond)
		}
	})
}

// crossing returns the variables used in more than one id's piece. A
// declaration counts as a use of its variable.
func crossing(nodes []Node) map[*ir.Var]bool {
	uses := map[*ir.Var]map[int]bool{}
	Walk(nodes, func(id int, s ir.Stmt, e ir.Expr) {
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
	out := map[*ir.Var]bool{}
	for v, ids := range uses {
		if len(ids) > 1 {
			out[v] = true
		}
	}
	return out
}
