package wgslgen

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

// expr lowers e. Statements that must run first (short-circuit operands
// with effects, atomic loops) are emitted into the list being built.
func (l *lowerer) expr(e ir.Expr) wgsl.Expr {
	switch e := e.(type) {
	case *ir.Const:
		return lit(e.T.Kind, e.Bits)
	case *ir.VarRef:
		return wgsl.Id(l.local(e.Var))
	case *ir.ScalarRef:
		return &wgsl.Member{X: wgsl.Id(uniformVar), Name: mangle(prefixUniform, e.Param.Name)}
	case *ir.Index:
		return l.index(e)
	case *ir.FieldOf:
		if l.atomicPlace(e) {
			return wgsl.Id("xpu_invalid")
		}
		return &wgsl.Member{X: l.expr(e.X), Name: l.fieldName(e)}
	case *ir.Unary:
		return l.unary(e)
	case *ir.Binary:
		return l.binary(e)
	case *ir.Convert:
		return l.convert(e)
	case *ir.Bitcast:
		if c, ok := e.X.(*ir.Const); ok {
			return lit(e.T.Kind, c.Bits)
		}
		x := l.expr(e.X)
		if sameBasic(e.X.Type(), e.T) {
			return x
		}
		return &wgsl.Bitcast{Type: scalar(e.T.Kind), X: x}
	case *ir.CallBuiltin:
		if e.Fn.IsThreadQuery() {
			return l.threadQuery(e.Fn)
		}
		return l.math(e)
	case *ir.Call:
		if e.Func == nil {
			l.fail(ruleIR, "call of a nil function")
			return wgsl.Id("xpu_invalid")
		}
		return wgsl.CallOf(mangle(prefixFunc, e.Func.Name), l.exprs(e.Args)...)
	case *ir.Len:
		return wgsl.CallOf("arrayLength", wgsl.AddrOfExpr(wgsl.Id(mangle(prefixBuffer, e.Buffer.Name))))
	case *ir.Atomic:
		return l.atomic(e)
	case *ir.BufferRef, *ir.SharedRef:
		l.fail(ruleIR, "buffer or shared array used as a value; index it")
	case nil:
		l.fail(ruleIR, "nil expression")
	default:
		l.fail(ruleIR, "unknown expression %T", e)
	}
	return wgsl.Id("xpu_invalid")
}

// exprs lowers operands in Go's order. When lowering one operand emits
// statements, earlier operands with effects (calls, atomics) are first
// evaluated into lets, so that the effects keep their order.
func (l *lowerer) exprs(es []ir.Expr) []wgsl.Expr {
	out := make([]wgsl.Expr, len(es))
	for i, e := range es {
		mark := len(*l.fn.out)
		out[i] = l.expr(e)
		if len(*l.fn.out) == mark {
			continue
		}
		var lets []wgsl.Stmt
		for j := range i {
			if !hasEffects(es[j]) {
				continue
			}
			if _, ok := out[j].(*wgsl.Ident); ok {
				continue
			}
			t := l.temp()
			lets = append(lets, &wgsl.LetDecl{Name: t, Init: out[j]})
			out[j] = wgsl.Id(t)
		}
		if len(lets) > 0 {
			s := *l.fn.out
			*l.fn.out = append(s[:mark:mark], append(lets, s[mark:]...)...)
		}
	}
	return out
}

// hasEffects reports whether evaluating e can change memory: it calls a
// device function or an atomic.
func hasEffects(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.Call, *ir.Atomic:
		return true
	case *ir.Index:
		return hasEffects(e.X) || hasEffects(e.Index)
	case *ir.FieldOf:
		return hasEffects(e.X)
	case *ir.Unary:
		return hasEffects(e.X)
	case *ir.Binary:
		return hasEffects(e.X) || hasEffects(e.Y)
	case *ir.Convert:
		return hasEffects(e.X)
	case *ir.Bitcast:
		return hasEffects(e.X)
	case *ir.CallBuiltin:
		for _, a := range e.Args {
			if hasEffects(a) {
				return true
			}
		}
	}
	return false
}

// index lowers X[Index]: a load from a buffer or shared array (through
// atomicLoad when the array is atomic) or from a private array.
func (l *lowerer) index(e *ir.Index) wgsl.Expr {
	if l.atomicPlace(e) {
		return l.atomic(&ir.Atomic{Op: ir.AtomicLoad, Ptr: e, T: e.T})
	}
	var x wgsl.Expr
	switch b := e.X.(type) {
	case *ir.BufferRef:
		x = wgsl.Id(mangle(prefixBuffer, b.Param.Name))
	case *ir.SharedRef:
		x = wgsl.Id(mangle(prefixShared, b.Shared.Name))
	default:
		if _, ok := e.X.Type().(*ir.Array); !ok {
			l.fail(ruleIR, "index of a %v", e.X.Type())
		}
		if rooted(e.X) {
			ops := l.exprs([]ir.Expr{e.X, e.Index})
			return &wgsl.Index{X: ops[0], Index: ops[1]}
		}
		// An array value (a call's result) cannot be indexed with a
		// variable index in WGSL: give it a variable.
		t := l.temp()
		l.emit(&wgsl.VarDecl{Name: t, Type: l.typ(e.X.Type()), Init: l.expr(e.X)})
		x = wgsl.Id(t)
	}
	return &wgsl.Index{X: x, Index: l.expr(e.Index)}
}

// rooted reports whether e is a Var, or an Index or FieldOf chain rooted
// at one: a reference in WGSL, which may be indexed with any index.
func rooted(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.VarRef:
		return true
	case *ir.Index:
		switch e.X.(type) {
		case *ir.BufferRef, *ir.SharedRef:
			return true
		}
		return rooted(e.X)
	case *ir.FieldOf:
		return rooted(e.X)
	}
	return false
}

func (l *lowerer) fieldName(e *ir.FieldOf) string {
	s, ok := e.X.Type().(*ir.Struct)
	if !ok || e.Field < 0 || e.Field >= len(s.Fields) {
		l.fail(ruleIR, "field %d of a %v", e.Field, e.X.Type())
		return "xpu_invalid"
	}
	return mangle(prefixField, s.Fields[e.Field].Name)
}

func sameBasic(a ir.Type, b *ir.Basic) bool {
	x, ok := a.(*ir.Basic)
	return ok && x.Kind == b.Kind
}
