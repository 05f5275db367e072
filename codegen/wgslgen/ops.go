package wgslgen

import (
	"slices"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

var binaryOps = map[ir.Op]wgsl.BinaryOp{
	ir.OpAdd: wgsl.Add, ir.OpSub: wgsl.Sub, ir.OpMul: wgsl.Mul, ir.OpDiv: wgsl.Div, ir.OpRem: wgsl.Rem,
	ir.OpAnd: wgsl.And, ir.OpOr: wgsl.Or, ir.OpXor: wgsl.Xor, ir.OpShl: wgsl.Shl, ir.OpShr: wgsl.Shr,
	ir.OpEq: wgsl.Eq, ir.OpNe: wgsl.Ne, ir.OpLt: wgsl.Lt, ir.OpLe: wgsl.Le, ir.OpGt: wgsl.Gt, ir.OpGe: wgsl.Ge,
	ir.OpLAnd: wgsl.LAnd, ir.OpLOr: wgsl.LOr,
}

// binary lowers X Op Y with Go's semantics.
func (l *lowerer) binary(e *ir.Binary) wgsl.Expr {
	if e.Op == ir.OpLAnd || e.Op == ir.OpLOr {
		if c, ok := foldBinary(e); ok {
			return lit(c.T.Kind, c.Bits)
		}
		return l.logical(e)
	}
	t, ok := e.X.Type().(*ir.Basic)
	if ok && (t.Wide64() || ir.IsWide64(e.Y.Type())) {
		return l.wideBinary(e, t)
	}
	if !ok {
		if e.Op == ir.OpEq || e.Op == ir.OpNe {
			l.fail(ruleCompare, "%v %v %v: WGSL cannot compare arrays or structs; compare their elements", e.X.Type(), e.Op, e.Y.Type())
		} else {
			l.fail(ruleIR, "operator %v on %v", e.Op, e.X.Type())
		}
		return wgsl.Id("xpu_invalid")
	}
	if t.Kind == ir.F32 && isComparison(e.Op) {
		return l.compareF32(e)
	}
	ops := l.exprs([]ir.Expr{e.X, e.Y})
	x, y := ops[0], ops[1]
	if cx, cy, ok := literals(e.X, x, e.Y, y); ok {
		// Operands that lowered to literals (constants, or conversions,
		// bitcasts and operations of them) fold with Go's semantics: WGSL
		// would evaluate the operation when it creates the shader, and
		// refuse one that overflows.
		if c, ok := foldBinary(&ir.Binary{Op: e.Op, X: cx, Y: cy, T: e.T}); ok {
			return lit(c.T.Kind, c.Bits)
		}
	}
	switch e.Op {
	case ir.OpDiv, ir.OpRem:
		if t.Kind == ir.F32 {
			if e.Op == ir.OpRem {
				l.fail(ruleIR, "%% on float32")
			}
			return &wgsl.Binary{Op: binaryOps[e.Op], X: x, Y: y}
		}
		if c, ok := e.Y.(*ir.Const); ok && c.Bits != 0 && !(t.Kind == ir.I32 && c.Bits == 0xffffffff) {
			// A divisor that is neither zero nor -1: WGSL's operator is Go's.
			return &wgsl.Binary{Op: binaryOps[e.Op], X: x, Y: y}
		}
		name := "xpu_div_"
		if e.Op == ir.OpRem {
			name = "xpu_rem_"
		}
		return wgsl.CallOf(l.helper(name+scalar(t.Kind).Kind.String()), x, y)
	case ir.OpAndNot:
		return &wgsl.Binary{Op: wgsl.And, X: x, Y: &wgsl.Unary{Op: wgsl.Compl, X: y}}
	case ir.OpShl, ir.OpShr:
		if c, ok := e.Y.(*ir.Const); ok && c.Bits < 32 {
			return &wgsl.Binary{Op: binaryOps[e.Op], X: x, Y: lit(ir.U32, c.Bits)}
		}
		if ir.IsKind(e.Y.Type(), ir.I32) {
			if c, ok := e.Y.(*ir.Const); ok && int32(c.Bits) >= 0 {
				y = lit(ir.U32, c.Bits)
			} else {
				// Go panics on a negative signed count: the helper
				// records the fault and gives the count as a uint32.
				y = wgsl.CallOf(l.helper("xpu_shift_count"), y)
			}
		}
		name := "xpu_shl_"
		if e.Op == ir.OpShr {
			name = "xpu_shr_"
		}
		return wgsl.CallOf(l.helper(name+scalar(t.Kind).Kind.String()), x, y)
	}
	op, ok := binaryOps[e.Op]
	if !ok {
		l.fail(ruleIR, "binary operator %v", e.Op)
	}
	return &wgsl.Binary{Op: op, X: x, Y: y}
}

// compareF32 lowers a float32 comparison through xpu_cmp_f32, which
// compares the operands' bits with integer arithmetic: WGSL lets a
// compiler assume floats are finite (lavapipe, through naga and Tint
// alike, gave x != y false for a NaN), and devices may flush subnormals
// in float comparisons; Go compares every float32 exactly, NaN unordered.
func (l *lowerer) compareF32(e *ir.Binary) wgsl.Expr {
	ops := l.exprs([]ir.Expr{bitsOperand(e.X), bitsOperand(e.Y)})
	return cmpResult(e.Op, wgsl.CallOf(l.helper(cmpF32), ops[0], ops[1]))
}

// bitsOperand is the bits of the float32 e as a uint32: a constant's
// bits are a literal, and xpu.Float32FromBits(u) is u, so that no float
// constant (an infinity or a NaN, which WGSL cannot spell) is printed.
func bitsOperand(e ir.Expr) ir.Expr {
	switch e := e.(type) {
	case *ir.Const:
		return &ir.Const{T: ir.U32Type, Bits: e.Bits}
	case *ir.Bitcast:
		if ir.IsKind(e.X.Type(), ir.U32) {
			return e.X
		}
	}
	return &ir.Bitcast{X: e, T: ir.U32Type}
}

func isComparison(op ir.Op) bool {
	switch op {
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		return true
	}
	return false
}

// cmpResult tests c, a result of xpu_cmp_f32 (-1, 0, 1, or 2 when
// unordered), for op.
func cmpResult(op ir.Op, c wgsl.Expr) wgsl.Expr {
	switch op {
	case ir.OpEq:
		return bin(wgsl.Eq, c, wgsl.I32Lit(0))
	case ir.OpNe:
		return bin(wgsl.Ne, c, wgsl.I32Lit(0))
	case ir.OpLt:
		return bin(wgsl.Lt, c, wgsl.I32Lit(0))
	case ir.OpLe:
		return bin(wgsl.Le, c, wgsl.I32Lit(0))
	case ir.OpGt:
		return bin(wgsl.Eq, c, wgsl.I32Lit(1))
	}
	// >=: 0 or 1, as a uint32 below 2.
	return bin(wgsl.Lt, &wgsl.Construct{Type: wgsl.U32Type, Args: []wgsl.Expr{c}}, wgsl.U32Lit(2))
}

// logical lowers && and ||. WGSL's operators short-circuit as Go's do;
// when Y has effects (or needs statements of its own) it becomes an if,
// so that its statements run only when Go would evaluate Y.
func (l *lowerer) logical(e *ir.Binary) wgsl.Expr {
	x := l.expr(e.X)
	var pre []wgsl.Stmt
	saved := l.fn.out
	l.fn.out = &pre
	l.deeper() // y's statements may become the body of an if
	y := l.expr(e.Y)
	l.fn.depth--
	l.fn.out = saved
	if len(pre) == 0 && !hasEffects(e.Y) {
		return &wgsl.Binary{Op: binaryOps[e.Op], X: x, Y: y}
	}
	t := l.temp()
	l.emit(&wgsl.VarDecl{Name: t, Type: wgsl.BoolType, Init: x})
	var cond wgsl.Expr = wgsl.Id(t)
	if e.Op == ir.OpLOr {
		cond = &wgsl.Unary{Op: wgsl.Not, X: cond}
	}
	pre = append(pre, &wgsl.Assign{LHS: wgsl.Id(t), RHS: y})
	l.emit(&wgsl.If{Cond: cond, Then: &wgsl.Block{Stmts: pre}})
	return wgsl.Id(t)
}

// unary lowers Op X with Go's semantics.
func (l *lowerer) unary(e *ir.Unary) wgsl.Expr {
	if ir.IsWide64(e.T) {
		return l.wideUnary(e)
	}
	x := l.expr(e.X)
	if c, _, ok := literals(e.X, x, e.X, x); ok {
		if f, ok := foldUnary(e.Op, c); ok {
			return lit(f.T.Kind, f.Bits)
		}
	}
	switch e.Op {
	case ir.OpNeg:
		if ir.IsKind(e.T, ir.U32) {
			// WGSL has no unary minus on u32; Go's wraps.
			return &wgsl.Binary{Op: wgsl.Sub, X: wgsl.U32Lit(0), Y: x}
		}
		return &wgsl.Unary{Op: wgsl.Neg, X: x}
	case ir.OpNot:
		return &wgsl.Unary{Op: wgsl.Not, X: x}
	case ir.OpCompl:
		return &wgsl.Unary{Op: wgsl.Compl, X: x}
	}
	l.fail(ruleIR, "unary operator %v", e.Op)
	return x
}

// convert lowers T(X). Integer conversions keep the bits, as in Go;
// float to integer truncates and saturates (Go leaves out-of-range values
// to the implementation), NaN gives 0.
func (l *lowerer) convert(e *ir.Convert) wgsl.Expr {
	from, ok := e.X.Type().(*ir.Basic)
	if !ok || from.Kind == ir.Bool || e.T.Kind == ir.Bool {
		if ok && from.Kind == e.T.Kind {
			return l.expr(e.X)
		}
		l.fail(ruleIR, "conversion of %v to %v", e.X.Type(), e.T)
		return wgsl.Id("xpu_invalid")
	}
	if from.Wide64() || e.T.Wide64() {
		return l.wideConvert(from, e.T, e.X)
	}
	x := l.expr(e.X)
	if c, ok := x.(*wgsl.Lit); ok {
		return lit(e.T.Kind, convertBits(from.Kind, e.T, c.Bits))
	}
	switch {
	case from.Kind == e.T.Kind:
		return x
	case e.T.Narrow() && (from.Kind == ir.I32 || from.Kind == ir.U32):
		return narrowConvert(from, e.T, x)
	case e.T.Narrow() || from.Narrow() && e.T.Kind == ir.F32:
		l.fail(ruleIR, "conversion of %v to %v, which the IR's Widen pass leaves to 32-bit integers", from, e.T)
		return wgsl.Id("xpu_invalid")
	case from.Kind == ir.F32:
		return wgsl.CallOf(l.helper("xpu_"+scalar(e.T.Kind).Kind.String()+"_of_f32"), x)
	}
	return &wgsl.Construct{Type: scalar(e.T.Kind), Args: []wgsl.Expr{x}}
}

// mathFuncs maps the float32 math builtins to WGSL's functions of the
// same meaning.
var mathFuncs = map[ir.Builtin]string{
	ir.Sqrt: "sqrt", ir.Exp: "exp", ir.Exp2: "exp2", ir.Log: "log", ir.Log2: "log2",
	ir.Pow: "pow", ir.Sin: "sin", ir.Cos: "cos", ir.Tan: "tan", ir.Tanh: "tanh",
	ir.Floor: "floor", ir.Ceil: "ceil", ir.Round: "round", ir.Trunc: "trunc", ir.Fma: "fma",
	ir.Rsqrt: "inverseSqrt",
}

// math lowers a math builtin.
func (l *lowerer) math(e *ir.CallBuiltin) wgsl.Expr {
	if len(e.Args) != e.Fn.Arity() {
		l.fail(ruleIR, "%v with %d arguments", e.Fn, len(e.Args))
		return wgsl.Id("xpu_invalid")
	}
	args := l.exprs(e.Args)
	if !slices.ContainsFunc(args, func(a wgsl.Expr) bool { _, ok := a.(*wgsl.Lit); return !ok }) {
		// WGSL evaluates a builtin of literals when it creates the shader,
		// and Tint refuses one whose value is not finite (sqrt(-1.0f),
		// log(0.0f), exp(100.0f)); Go computes it at run time, and so does
		// the device with an argument that is a let.
		t := l.temp()
		l.emit(&wgsl.LetDecl{Name: t, Init: args[0]})
		args[0] = wgsl.Id(t)
	}
	t, _ := e.Args[0].Type().(*ir.Basic)
	if t == nil {
		l.fail(ruleIR, "%v of a %v", e.Fn, e.Args[0].Type())
		return wgsl.Id("xpu_invalid")
	}
	if e.Fn.IsBits() {
		return l.bits(e, args)
	}
	if fn, ok := mathFuncs[e.Fn]; ok {
		if t.Kind != ir.F32 {
			l.fail(ruleIR, "%v of a %v", e.Fn, t)
		}
		return wgsl.CallOf(fn, args...)
	}
	isFloat := t.Kind == ir.F32
	minOf := func(x, y wgsl.Expr) wgsl.Expr {
		if isFloat {
			return wgsl.CallOf(l.helper("xpu_min_f32"), x, y)
		}
		return wgsl.CallOf("min", x, y)
	}
	maxOf := func(x, y wgsl.Expr) wgsl.Expr {
		if isFloat {
			return wgsl.CallOf(l.helper("xpu_max_f32"), x, y)
		}
		return wgsl.CallOf("max", x, y)
	}
	switch e.Fn {
	case ir.Abs:
		if t.Kind == ir.U32 {
			return args[0]
		}
		return wgsl.CallOf("abs", args[0])
	case ir.Min:
		return minOf(args[0], args[1])
	case ir.Max:
		return maxOf(args[0], args[1])
	case ir.Clamp:
		// xpu.Clamp is Min(Max(x, lo), hi), also when lo > hi; WGSL's
		// clamp leaves that case open.
		return minOf(maxOf(args[0], args[1]), args[2])
	}
	l.fail(ruleIR, "%v is not a math builtin", e.Fn)
	return wgsl.Id("xpu_invalid")
}

// literals returns the constants that the lowered operands x and y of the
// IR operands ex and ey are, when both are literals.
func literals(ex ir.Expr, x wgsl.Expr, ey ir.Expr, y wgsl.Expr) (*ir.Const, *ir.Const, bool) {
	lx, ok1 := x.(*wgsl.Lit)
	ly, ok2 := y.(*wgsl.Lit)
	tx, ok3 := ex.Type().(*ir.Basic)
	ty, ok4 := ey.Type().(*ir.Basic)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil, nil, false
	}
	return &ir.Const{T: tx, Bits: lx.Bits}, &ir.Const{T: ty, Bits: ly.Bits}, true
}
