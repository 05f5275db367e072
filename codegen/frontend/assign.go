package frontend

// This file lowers assignments, increments and variable declarations,
// with Go's order of evaluation.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/goxpu/xpu/codegen/ir"
)

// assignOps maps op= tokens to operators.
var assignOps = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL,
	token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM, token.AND_ASSIGN: token.AND,
	token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR, token.AND_NOT_ASSIGN: token.AND_NOT,
	token.SHL_ASSIGN: token.SHL, token.SHR_ASSIGN: token.SHR,
}

// place lowers an assignable expression: a variable, or an element or
// field of one, of a buffer or of a shared array. With hoist, index
// operands that are not constants go to temporaries first.
func (f *fnState) place(e ast.Expr, hoist bool) ir.Expr {
	c := f.c
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		b := f.binds[c.info.Uses[e]]
		if b == nil {
			b = f.binds[c.info.Defs[e]]
		}
		switch {
		case b == nil:
			return f.ident(e)
		case b.kind == bindVar:
			return &ir.VarRef{Var: b.v}
		case b.kind == bindBad:
			f.silent++
			return f.bad()
		case b.kind == bindBuffer || b.kind == bindShared:
			c.errorf(e.Pos(), RuleBufferVar, "assignment to %s", e.Name)
		default:
			c.errorf(e.Pos(), RuleUnsupported, "assignment to %s", e.Name)
		}
		return f.bad()
	case *ast.IndexExpr:
		xt := f.typeOf(e.X)
		if xt == nil {
			return f.bad()
		}
		if _, isArray := xt.Underlying().(*types.Array); !isArray {
			x := f.index(e)
			if ix, ok := x.(*ir.Index); ok && hoist {
				ix.Index = f.temp(ix.Index, e.Index.Pos())
			}
			return x
		}
		nerr := f.trouble()
		x := f.place(e.X, hoist)
		i := f.indexValue(e.Index)
		t := f.irTypeOf(e, nerr)
		if t == nil || f.trouble() > nerr {
			return f.bad()
		}
		if hoist {
			i = f.temp(i, e.Index.Pos())
		}
		return &ir.Index{X: x, Index: i, T: t}
	case *ast.SelectorExpr:
		sel := c.info.Selections[e]
		if sel == nil || sel.Kind() != types.FieldVal || len(sel.Index()) != 1 {
			return f.selector(e)
		}
		if b := f.objBinding(e.X); b != nil && b.kind == bindComptime {
			c.errorf(e.Pos(), RuleUnsupported, "assignment to comptime field %s", e.Sel.Name)
			return f.bad()
		}
		nerr := f.trouble()
		x := f.place(e.X, hoist)
		t := f.irTypeOf(e, nerr)
		if t == nil || f.trouble() > nerr {
			return f.bad()
		}
		return &ir.FieldOf{X: x, Field: sel.Index()[0], T: t}
	case *ast.StarExpr:
		c.errorf(e.Pos(), RuleNoPointer, "assignment through a pointer")
		return f.bad()
	}
	c.errorf(e.Pos(), RuleUnsupported, "%s is not assignable in device code", types.ExprString(e))
	return f.bad()
}

// clonePlace copies a place so it can be read as well as written.
func clonePlace(x ir.Expr) ir.Expr {
	switch e := x.(type) {
	case *ir.VarRef:
		return &ir.VarRef{Var: e.Var}
	case *ir.Index:
		return &ir.Index{X: clonePlace(e.X), Index: clonePlace(e.Index), T: e.T}
	case *ir.FieldOf:
		return &ir.FieldOf{X: clonePlace(e.X), Field: e.Field, T: e.T}
	case *ir.BufferRef:
		return &ir.BufferRef{Param: e.Param}
	case *ir.SharedRef:
		return &ir.SharedRef{Shared: e.Shared}
	case *ir.ScalarRef:
		return &ir.ScalarRef{Param: e.Param}
	case *ir.Const:
		c := *e
		return &c
	}
	return x
}

// isTrivial reports whether a hoisted index is a constant or variable.
func isTrivial(x ir.Expr) bool {
	switch x.(type) {
	case *ir.Const, *ir.VarRef, *ir.ScalarRef:
		return true
	}
	return false
}

// assign lowers an assignment statement.
func (f *fnState) assign(s *ast.AssignStmt) {
	c := f.c
	p := c.pos(s.Pos())
	if op, ok := assignOps[s.Tok]; ok {
		f.update(s.Lhs[0], op, s.Rhs[0], s.TokPos)
		return
	}
	if len(s.Lhs) != len(s.Rhs) {
		if vals, ok := f.tupleCall(s.Lhs, s.Rhs[0]); ok {
			f.assignTuple(s, vals)
			return
		}
		nerr := f.trouble()
		f.expr(s.Rhs[0])
		if f.trouble() == nerr {
			c.errorf(s.Rhs[0].Pos(), RuleFuncSignature, "multi-value expression %s", types.ExprString(s.Rhs[0]))
		}
		f.bindBad(s.Lhs)
		return
	}
	if s.Tok == token.DEFINE && len(s.Lhs) == 1 && f.isSharedCall(s.Rhs[0]) {
		id, _ := s.Lhs[0].(*ast.Ident)
		f.shared(id, s.Rhs[0])
		return
	}
	for _, r := range s.Rhs {
		if f.isSharedCall(r) {
			c.errorf(r.Pos(), RuleSharedPlacement, "xpu.Shared outside a single variable declaration at the top level of the kernel body")
			return
		}
	}
	allNew := s.Tok == token.DEFINE
	if allNew {
		for _, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); ok && c.info.Defs[id] == nil && id.Name != "_" {
				allNew = false
			}
		}
	}
	if len(s.Lhs) == 1 || allNew {
		for i, l := range s.Lhs {
			f.assignOne(s.Tok, l, s.Rhs[i], p)
		}
		return
	}
	// Go evaluates the index operands on the left and the values on the
	// right first, then assigns from left to right.
	dsts := make([]ir.Expr, len(s.Lhs))
	for i, l := range s.Lhs {
		if id, ok := l.(*ast.Ident); ok && (id.Name == "_" || c.info.Defs[id] != nil) {
			continue
		}
		dsts[i] = f.place(l, true)
	}
	vals := make([]ir.Expr, len(s.Rhs))
	for i, r := range s.Rhs {
		var hint ir.Type
		if dsts[i] != nil {
			hint = dsts[i].Type()
		}
		vals[i] = f.temp(f.exprHint(r, hint), r.Pos())
	}
	for i, l := range s.Lhs {
		switch {
		case dsts[i] != nil:
			f.emit(&ir.Assign{Dst: dsts[i], Value: vals[i], Pos: c.pos(l.Pos())})
		default:
			f.declare(l.(*ast.Ident), vals[i], s.Rhs[i])
		}
	}
}

// bindBad marks the variables an erroneous declaration defines as
// refused, so that their uses report nothing more.
func (f *fnState) bindBad(lhs []ast.Expr) {
	for _, l := range lhs {
		if id, ok := l.(*ast.Ident); ok {
			if obj := f.c.info.Defs[id]; obj != nil {
				f.bind(obj, &binding{kind: bindBad})
			}
		}
	}
}

// assignOne lowers lhs = rhs or lhs := rhs.
func (f *fnState) assignOne(tok token.Token, l, r ast.Expr, p ir.Pos) {
	c := f.c
	if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
		if _, ok := ast.Unparen(r).(*ast.Ident); ok {
			return // _ = x has no effect
		}
		x := f.expr(r)
		if hasEffect(x) {
			f.emit(&ir.ExprStmt{X: x, Pos: p})
		}
		return
	}
	if id, ok := l.(*ast.Ident); ok && tok == token.DEFINE && c.info.Defs[id] != nil {
		f.declare(id, nil, r)
		return
	}
	nerr := f.trouble()
	dst := f.place(l, false)
	if f.trouble() > nerr {
		return
	}
	val := f.exprHint(r, dst.Type())
	f.emit(&ir.Assign{Dst: dst, Value: val, Pos: c.pos(l.Pos())})
}

// declare declares the variable id with the value val (lowered already)
// or, when val is nil, the value of init (nil for the zero value).
func (f *fnState) declare(id *ast.Ident, val ir.Expr, init ast.Expr) {
	c := f.c
	obj := c.info.Defs[id]
	if obj == nil {
		return
	}
	t, err := f.ks.irType(obj.Type())
	if err != nil && val == nil && init != nil {
		// The initializer's own refusal says more than the variable's.
		nerr := f.trouble()
		f.expr(init)
		if f.trouble() > nerr {
			f.bind(obj, &binding{kind: bindBad})
			return
		}
	}
	if err != nil {
		fix := fixes[err.rule]
		if err.rule == RuleNo64Bit && f.forInit {
			fix = "write for i := int32(0); ... or for i := range uint32(n)"
		}
		if err.rule == RuleNo64Bit && init != nil && isLen(c.info, init) {
			fix = "convert it: uint32(len(buf)) or int32(len(buf))"
		}
		c.errorFix(id.Pos(), err.rule, fix, "variable %s: %s", id.Name, err.msg)
		f.bind(obj, &binding{kind: bindBad})
		return
	}
	if val == nil && init != nil {
		val = f.exprHint(init, t)
	}
	v := f.newVar(obj, id.Name, t, id.Pos())
	f.emit(&ir.Decl{Var: v, Init: val, Pos: c.pos(id.Pos())})
}

// isLen reports whether e is a call of len.
func isLen(info *types.Info, e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == "len"
}

// hasEffect reports whether evaluating x may change memory.
func hasEffect(x ir.Expr) bool {
	found := false
	ir.WalkExpr(x, func(e ir.Expr) bool {
		switch e.(type) {
		case *ir.Call, *ir.Atomic:
			found = true
		}
		return !found
	})
	return found
}

// update lowers lhs op= rhs, x++ and x--.
func (f *fnState) update(l ast.Expr, op token.Token, r ast.Expr, opPos token.Pos) {
	c := f.c
	if f.float16Arith(opPos, "operator "+op.String(), l) {
		return
	}
	nerr := f.trouble()
	dst := f.place(l, false)
	if f.trouble() > nerr {
		return
	}
	if hasEffect(dst) {
		dst = f.place(l, true)
	}
	t := dst.Type()
	bt, ok := t.(*ir.Basic)
	if !ok {
		c.errorf(opPos, RuleUnsupported, "operator %s on %v", op, t)
		return
	}
	var y ir.Expr
	if r == nil {
		y = &ir.Const{T: bt, Bits: 1}
		if bt.Kind == ir.F32 {
			y = &ir.Const{T: bt, Bits: 0x3f800000}
		}
	} else if op == token.SHL || op == token.SHR {
		y = f.shiftCount(r)
	} else {
		y = f.exprHint(r, t)
	}
	val := &ir.Binary{Op: binaryOps[op], X: clonePlace(dst), Y: y, T: t}
	f.emit(&ir.Assign{Dst: dst, Value: val, Pos: c.pos(l.Pos())})
}

// shared declares a shared array: id := xpu.Shared[T](t, n).
func (f *fnState) shared(id *ast.Ident, call ast.Expr) {
	c := f.c
	e := ast.Unparen(call).(*ast.CallExpr)
	var obj types.Object
	if id != nil {
		obj = c.info.Defs[id]
	}
	if !f.kernel || f.depth > 0 || obj == nil {
		c.errorf(e.Pos(), RuleSharedPlacement, "xpu.Shared outside a variable declaration at the top level of the kernel body")
		f.bind(obj, &binding{kind: bindBad})
		return
	}
	var elem types.Type
	if rt := f.typeOf(e); rt != nil {
		elem = sliceElem(rt)
	}
	if elem == nil || len(e.Args) != 2 {
		f.bind(obj, &binding{kind: bindBad})
		return
	}
	et, err := f.ks.irType(elem)
	if err == nil && !inMemory(et) {
		err = &typeError{RuleUnsupported, "shared elements are int32, uint32, float32, structs of those, or arrays of them"}
	}
	if err == nil {
		err = narrowPlace(et, false, "elements")
	}
	if err != nil {
		c.errorf(e.Pos(), err.rule, "shared array %s: %s", id.Name, err.msg)
		f.bind(obj, &binding{kind: bindBad})
		return
	}
	v, ok := f.constValue(e.Args[1])
	n, exact := int64(0), false
	if ok && isNumeric(v) {
		if iv := constant.ToInt(v); iv.Kind() == constant.Int {
			n, exact = constant.Int64Val(iv)
		}
	}
	if !exact || n <= 0 || n > maxArray {
		c.errorf(e.Args[1].Pos(), RuleSharedSize, "size of shared array %s is not a constant from 1 to %d", id.Name, maxArray)
		f.bind(obj, &binding{kind: bindBad})
		return
	}
	if k := int64(scalars(et)); n*k > maxArray {
		c.errorf(e.Args[1].Pos(), RuleArraySize, "shared array %s holds %d scalars, more than %d", id.Name, n*k, maxArray)
		f.bind(obj, &binding{kind: bindBad})
		return
	}
	s := &ir.Shared{Name: f.name(id.Name), Elem: et, Len: int(n), Pos: c.pos(id.Pos())}
	f.ks.k.Shared = append(f.ks.k.Shared, s)
	f.bind(obj, &binding{kind: bindShared, shared: s})
}
