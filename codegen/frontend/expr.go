package frontend

// This file lowers expressions.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"

	"github.com/goxpu/xpu/codegen/ir"
)

// bad is the placeholder for an expression already refused.
func (f *fnState) bad() ir.Expr { return &ir.Const{T: ir.I32Type} }

// typeOf returns the Go type of e, with the type arguments in force in
// place of type parameters.
func (f *fnState) typeOf(e ast.Expr) types.Type { return f.ks.targs.subst(f.c.info.TypeOf(e)) }

// irTypeOf returns the IR type of e, reporting at e when it has none and
// no error was reported since nerr.
func (f *fnState) irTypeOf(e ast.Expr, nerr int) ir.Type {
	gt := f.typeOf(e)
	if gt == nil {
		f.c.errorf(e.Pos(), RuleUnsupported, "expression %s has no type", types.ExprString(e))
		return nil
	}
	t, err := f.ks.irType(gt)
	if err != nil {
		if f.trouble() == nerr {
			f.c.errorf(e.Pos(), err.rule, "%s: %s", types.ExprString(e), err.msg)
		}
		return nil
	}
	return t
}

// constValue returns the value of e if it is constant: a Go constant or an
// expression over comptime fields. Every expression is lowered after
// asking whether it is constant, and the answer for an operator depends
// on its operands', so the answers are kept: without them a chain of n
// terms would cost n*n (20,000 terms took minutes).
func (f *fnState) constValue(e ast.Expr) (constant.Value, bool) {
	if tv, ok := f.c.info.Types[e]; ok && tv.Value != nil {
		return tv.Value, true
	}
	if r, ok := f.consts[e]; ok {
		return r.v, r.ok
	}
	v, ok := f.evalConstValue(e)
	if f.consts == nil {
		f.consts = make(map[ast.Expr]constAnswer)
	}
	f.consts[e] = constAnswer{v, ok}
	f.c.constEvals++
	return v, ok
}

// constAnswer is what constValue found for an expression.
type constAnswer struct {
	v  constant.Value
	ok bool
}

// evalConstValue computes constValue's answer for e.
func (f *fnState) evalConstValue(e ast.Expr) (constant.Value, bool) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return f.constValue(e.X)
	case *ast.SelectorExpr:
		if b := f.objBinding(e.X); b != nil && b.kind == bindComptime && b.ct != nil {
			v, _, ok := b.ct.field(e.Sel.Name)
			return v, ok
		}
	case *ast.UnaryExpr:
		if x, ok := f.constValue(e.X); ok {
			v, err := constUnary(e.Op, x)
			return v, err == nil
		}
	case *ast.BinaryExpr:
		x, okx := f.constValue(e.X)
		y, oky := f.constValue(e.Y)
		if okx && oky {
			v, err := constBinary(e.Op, x, y)
			if err == nil && e.Op != token.SHL && e.Op != token.SHR && isNumeric(v) {
				// Typed arithmetic wraps or rounds as the type does.
				if b, ok := f.typeOf(e).Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
					v = wrapInt(v, b)
				}
			}
			return v, err == nil
		}
	case *ast.CallExpr:
		if tv, ok := f.c.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			b, isBasic := f.ks.targs.subst(tv.Type).Underlying().(*types.Basic)
			if x, ok := f.constValue(e.Args[0]); ok && isBasic {
				v, err := convertConst(x, b)
				return v, err == nil
			}
		}
	}
	return nil, false
}

// wrapInt reduces an integer constant to the range of the 64-, 32-, 16-
// or 8-bit type b.
func wrapInt(v constant.Value, b *types.Basic) constant.Value {
	bits := map[types.BasicKind]uint{types.Int64: 64, types.Uint64: 64, types.Int32: 32, types.Uint32: 32, types.Int16: 16, types.Uint16: 16, types.Int8: 8, types.Uint8: 8}[b.Kind()]
	if bits == 0 {
		return v
	}
	if v = constant.ToInt(v); v.Kind() != constant.Int {
		return v
	}
	m := constant.Shift(constant.MakeUint64(1), token.SHL, bits)
	v = constant.BinaryOp(v, token.REM, m)
	if constant.Sign(v) < 0 {
		v = constant.BinaryOp(v, token.ADD, m)
	}
	if b.Info()&types.IsUnsigned == 0 && constant.Compare(v, token.GEQ, constant.MakeUint64(1<<(bits-1))) {
		v = constant.BinaryOp(v, token.SUB, m)
	}
	return v
}

// mkConst makes an IR constant of the value v of Go type t; hint is the
// IR type wanted where t is untyped or platform-sized.
func (f *fnState) mkConst(v constant.Value, t types.Type, hint ir.Type, p token.Pos) ir.Expr {
	switch v.Kind() {
	case constant.String:
		f.c.errorf(p, RuleNoString, "string constant %v", v)
		return f.bad()
	case constant.Complex:
		f.c.errorf(p, RuleScalarType, "complex constant %v", v)
		return f.bad()
	case constant.Unknown:
		f.silent++ // go/types reported it already
		return f.bad()
	}
	var it *ir.Basic
	if t != nil {
		if b, ok := t.Underlying().(*types.Basic); ok {
			it, _ = basicType(b)
		}
	}
	if it == nil {
		if h, ok := hint.(*ir.Basic); ok {
			it = h
		}
	}
	if it == nil {
		switch {
		case v.Kind() == constant.Bool:
			it = ir.BoolType
		case v.Kind() == constant.Float:
			it = ir.F32Type
		case v.Kind() == constant.Int && fitsInt(v, types.Typ[types.Int32]):
			it = ir.I32Type
		default:
			it = ir.U32Type
		}
	}
	if it.Wide64() {
		n, ok := constBits64(v, it)
		if !ok {
			f.c.errorf(p, RuleConstOverflow, "constant %v overflows %v", v, it)
			return f.bad()
		}
		return &ir.Const{T: it, Bits: uint32(n), Hi: uint32(n >> 32)}
	}
	bits, ok := constBits(v, it)
	if !ok {
		f.c.errorf(p, RuleConstOverflow, "constant %v overflows %v", v, it)
		return f.bad()
	}
	return &ir.Const{T: it, Bits: bits}
}

// constBits64 encodes v as a constant of the 64-bit integer type t: all
// 64 bits of its value.
func constBits64(v constant.Value, t *ir.Basic) (uint64, bool) {
	if !isNumeric(v) {
		return 0, false
	}
	iv := constant.ToInt(v)
	if iv.Kind() != constant.Int {
		return 0, false
	}
	if t.Kind == ir.I64 {
		n, exact := constant.Int64Val(iv)
		return uint64(n), exact
	}
	return constant.Uint64Val(iv)
}

// constBits encodes v as a constant of type t.
func constBits(v constant.Value, t *ir.Basic) (uint32, bool) {
	switch t.Kind {
	case ir.Bool:
		if v.Kind() != constant.Bool {
			return 0, false
		}
		if constant.BoolVal(v) {
			return 1, true
		}
		return 0, true
	case ir.I32, ir.U32:
		if !isNumeric(v) {
			return 0, false
		}
		iv := constant.ToInt(v)
		if iv.Kind() != constant.Int {
			return 0, false
		}
		if t.Kind == ir.I32 {
			n, exact := constant.Int64Val(iv)
			return uint32(int32(n)), exact && n >= math.MinInt32 && n <= math.MaxInt32
		}
		n, exact := constant.Uint64Val(iv)
		return uint32(n), exact && n <= math.MaxUint32
	case ir.I8, ir.U8, ir.I16, ir.U16:
		if !isNumeric(v) {
			return 0, false
		}
		iv := constant.ToInt(v)
		if iv.Kind() != constant.Int {
			return 0, false
		}
		n, exact := constant.Int64Val(iv)
		bits := uint32(int32(n))
		return bits, exact && ir.ExtendBits(bits, t) == bits && uint64(n) == uint64(int64(int32(n)))
	case ir.F32:
		if !isNumeric(v) {
			return 0, false
		}
		x, _ := constant.Float64Val(constant.ToFloat(v))
		if math.IsInf(x, 0) || math.Abs(x) > math.MaxFloat32 {
			return 0, false
		}
		return math.Float32bits(float32(x)), true
	}
	return 0, false
}

// expr lowers an rvalue.
func (f *fnState) expr(e ast.Expr) ir.Expr { return f.exprHint(e, nil) }

// exprHint lowers an rvalue; hint is the type wanted for an untyped or
// platform-sized constant.
func (f *fnState) exprHint(e ast.Expr, hint ir.Type) ir.Expr {
	if v, ok := f.constValue(e); ok {
		return f.mkConst(v, f.typeOf(e), hint, e.Pos())
	}
	c := f.c
	switch e := e.(type) {
	case *ast.ParenExpr:
		return f.exprHint(e.X, hint)
	case *ast.Ident:
		return f.ident(e)
	case *ast.SelectorExpr:
		return f.selector(e)
	case *ast.IndexExpr:
		return f.index(e)
	case *ast.IndexListExpr:
		c.errorf(e.Pos(), RuleNoClosure, "generic function %s used as a value", types.ExprString(e))
	case *ast.SliceExpr:
		c.errorf(e.Lbrack, RuleNoSlicing, "slice expression %s", types.ExprString(e))
	case *ast.StarExpr:
		c.errorf(e.Pos(), RuleNoPointer, "pointer indirection %s", types.ExprString(e))
	case *ast.UnaryExpr:
		return f.unary(e)
	case *ast.BinaryExpr:
		return f.binary(e)
	case *ast.CallExpr:
		return f.call(e)
	case *ast.FuncLit:
		c.errorf(e.Pos(), RuleNoClosure, "function literal")
	case *ast.CompositeLit:
		return f.composite(e)
	case *ast.TypeAssertExpr:
		c.errorf(e.Pos(), RuleNoInterface, "type assertion %s", types.ExprString(e))
	case *ast.BasicLit:
		c.errorf(e.Pos(), RuleNoString, "literal %s", e.Value)
	default:
		c.errorf(e.Pos(), RuleUnsupported, "expression %s", types.ExprString(e))
	}
	return f.bad()
}

// ident lowers a name.
func (f *fnState) ident(e *ast.Ident) ir.Expr {
	c := f.c
	obj := c.info.Uses[e]
	if b := f.binds[obj]; b != nil {
		switch b.kind {
		case bindVar:
			return &ir.VarRef{Var: b.v}
		case bindScalar:
			return &ir.ScalarRef{Param: b.param}
		case bindBuffer, bindShared:
			c.errorf(e.Pos(), RuleBufferVar, "%s is used as a value", e.Name)
		case bindThread:
			c.errorf(e.Pos(), RuleUnsupported, "the thread %s is used as a value; call its methods or pass it to a device function", e.Name)
		case bindComptime:
			c.errorf(e.Pos(), RuleUnsupported, "comptime parameter %s is used as a value; use its fields", e.Name)
		case bindBad:
			f.silent++
		}
		return f.bad()
	}
	switch obj := obj.(type) {
	case *types.Var:
		if obj.Parent() == c.pkg.Scope() {
			c.errorf(e.Pos(), RuleUnsupported, "package-level variable %s; device code reads only constants, parameters and locals", e.Name)
		} else if obj.Pkg() != nil && obj.Pkg() != c.pkg {
			c.errorf(e.Pos(), RuleImport, "variable %s of package %s", e.Name, obj.Pkg().Path())
		} else {
			c.errorf(e.Pos(), RuleUnsupported, "variable %s is not available in device code", e.Name)
		}
	case *types.Func:
		c.errorf(e.Pos(), RuleNoClosure, "function %s used as a value", e.Name)
	case *types.Nil:
		c.errorf(e.Pos(), RuleNoPointer, "nil")
	default:
		c.errorf(e.Pos(), RuleUnsupported, "%s is not a value of the kernel language", e.Name)
	}
	return f.bad()
}

// selector lowers x.f: a struct field, or a qualified name.
func (f *fnState) selector(e *ast.SelectorExpr) ir.Expr {
	c := f.c
	sel := c.info.Selections[e]
	if sel == nil {
		obj := c.info.Uses[e.Sel]
		switch {
		case obj == nil:
			f.undefined(e)
		case obj.Pkg() != nil && obj.Pkg().Path() == xpuPath:
			c.errorf(e.Pos(), RuleImport, "xpu.%s is not in the kernel vocabulary as a value", e.Sel.Name)
		case isFunc(obj):
			c.errorf(e.Pos(), RuleNoClosure, "function %s used as a value", types.ExprString(e))
		default:
			c.errorf(e.Pos(), RuleImport, "%s is outside the kernel's package", types.ExprString(e))
		}
		return f.bad()
	}
	switch sel.Kind() {
	case types.FieldVal:
		if b := f.objBinding(e.X); b != nil && b.kind == bindComptime {
			c.errorf(e.Sel.Pos(), RuleUnsupported, "comptime field %s is not a constant", e.Sel.Name)
			return f.bad()
		}
		if len(sel.Index()) != 1 {
			c.errorf(e.Sel.Pos(), RuleStructLayout, "promoted field %s of an embedded struct", e.Sel.Name)
			return f.bad()
		}
		if _, isPtr := sel.Recv().Underlying().(*types.Pointer); isPtr {
			c.errorf(e.Pos(), RuleNoPointer, "field of a pointer %s", types.ExprString(e))
			return f.bad()
		}
		nerr := f.trouble()
		x := f.expr(e.X)
		t := f.irTypeOf(e, nerr)
		if t == nil || f.trouble() > nerr {
			return f.bad()
		}
		return &ir.FieldOf{X: x, Field: sel.Index()[0], T: t}
	}
	c.errorf(e.Sel.Pos(), RuleNoClosure, "method value %s; call it", types.ExprString(e))
	return f.bad()
}

// isFunc reports whether obj is a function.
func isFunc(obj types.Object) bool {
	_, ok := obj.(*types.Func)
	return ok
}

// index lowers x[i] for a buffer, shared array or private array.
func (f *fnState) index(e *ast.IndexExpr) ir.Expr {
	c := f.c
	if tv, ok := c.info.Types[e.X]; ok && !tv.IsValue() {
		c.errorf(e.Pos(), RuleNoClosure, "generic function %s used as a value", types.ExprString(e))
		return f.bad()
	}
	xt := f.typeOf(e.X)
	if xt == nil {
		return f.bad()
	}
	switch xt.Underlying().(type) {
	case *types.Map:
		c.errorf(e.Pos(), RuleNoMap, "map index %s", types.ExprString(e))
		return f.bad()
	case *types.Pointer:
		c.errorf(e.Pos(), RuleNoPointer, "index through a pointer %s", types.ExprString(e))
		return f.bad()
	case *types.Basic:
		c.errorf(e.Pos(), RuleNoString, "string index %s", types.ExprString(e))
		return f.bad()
	case *types.Slice:
		nerr := f.trouble()
		b := f.objBinding(e.X)
		var x ir.Expr
		switch {
		case b != nil && b.kind == bindBuffer:
			x = &ir.BufferRef{Param: b.param}
		case b != nil && b.kind == bindShared:
			x = &ir.SharedRef{Shared: b.shared}
		case b != nil && b.kind == bindBad:
			return f.bad()
		default:
			if f.expr(e.X); f.trouble() == nerr {
				c.errorf(e.X.Pos(), RuleBufferVar, "%s is not a buffer parameter or a shared array", types.ExprString(e.X))
			}
			return f.bad()
		}
		i := f.indexValue(e.Index)
		t := f.irTypeOf(e, nerr)
		if t == nil || f.trouble() > nerr {
			return f.bad()
		}
		return &ir.Index{X: x, Index: i, T: t}
	case *types.Array:
		nerr := f.trouble()
		x := f.expr(e.X)
		i := f.indexValue(e.Index)
		t := f.irTypeOf(e, nerr)
		if t == nil || f.trouble() > nerr {
			return f.bad()
		}
		return &ir.Index{X: x, Index: i, T: t}
	}
	c.errorf(e.Pos(), RuleUnsupported, "index expression %s", types.ExprString(e))
	return f.bad()
}

// indexValue lowers an index, which must be a 32-bit integer.
func (f *fnState) indexValue(e ast.Expr) ir.Expr {
	nerr := f.trouble()
	i := f.exprHint(e, ir.U32Type)
	if f.trouble() == nerr && !ir.IsInteger(i.Type()) && !ir.IsNarrow(i.Type()) {
		f.c.errorf(e.Pos(), RuleNo64Bit, "index %s is not int32 or uint32", types.ExprString(e))
	}
	return i
}

// unaryOps maps Go's unary operators to IR operators.
var unaryOps = map[token.Token]ir.Op{token.SUB: ir.OpNeg, token.NOT: ir.OpNot, token.XOR: ir.OpCompl}

// unary lowers a unary expression.
func (f *fnState) unary(e *ast.UnaryExpr) ir.Expr {
	c := f.c
	switch e.Op {
	case token.AND:
		c.errorf(e.Pos(), RuleNoPointer, "address-of %s outside an atomic", types.ExprString(e))
		return f.bad()
	case token.ARROW:
		c.errorf(e.Pos(), RuleNoChannel, "channel receive %s", types.ExprString(e))
		return f.bad()
	case token.ADD:
		return f.expr(e.X)
	}
	if f.float16Arith(e.OpPos, "operator "+e.Op.String(), e.X) {
		return f.bad()
	}
	op, ok := unaryOps[e.Op]
	nerr := f.trouble()
	t := f.irTypeOf(e, nerr)
	if !ok || t == nil {
		if f.trouble() == nerr {
			c.errorf(e.Pos(), RuleUnsupported, "operator %s", e.Op)
		}
		return f.bad()
	}
	x := f.exprHint(e.X, t)
	return &ir.Unary{Op: op, X: x, T: t}
}

// binaryOps maps Go's binary operators to IR operators.
var binaryOps = map[token.Token]ir.Op{
	token.ADD: ir.OpAdd, token.SUB: ir.OpSub, token.MUL: ir.OpMul, token.QUO: ir.OpDiv,
	token.REM: ir.OpRem, token.AND: ir.OpAnd, token.OR: ir.OpOr, token.XOR: ir.OpXor,
	token.AND_NOT: ir.OpAndNot, token.SHL: ir.OpShl, token.SHR: ir.OpShr,
	token.EQL: ir.OpEq, token.NEQ: ir.OpNe, token.LSS: ir.OpLt, token.LEQ: ir.OpLe,
	token.GTR: ir.OpGt, token.GEQ: ir.OpGe, token.LAND: ir.OpLAnd, token.LOR: ir.OpLOr,
}

// binary lowers a binary expression.
func (f *fnState) binary(e *ast.BinaryExpr) ir.Expr {
	c := f.c
	op, ok := binaryOps[e.Op]
	if !ok {
		c.errorf(e.OpPos, RuleUnsupported, "operator %s", e.Op)
		return f.bad()
	}
	if f.float16Arith(e.OpPos, "operator "+e.Op.String(), e.X, e.Y) {
		return f.bad()
	}
	nerr := f.trouble()
	t := f.irTypeOf(e, nerr)
	if t == nil {
		return f.bad()
	}
	if op == ir.OpLAnd || op == ir.OpLOr {
		return f.logical(e, op)
	}
	if op == ir.OpShl || op == ir.OpShr {
		x := f.exprHint(e.X, t)
		return &ir.Binary{Op: op, X: x, Y: f.shiftCount(e.Y), T: t}
	}
	// The operands share a type; it tells untyped constants what to be.
	ot := t
	if _, isCmp := map[ir.Op]bool{ir.OpEq: true, ir.OpNe: true, ir.OpLt: true, ir.OpLe: true, ir.OpGt: true, ir.OpGe: true}[op]; isCmp {
		ot = f.operandType(e.X, e.Y)
		if ot == nil {
			f.expr(e.X)
			f.expr(e.Y)
			if f.trouble() == nerr {
				c.errorf(e.OpPos, RuleUnsupported, "comparison of %s", f.typeOf(e.X))
			}
			return f.bad()
		}
	}
	x := f.exprHint(e.X, ot)
	y := f.exprHint(e.Y, ot)
	if f.trouble() > nerr {
		return f.bad()
	}
	if _, isBasic := x.Type().(*ir.Basic); !isBasic {
		c.errorf(e.OpPos, RuleUnsupported, "operator %s on %v values", e.Op, x.Type())
		return f.bad()
	}
	return &ir.Binary{Op: op, X: x, Y: y, T: t}
}

// operandType returns the scalar type of a comparison's operands.
func (f *fnState) operandType(x, y ast.Expr) ir.Type {
	for _, e := range []ast.Expr{x, y} {
		gt := f.typeOf(e)
		if gt == nil {
			continue
		}
		b, ok := gt.Underlying().(*types.Basic)
		if !ok || b.Info()&types.IsUntyped != 0 {
			continue
		}
		t, err := basicType(b)
		if err != nil {
			return nil
		}
		return t
	}
	return nil
}

// shiftCount lowers a shift count: a uint32, or an int32 kept signed,
// since Go panics when it is negative and the lowerings must too.
func (f *fnState) shiftCount(e ast.Expr) ir.Expr {
	return f.exprHint(e, ir.U32Type)
}

// logical lowers && and ||. When the right operand needs statements of
// its own, they run only when it is evaluated.
func (f *fnState) logical(e *ast.BinaryExpr, op ir.Op) ir.Expr {
	x := f.exprHint(e.X, ir.BoolType)
	pre := &ir.Block{}
	var y ir.Expr
	f.into(pre, func() { y = f.exprHint(e.Y, ir.BoolType) })
	if len(pre.Stmts) == 0 {
		return &ir.Binary{Op: op, X: x, Y: y, T: ir.BoolType}
	}
	v := f.newVar(nil, "cond", ir.BoolType, e.Pos())
	p := f.c.pos(e.Pos())
	f.emit(&ir.Decl{Var: v, Init: x, Pos: p})
	pre.Stmts = append(pre.Stmts, &ir.Assign{Dst: &ir.VarRef{Var: v}, Value: y, Pos: p})
	var cond ir.Expr = &ir.VarRef{Var: v}
	if op == ir.OpLOr {
		cond = &ir.Unary{Op: ir.OpNot, X: cond, T: ir.BoolType}
	}
	f.emit(&ir.If{Cond: cond, Then: pre, Pos: p})
	return &ir.VarRef{Var: v}
}

// composite lowers a struct or array literal into a temporary.
func (f *fnState) composite(e *ast.CompositeLit) ir.Expr {
	c := f.c
	gt := f.typeOf(e)
	if gt == nil {
		return f.bad()
	}
	switch gt.Underlying().(type) {
	case *types.Slice:
		c.errorf(e.Pos(), RuleNoAlloc, "slice literal")
		return f.bad()
	case *types.Map:
		c.errorf(e.Pos(), RuleNoMap, "map literal")
		return f.bad()
	}
	nerr := f.trouble()
	t := f.irTypeOf(e, nerr)
	if t == nil {
		return f.bad()
	}
	p := c.pos(e.Pos())
	v := f.newVar(nil, "lit", t, e.Pos())
	f.emit(&ir.Decl{Var: v, Pos: p})
	next := 0
	for _, el := range e.Elts {
		var dst ir.Expr
		val := el
		switch t := t.(type) {
		case *ir.Struct:
			i := next
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				val = kv.Value
				id, _ := kv.Key.(*ast.Ident)
				i = -1
				for j, fl := range t.Fields {
					if id != nil && fl.Name == id.Name {
						i = j
					}
				}
			}
			if i < 0 || i >= len(t.Fields) {
				c.errorf(el.Pos(), RuleUnsupported, "struct literal element %s", types.ExprString(el))
				return f.bad()
			}
			dst = &ir.FieldOf{X: &ir.VarRef{Var: v}, Field: i, T: t.Fields[i].Type}
			next = i + 1
		case *ir.Array:
			i := next
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				val = kv.Value
				k, ok := f.constValue(kv.Key)
				n, exact := int64(-1), false
				if ok && k.Kind() == constant.Int {
					n, exact = constant.Int64Val(k)
				}
				if !exact || n < 0 || n >= int64(t.Len) {
					c.errorf(kv.Key.Pos(), RuleUnsupported, "array literal key %s", types.ExprString(kv.Key))
					return f.bad()
				}
				i = int(n)
			}
			if i >= t.Len {
				return f.bad()
			}
			dst = &ir.Index{X: &ir.VarRef{Var: v}, Index: &ir.Const{T: ir.U32Type, Bits: uint32(i)}, T: t.Elem}
			next = i + 1
		default:
			c.errorf(e.Pos(), RuleUnsupported, "composite literal of %v", t)
			return f.bad()
		}
		x := f.exprHint(val, dst.Type())
		f.emit(&ir.Assign{Dst: dst, Value: x, Pos: c.pos(el.Pos())})
	}
	return &ir.VarRef{Var: v}
}
