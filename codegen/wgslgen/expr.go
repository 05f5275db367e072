package wgslgen

import (
	"math"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

// maxExprDepth bounds the nesting of every expression the lowering
// builds: a deeper one is evaluated into a let in statement order, and
// the let stands for it. WGSL compilers parse and check expressions
// recursively: Tint refuses an expression nested past about 127 levels
// (its parser) or 512 (its resolver), and naga overflows its stack, which
// kills the process, past a few thousand. The bound leaves room for the
// statements an expression sits in (maxNesting) and for the few levels
// the lowering adds around an expression after lowering it.
const maxExprDepth = 32

// negZero is the bits of the float32 -0.
const negZero = 0x80000000

// expr lowers e. Statements that must run first (short-circuit operands
// with effects, atomic loops, the lets that bound an expression's depth)
// are emitted into the list being built. Every expression the lowering
// builds is lowered here, so that this is where two rules hold: no
// expression is nested deeper than maxExprDepth, and no value that is not
// finite is a const-expression (Tint evaluates those when it creates the
// shader and refuses any whose value is an infinity or a NaN), so such a
// value is made at run time by the helper xpu_f32_of_bits. So is
// negative zero, which Tint's constant loses its sign on the way to
// memory (Dawn stored 0 for bitcast<f32>(0x80000000u)).
func (l *lowerer) expr(e ir.Expr) wgsl.Expr {
	x := l.lowerExpr(e)
	if c, ok := x.(*wgsl.Lit); ok && c.Kind == wgsl.F32 && (!wgsl.F32Finite(c.Bits) || c.Bits == negZero) {
		return wgsl.CallOf(l.helper("xpu_f32_of_bits"), wgsl.U32Lit(c.Bits))
	}
	if exprDepth(x) >= maxExprDepth {
		return l.let(x)
	}
	return x
}

// exprDepth returns the nesting depth of x: 1 for a name or a literal.
// Its operands, lowered by expr, are bounded, so the walk is too.
func exprDepth(x wgsl.Expr) int {
	depth := func(xs ...wgsl.Expr) int {
		d := 0
		for _, x := range xs {
			d = max(d, exprDepth(x))
		}
		return 1 + d
	}
	switch x := x.(type) {
	case *wgsl.Unary:
		return depth(x.X)
	case *wgsl.Binary:
		return depth(x.X, x.Y)
	case *wgsl.Call:
		return depth(x.Args...)
	case *wgsl.Construct:
		return depth(x.Args...)
	case *wgsl.Bitcast:
		return depth(x.X)
	case *wgsl.Index:
		return depth(x.X, x.Index)
	case *wgsl.Member:
		return depth(x.X)
	}
	return 1
}

// lowerExpr lowers e for expr.
func (l *lowerer) lowerExpr(e ir.Expr) wgsl.Expr {
	switch e := e.(type) {
	case *ir.Const:
		if e.T.Wide64() {
			return wideLit(e)
		}
		return lit(e.T.Kind, e.Bits)
	case *ir.VarRef:
		if x, ok := l.fn.alias[e.Var]; ok {
			return x
		}
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
		x := l.expr(e.X)
		if c, ok := x.(*wgsl.Lit); ok {
			return lit(e.T.Kind, c.Bits)
		}
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
		if narrowBuffer(e.Buffer) {
			return l.narrowLen(e.Buffer)
		}
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
	if p := narrowElem(e.X); p != nil {
		return l.narrowIndex(p, e)
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
			return &wgsl.Index{X: ops[0], Index: l.elemIndex(e.X, ops[1])}
		}
		// An array value (a call's result) cannot be indexed with a
		// variable index in WGSL: give it a variable.
		t := l.temp()
		l.emit(&wgsl.VarDecl{Name: t, Type: l.typ(e.X.Type()), Init: l.expr(e.X)})
		x = wgsl.Id(t)
	}
	return &wgsl.Index{X: x, Index: l.elemIndex(e.X, l.expr(e.Index))}
}

// elemIndex returns the lowered index i of an element of x (a buffer, a
// shared array or an array value), made at run time by the helper
// xpu_index when it is a literal outside the array: WGSL refuses such a
// constant index when it creates the shader (naga also refuses
// 0xFFFFFFFF into a runtime-sized array, whose bound it takes to be the
// largest u32), where Go panics only if the access runs. A run-time index
// out of range is the device's to clamp or discard.
func (l *lowerer) elemIndex(x ir.Expr, i wgsl.Expr) wgsl.Expr {
	c, ok := i.(*wgsl.Lit)
	if !ok {
		return i
	}
	v := int64(c.Bits)
	if c.Kind == wgsl.I32 {
		v = int64(int32(c.Bits))
	}
	n := int64(math.MaxUint32)
	if l, ok := ir.StaticLen(x); ok {
		n = int64(l)
	}
	if 0 <= v && v < n {
		return i
	}
	return wgsl.CallOf(l.helper("xpu_index"), wgsl.U32Lit(uint32(v)))
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
