package wgslgen

// This file lowers Go's for statement with an init clause to WGSL's for
// where its clauses allow, and finds the variables that are values.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

// forClauses reports whether b is Go's for init; cond; post: the
// declaration of one scalar variable with a value, then the loop.
func forClauses(b *ir.Block) (*ir.Decl, *ir.Loop, bool) {
	if len(b.Stmts) != 2 {
		return nil, nil, false
	}
	d, ok := b.Stmts[0].(*ir.Decl)
	if !ok || d.Init == nil || !isBasic(d.Var.Type) {
		return nil, nil, false
	}
	if w, _ := ir.WaveStmt(d); w != nil {
		return nil, nil, false
	}
	loop, ok := b.Stmts[1].(*ir.Loop)
	return d, loop, ok
}

// forLoop lowers a for statement whose init clause is d to
// for (var v: T = init; cond; post) { body } when its init and condition
// lower to one expression each and its post statement to one assignment:
// Tint (Dawn, Chrome) compiles that form measurably better than the loop
// it equals. Otherwise it lowers to a block of the declaration and
// loop { if !(cond) { break; } body continuing { post } }, with what the
// condition needs evaluated inside the loop.
func (l *lowerer) forLoop(d *ir.Decl, s *ir.Loop) wgsl.Stmt {
	l.at(d.Pos)
	name := l.local(d.Var)
	typ := l.typ(d.Var.Type)
	var pre []wgsl.Stmt
	saved := l.fn.out
	l.fn.out = &pre
	init := l.expr(d.Init)
	nInit := len(pre)
	l.at(s.Pos)
	var cond wgsl.Expr
	if s.Cond != nil {
		cond = l.expr(s.Cond)
	}
	l.fn.out = saved
	body := l.block(s.Body)
	var post *wgsl.Block
	if s.Post != nil && len(s.Post.Stmts) > 0 {
		post = l.block(s.Post)
	}
	if len(pre) == 0 && (post == nil || len(post.Stmts) == 1 && isUpdate(post.Stmts[0])) {
		f := &wgsl.For{Init: &wgsl.VarDecl{Name: name, Type: typ, Init: init}, Cond: cond, Body: body}
		if post != nil {
			f.Update = post.Stmts[0]
		}
		return f
	}
	out := append(pre[:nInit:nInit], declare(name, typ, init)...)
	loopBody := append([]wgsl.Stmt(nil), pre[nInit:]...)
	if cond != nil {
		loopBody = append(loopBody, &wgsl.If{Cond: &wgsl.Unary{Op: wgsl.Not, X: cond}, Then: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Break{}}}})
	}
	loopBody = append(loopBody, body.Stmts...)
	return &wgsl.Block{Stmts: append(out, &wgsl.Loop{Body: &wgsl.Block{Stmts: loopBody}, Continuing: post})}
}

// isUpdate reports whether s can be a for's update clause.
func isUpdate(s wgsl.Stmt) bool {
	switch s := s.(type) {
	case *wgsl.Assign:
		return s.LHS != nil
	case *wgsl.CompoundAssign:
		return true
	}
	return false
}

func isBasic(t ir.Type) bool {
	_, ok := t.(*ir.Basic)
	return ok
}

// assignedVars returns the variables of k's body and device functions
// that some assignment stores to (whole or in part) after their
// declaration; the others hold the value they were declared with.
func assignedVars(k *ir.Kernel) map[*ir.Var]bool {
	assigned := map[*ir.Var]bool{}
	find := func(s ir.Stmt) bool {
		if a, ok := s.(*ir.Assign); ok {
			if v := rootVar(a.Dst); v != nil {
				assigned[v] = true
			}
		}
		return true
	}
	ir.WalkStmts(k.Body, find)
	for _, f := range k.Funcs {
		ir.WalkStmts(f.Body, find)
		for _, p := range f.Params {
			assigned[p] = true // parameters are never declared by a Decl
		}
	}
	return assigned
}

// rootVar returns the variable a place expression is rooted at, or nil.
func rootVar(x ir.Expr) *ir.Var {
	for {
		switch e := x.(type) {
		case *ir.VarRef:
			return e.Var
		case *ir.Index:
			x = e.X
		case *ir.FieldOf:
			x = e.X
		default:
			return nil
		}
	}
}
