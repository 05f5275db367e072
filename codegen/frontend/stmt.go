package frontend

// This file lowers statements to structured IR control flow.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/goxpu/xpu/codegen/ir"
)

// stmts lowers a statement list into the current block.
func (f *fnState) stmts(list []ast.Stmt) {
	for _, s := range list {
		f.stmt(s)
	}
}

// block lowers a statement list into a new block.
func (f *fnState) block(list []ast.Stmt) *ir.Block {
	b := &ir.Block{}
	f.into(b, func() { f.stmts(list) })
	return b
}

// stmt lowers one statement.
func (f *fnState) stmt(s ast.Stmt) {
	c := f.c
	switch s := s.(type) {
	case *ast.EmptyStmt:
	case *ast.BlockStmt:
		f.emit(f.block(s.List))
	case *ast.ExprStmt:
		f.exprStmt(s)
	case *ast.AssignStmt:
		f.assign(s)
	case *ast.IncDecStmt:
		op := token.ADD
		if s.Tok == token.DEC {
			op = token.SUB
		}
		f.update(s.X, op, nil, s.TokPos)
	case *ast.DeclStmt:
		f.declStmt(s)
	case *ast.IfStmt:
		f.ifStmt(s)
	case *ast.ForStmt:
		f.forStmt(s)
	case *ast.RangeStmt:
		f.rangeStmt(s)
	case *ast.SwitchStmt:
		f.switchStmt(s)
	case *ast.ReturnStmt:
		f.returnStmt(s)
	case *ast.BranchStmt:
		f.branch(s)
	case *ast.LabeledStmt:
		c.errorf(s.Pos(), RuleNoGoto, "label %s", s.Label.Name)
		f.stmt(s.Stmt)
	case *ast.TypeSwitchStmt:
		c.errorf(s.Pos(), RuleNoInterface, "type switch")
	case *ast.SelectStmt:
		c.errorf(s.Pos(), RuleNoChannel, "select statement")
	case *ast.SendStmt:
		c.errorf(s.Pos(), RuleNoChannel, "channel send")
	case *ast.GoStmt:
		c.errorf(s.Pos(), RuleNoGoroutine, "go statement")
	case *ast.DeferStmt:
		c.errorf(s.Pos(), RuleNoDefer, "defer statement")
	default:
		c.errorf(s.Pos(), RuleUnsupported, "statement")
	}
}

// exprStmt lowers a call statement; t.Barrier() becomes a Barrier.
func (f *fnState) exprStmt(s *ast.ExprStmt) {
	c := f.c
	p := c.pos(s.Pos())
	if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
		if fn, ok := f.callee(call.Fun).(*types.Func); ok && fn.Name() == "Barrier" {
			if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil && isThread(sig.Recv().Type()) {
				sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				if b := f.threadOf(sel); b == nil || b.kind != bindThread {
					c.errorf(call.Pos(), RuleUnsupported, "barrier of a thread other than the kernel's parameter")
					return
				}
				f.emit(&ir.Barrier{Pos: p})
				return
			}
		}
	}
	x := f.expr(s.X)
	f.emit(&ir.ExprStmt{X: x, Pos: p})
}

// declStmt lowers var declarations; constants need no code.
func (f *fnState) declStmt(s *ast.DeclStmt) {
	c := f.c
	g, ok := s.Decl.(*ast.GenDecl)
	if !ok {
		return
	}
	switch g.Tok {
	case token.CONST:
		return
	case token.TYPE:
		c.errorf(g.Pos(), RuleUnsupported, "local type declaration; declare types at package level")
		return
	}
	for _, sp := range g.Specs {
		vs, ok := sp.(*ast.ValueSpec)
		if !ok {
			continue
		}
		if len(vs.Values) == 1 && len(vs.Names) == 1 && f.isSharedCall(vs.Values[0]) {
			f.shared(vs.Names[0], vs.Values[0])
			continue
		}
		if len(vs.Values) != 0 && len(vs.Values) != len(vs.Names) {
			nerr := f.trouble()
			f.expr(vs.Values[0])
			for _, id := range vs.Names {
				f.bindBad([]ast.Expr{id})
			}
			if f.trouble() == nerr {
				c.errorf(vs.Values[0].Pos(), RuleFuncSignature, "multi-value expression %s", types.ExprString(vs.Values[0]))
			}
			continue
		}
		for i, id := range vs.Names {
			var init ast.Expr
			if len(vs.Values) > 0 {
				init = vs.Values[i]
				if f.isSharedCall(init) {
					c.errorf(init.Pos(), RuleSharedPlacement, "xpu.Shared outside a single variable declaration at the top level of the kernel body")
					continue
				}
			}
			if id.Name == "_" {
				if init != nil {
					if x := f.expr(init); hasEffect(x) {
						f.emit(&ir.ExprStmt{X: x, Pos: c.pos(init.Pos())})
					}
				}
				continue
			}
			f.declare(id, nil, init)
		}
	}
}

// ifStmt lowers if [init;] cond {} [else ...].
func (f *fnState) ifStmt(s *ast.IfStmt) {
	outer := f.out
	if s.Init != nil {
		b := &ir.Block{}
		f.emit(b)
		f.out = b
		f.depth++
		defer func() { f.depth--; f.out = outer }()
		f.stmt(s.Init)
	}
	if taken, ok := f.comptimeCond(s.Cond); ok {
		// A condition over comptime fields selects a branch per
		// template member; the other is not compiled for it, so a
		// member may leave out what its shape does not allow (a
		// WaveBallot at wave=64).
		switch e := s.Else.(type) {
		case nil:
			if taken {
				f.emit(f.block(s.Body.List))
			}
		case *ast.BlockStmt:
			if taken {
				f.emit(f.block(s.Body.List))
			} else {
				f.emit(f.block(e.List))
			}
		case *ast.IfStmt:
			if taken {
				f.emit(f.block(s.Body.List))
			} else {
				b := &ir.Block{}
				f.into(b, func() { f.ifStmt(e) })
				f.emit(b)
			}
		}
		return
	}
	cond := f.exprHint(s.Cond, ir.BoolType)
	n := &ir.If{Cond: cond, Then: f.block(s.Body.List), Pos: f.c.pos(s.Pos())}
	switch e := s.Else.(type) {
	case *ast.BlockStmt:
		n.Else = f.block(e.List)
	case *ast.IfStmt:
		n.Else = &ir.Block{}
		f.into(n.Else, func() { f.ifStmt(e) })
	}
	f.emit(n)
}

// comptimeCond reports the value of an if condition that reads the
// comptime parameter and folds to a boolean constant. A Go constant
// condition is left as written: it is the same for every member, so both
// of its branches are checked as they stand.
func (f *fnState) comptimeCond(e ast.Expr) (taken, ok bool) {
	if tv, isConst := f.c.info.Types[e]; isConst && tv.Value != nil {
		return false, false
	}
	v, ok := f.constValue(e)
	if !ok || v.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(v), true
}

// loopBody lowers a loop body with break and continue bound to the loop.
func (f *fnState) loopBody(list []ast.Stmt, prefix ...ir.Stmt) *ir.Block {
	f.targets = append(f.targets, false)
	b := &ir.Block{Stmts: prefix}
	f.into(b, func() { f.stmts(list) })
	f.targets = f.targets[:len(f.targets)-1]
	return b
}

// forStmt lowers for [init]; [cond]; [post] {}.
func (f *fnState) forStmt(s *ast.ForStmt) {
	c := f.c
	p := c.pos(s.Pos())
	outer := &ir.Block{}
	f.emit(outer)
	f.into(outer, func() {
		if s.Init != nil {
			f.forInit = true
			f.stmt(s.Init)
			f.forInit = false
		}
		loop := &ir.Loop{Pos: p}
		var pre []ir.Stmt
		if s.Cond != nil {
			cb := &ir.Block{}
			f.into(cb, func() { loop.Cond = f.exprHint(s.Cond, ir.BoolType) })
			if len(cb.Stmts) > 0 {
				// The condition needs statements: test it inside the body.
				stop := &ir.If{Cond: &ir.Unary{Op: ir.OpNot, X: loop.Cond, T: ir.BoolType}, Then: &ir.Block{Stmts: []ir.Stmt{&ir.Break{Pos: p}}}, Pos: p}
				pre = append(cb.Stmts, stop)
				loop.Cond = nil
			}
		}
		if s.Post != nil {
			loop.Post = &ir.Block{}
			f.into(loop.Post, func() { f.stmt(s.Post) })
		}
		loop.Body = f.loopBody(s.Body.List, pre...)
		f.emit(loop)
	})
}

// rangeStmt lowers for [i :=] range n over an integer n, evaluated once.
func (f *fnState) rangeStmt(s *ast.RangeStmt) {
	c := f.c
	p := c.pos(s.Pos())
	xt := f.typeOf(s.X)
	if xt == nil {
		return
	}
	if b, ok := xt.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		rule := RuleRange
		switch xt.Underlying().(type) {
		case *types.Map:
			rule = RuleNoMap
		case *types.Chan:
			rule = RuleNoChannel
		case *types.Signature:
			rule = RuleNoClosure
		case *types.Basic:
			rule = RuleNoString
		}
		c.errorf(s.X.Pos(), rule, "range over %s", xt)
		return
	}
	var key ast.Expr
	if s.Key != nil {
		if id, ok := s.Key.(*ast.Ident); !ok || id.Name != "_" {
			key = s.Key
		}
	}
	// The counter's type: the key's, or n's, or uint32 for an untyped n.
	var ct ir.Type
	if key != nil {
		gt := f.typeOf(key)
		t, err := f.ks.irType(gt)
		if err != nil {
			c.errorFix(key.Pos(), err.rule, "write for i := range uint32(n) or for i := range int32(n)", "range variable %s: %s", types.ExprString(key), err.msg)
			return
		}
		ct = t
	} else if t, err := f.ks.irType(xt); err == nil {
		ct = t
	} else {
		ct = ir.U32Type
	}
	outer := &ir.Block{}
	f.emit(outer)
	f.into(outer, func() {
		n := f.exprHint(s.X, ct)
		switch n.(type) {
		case *ir.Const, *ir.ScalarRef:
		default:
			n = f.temp(n, s.X.Pos()) // evaluated once, as Go does
		}
		var keyObj types.Object
		if id, ok := key.(*ast.Ident); ok && s.Tok == token.DEFINE {
			keyObj = c.info.Defs[id]
		}
		// The key is a fresh copy per iteration: a direct counter only if
		// the body leaves it alone.
		var counter *ir.Var
		if keyObj != nil && !f.assigned[keyObj] {
			counter = f.newVar(keyObj, keyObj.Name(), ct, key.Pos())
		} else {
			counter = f.newVar(nil, "i", ct, s.Pos())
		}
		f.emit(&ir.Decl{Var: counter, Init: &ir.Const{T: ct.(*ir.Basic)}, Pos: p})
		var prefix []ir.Stmt
		if key != nil && (keyObj == nil || f.assigned[keyObj]) {
			pb := &ir.Block{}
			f.into(pb, func() {
				if keyObj != nil {
					v := f.newVar(keyObj, keyObj.Name(), ct, key.Pos())
					f.emit(&ir.Decl{Var: v, Init: &ir.VarRef{Var: counter}, Pos: p})
				} else {
					f.emit(&ir.Assign{Dst: f.place(key, false), Value: &ir.VarRef{Var: counter}, Pos: p})
				}
			})
			prefix = pb.Stmts
		}
		one := &ir.Const{T: ct.(*ir.Basic), Bits: 1}
		loop := &ir.Loop{
			Cond: &ir.Binary{Op: ir.OpLt, X: &ir.VarRef{Var: counter}, Y: clonePlace(n), T: ir.BoolType},
			Post: &ir.Block{Stmts: []ir.Stmt{&ir.Assign{
				Dst:   &ir.VarRef{Var: counter},
				Value: &ir.Binary{Op: ir.OpAdd, X: &ir.VarRef{Var: counter}, Y: one, T: ct},
				Pos:   p,
			}}},
			Pos: p,
		}
		loop.Body = f.loopBody(s.Body.List, prefix...)
		f.emit(loop)
	})
}

// switchStmt lowers a switch to an if chain (Go semantics, no fallthrough).
func (f *fnState) switchStmt(s *ast.SwitchStmt) {
	outer := &ir.Block{}
	f.emit(outer)
	f.into(outer, func() {
		if s.Init != nil {
			f.stmt(s.Init)
		}
		var tag ir.Expr
		if s.Tag != nil {
			tag = f.expr(s.Tag)
			if !isTrivial(tag) {
				tag = f.temp(tag, s.Tag.Pos())
			}
		}
		var cases []*ast.CaseClause
		var def *ast.CaseClause
		for _, st := range s.Body.List {
			cc, ok := st.(*ast.CaseClause)
			if !ok {
				continue
			}
			if cc.List == nil {
				def = cc
			} else {
				cases = append(cases, cc)
			}
		}
		f.caseChain(tag, cases, def)
	})
}

// caseChain lowers the cases from the first on into the current block.
func (f *fnState) caseChain(tag ir.Expr, cases []*ast.CaseClause, def *ast.CaseClause) {
	if len(cases) == 0 {
		if def != nil {
			f.emit(f.caseBody(def))
		}
		return
	}
	cc := cases[0]
	var cond ir.Expr
	for _, e := range cc.List {
		var x ir.Expr
		if tag == nil {
			x = f.exprHint(e, ir.BoolType)
		} else {
			x = &ir.Binary{Op: ir.OpEq, X: clonePlace(tag), Y: f.exprHint(e, tag.Type()), T: ir.BoolType}
		}
		if cond == nil {
			cond = x
		} else {
			cond = &ir.Binary{Op: ir.OpLOr, X: cond, Y: x, T: ir.BoolType}
		}
	}
	n := &ir.If{Cond: cond, Then: f.caseBody(cc), Pos: f.c.pos(cc.Pos())}
	if len(cases) > 1 || def != nil {
		n.Else = &ir.Block{}
		f.into(n.Else, func() { f.caseChain(tag, cases[1:], def) })
	}
	f.emit(n)
}

// caseBody lowers a case clause's statements with break bound to the switch.
func (f *fnState) caseBody(cc *ast.CaseClause) *ir.Block {
	f.targets = append(f.targets, true)
	b := f.block(cc.Body)
	f.targets = f.targets[:len(f.targets)-1]
	return b
}

// returnStmt lowers return.
func (f *fnState) returnStmt(s *ast.ReturnStmt) {
	p := f.c.pos(s.Pos())
	if len(s.Results) == 0 {
		f.emit(&ir.Return{Pos: p})
		return
	}
	if len(s.Results) > 1 {
		f.c.errorf(s.Pos(), RuleFuncSignature, "return of %d values", len(s.Results))
		return
	}
	f.emit(&ir.Return{Value: f.exprHint(s.Results[0], f.result), Pos: p})
}

// branch lowers break, continue, goto and fallthrough.
func (f *fnState) branch(s *ast.BranchStmt) {
	c := f.c
	p := c.pos(s.Pos())
	switch {
	case s.Tok == token.GOTO:
		c.errorf(s.Pos(), RuleNoGoto, "goto")
	case s.Label != nil:
		c.errorf(s.Pos(), RuleNoGoto, "labeled %s", s.Tok)
	case s.Tok == token.FALLTHROUGH:
		c.errorf(s.Pos(), RuleNoFallthrough, "fallthrough")
	case s.Tok == token.BREAK:
		if len(f.targets) > 0 && f.targets[len(f.targets)-1] {
			c.errorf(s.Pos(), RuleSwitchBreak, "break inside a switch")
			return
		}
		f.emit(&ir.Break{Pos: p})
	case s.Tok == token.CONTINUE:
		f.emit(&ir.Continue{Pos: p})
	}
}
