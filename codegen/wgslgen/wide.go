package wgslgen

import (
	"math"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

// This file lowers int64 and uint64, which WGSL lacks: a 64-bit value is
// a vec2<u32> (low word, high word) for either signedness, and each
// operation other than the bitwise ones is a helper function emitted
// when a kernel first uses it. 64-bit values are private (the front end
// refuses them in memory, [xpu-wide-memory]), so no layout is involved.

// wideType is the WGSL type of an int64 or uint64 value.
var wideType = &wgsl.Vec{N: 2, Elem: wgsl.U32Type}

// quadType holds a quotient and a remainder.
var quadType = &wgsl.Vec{N: 4, Elem: wgsl.U32Type}

func loOf(x wgsl.Expr) wgsl.Expr { return &wgsl.Member{X: x, Name: "x"} }
func hiOf(x wgsl.Expr) wgsl.Expr { return &wgsl.Member{X: x, Name: "y"} }

// wideOf is the vec2<u32> of the words lo and hi.
func wideOf(lo, hi wgsl.Expr) wgsl.Expr {
	return &wgsl.Construct{Type: wideType, Args: []wgsl.Expr{lo, hi}}
}

// wideLit is the 64-bit constant c.
func wideLit(c *ir.Const) wgsl.Expr { return wideOf(wgsl.U32Lit(c.Bits), wgsl.U32Lit(c.Hi)) }

func asI32(x wgsl.Expr) wgsl.Expr     { return &wgsl.Construct{Type: wgsl.I32Type, Args: []wgsl.Expr{x}} }
func toU32(x wgsl.Expr) wgsl.Expr     { return &wgsl.Construct{Type: wgsl.U32Type, Args: []wgsl.Expr{x}} }
func sel(f, t, c wgsl.Expr) wgsl.Expr { return wgsl.CallOf("select", f, t, c) }
func not(x wgsl.Expr) wgsl.Expr       { return &wgsl.Unary{Op: wgsl.Not, X: x} }

// negative is whether the int64 x is below zero.
func negative(x wgsl.Expr) wgsl.Expr { return bin(wgsl.Lt, asI32(hiOf(x)), wgsl.I32Lit(0)) }

// wideZero is the 64-bit zero.
func wideZero() wgsl.Expr { return wideOf(wgsl.U32Lit(0), wgsl.U32Lit(0)) }

// wideBinary lowers X Op Y where X is an int64 or uint64, or where Y,
// a shift count, is.
func (l *lowerer) wideBinary(e *ir.Binary, t *ir.Basic) wgsl.Expr {
	if (e.Op == ir.OpShl || e.Op == ir.OpShr) && !t.Wide64() {
		// A 32-bit value shifted by a 64-bit count: the count saturates
		// to a uint32, which the 32-bit helpers take.
		ops := l.exprs([]ir.Expr{e.X, e.Y})
		name := "xpu_shl_"
		if e.Op == ir.OpShr {
			name = "xpu_shr_"
		}
		return wgsl.CallOf(l.helper(name+scalar(t.Kind).Kind.String()), ops[0], l.wideCount(e.Y.Type(), ops[1]))
	}
	ops := l.exprs([]ir.Expr{e.X, e.Y})
	x, y := ops[0], ops[1]
	signed := t.Kind == ir.I64
	sign := map[bool]string{true: "i64", false: "u64"}[signed]
	switch e.Op {
	case ir.OpAdd:
		return wgsl.CallOf(l.helper("xpu_add_w"), x, y)
	case ir.OpSub:
		return wgsl.CallOf(l.helper("xpu_sub_w"), x, y)
	case ir.OpMul:
		return wgsl.CallOf(l.helper("xpu_mul_w"), x, y)
	case ir.OpDiv:
		return wgsl.CallOf(l.helper("xpu_div_"+sign), x, y)
	case ir.OpRem:
		return wgsl.CallOf(l.helper("xpu_rem_"+sign), x, y)
	case ir.OpAnd:
		return bin(wgsl.And, x, y)
	case ir.OpOr:
		return bin(wgsl.Or, x, y)
	case ir.OpXor:
		return bin(wgsl.Xor, x, y)
	case ir.OpAndNot:
		return bin(wgsl.And, x, &wgsl.Unary{Op: wgsl.Compl, X: y})
	case ir.OpShl, ir.OpShr:
		n := l.count(e.Y, y)
		name := "xpu_shl_w"
		if e.Op == ir.OpShr {
			name = "xpu_shr_" + sign
		}
		return wgsl.CallOf(l.helper(name), x, n)
	case ir.OpEq:
		return wgsl.CallOf("all", bin(wgsl.Eq, x, y))
	case ir.OpNe:
		return wgsl.CallOf("any", bin(wgsl.Ne, x, y))
	case ir.OpLt:
		return wgsl.CallOf(l.helper("xpu_lt_"+sign), x, y)
	case ir.OpGt:
		return wgsl.CallOf(l.helper("xpu_lt_"+sign), y, x)
	case ir.OpLe:
		return not(wgsl.CallOf(l.helper("xpu_lt_"+sign), y, x))
	case ir.OpGe:
		return not(wgsl.CallOf(l.helper("xpu_lt_"+sign), x, y))
	}
	l.fail(ruleIR, "operator %v on %v", e.Op, t)
	return wgsl.Id("xpu_invalid")
}

// count is the shift count y (the lowered IR count c) as a uint32 that
// the shift helpers take: a count of 64 bits saturates, a negative signed
// count records Go's fault.
func (l *lowerer) count(c ir.Expr, y wgsl.Expr) wgsl.Expr {
	t, _ := c.Type().(*ir.Basic)
	switch {
	case t == nil:
	case t.Wide64():
		return l.wideCount(t, y)
	case t.Kind == ir.I32:
		if k, ok := c.(*ir.Const); ok && int32(k.Bits) >= 0 {
			return lit(ir.U32, k.Bits)
		}
		return wgsl.CallOf(l.helper("xpu_shift_count"), y)
	}
	return y
}

// wideCount is the 64-bit shift count y, of type t, as a saturated uint32.
func (l *lowerer) wideCount(t ir.Type, y wgsl.Expr) wgsl.Expr {
	if ir.IsKind(t, ir.I64) {
		return wgsl.CallOf(l.helper("xpu_count_i64"), y)
	}
	return wgsl.CallOf(l.helper("xpu_count_u64"), y)
}

// wideUnary lowers -X and ^X of an int64 or uint64.
func (l *lowerer) wideUnary(e *ir.Unary) wgsl.Expr {
	x := l.expr(e.X)
	switch e.Op {
	case ir.OpNeg:
		return wgsl.CallOf(l.helper("xpu_neg_w"), x)
	case ir.OpCompl:
		return &wgsl.Unary{Op: wgsl.Compl, X: x}
	}
	l.fail(ruleIR, "unary operator %v on %v", e.Op, e.T)
	return x
}

// wideConvert lowers a conversion from or to int64 or uint64 (the IR's
// Widen pass leaves none whose other side is narrow).
func (l *lowerer) wideConvert(from, t *ir.Basic, e ir.Expr) wgsl.Expr {
	if c, ok := e.(*ir.Const); ok && from.Kind != ir.F32 && t.Kind != ir.F32 {
		return l.lowerExpr(convertConst64(c, t))
	}
	x := l.expr(e)
	switch {
	case from.Wide64() && t.Wide64():
		return x
	case from.Kind == ir.I32:
		return wideOf(toU32(x), toU32(bin(wgsl.Shr, x, wgsl.U32Lit(31))))
	case from.Kind == ir.U32:
		return wideOf(x, wgsl.U32Lit(0))
	case t.Kind == ir.I32:
		return asI32(loOf(x))
	case t.Kind == ir.U32:
		return loOf(x)
	case from.Kind == ir.F32 && t.Wide64():
		return wgsl.CallOf(l.helper("xpu_"+map[bool]string{true: "i64", false: "u64"}[t.Kind == ir.I64]+"_of_f32"), x)
	case t.Kind == ir.F32:
		return wgsl.CallOf(l.helper("xpu_f32_of_"+map[bool]string{true: "i64", false: "u64"}[from.Kind == ir.I64]), x)
	}
	l.fail(ruleIR, "conversion of %v to %v", from, t)
	return wgsl.Id("xpu_invalid")
}

// convertConst64 converts the integer constant c to the integer type t
// where either side is 64-bit, as Go does: extended by c's sign, or
// truncated.
func convertConst64(c *ir.Const, t *ir.Basic) *ir.Const {
	v := c.Bits64()
	if !c.T.Wide64() {
		v = uint64(c.Bits)
		if c.T.Signed() {
			v = uint64(int64(int32(c.Bits)))
		}
	}
	if t.Wide64() {
		return &ir.Const{T: t, Bits: uint32(v), Hi: uint32(v >> 32)}
	}
	return &ir.Const{T: t, Bits: ir.ExtendBits(uint32(v), t)}
}

// wideHelperUses lists the helpers each 64-bit helper calls.
var wideHelperUses = map[string][]string{
	"xpu_mul_w":      {"xpu_mul32_w"},
	"xpu_div_u64":    {"xpu_divrem_u64"},
	"xpu_rem_u64":    {"xpu_divrem_u64"},
	"xpu_div_i64":    {"xpu_divrem_u64", "xpu_neg_w"},
	"xpu_rem_i64":    {"xpu_divrem_u64", "xpu_neg_w"},
	"xpu_divrem_u64": {"xpu_lt_u64", "xpu_sub_w"},
	"xpu_f32_of_u64": {"xpu_shl_w"},
	"xpu_f32_of_i64": {"xpu_f32_of_u64", "xpu_neg_w"},
	"xpu_u64_of_f32": {cmpF32},
	"xpu_i64_of_f32": {cmpF32, "xpu_u64_of_f32", "xpu_neg_w"},
}

// wideFaultHelpers are the 64-bit helpers that record a fault.
var wideFaultHelpers = map[string]bool{
	"xpu_div_u64": true, "xpu_rem_u64": true, "xpu_div_i64": true, "xpu_rem_i64": true, "xpu_count_i64": true,
}

func wideParams() []*wgsl.Param { return params(wideType, wideType) }

func oneParam(t wgsl.Type) []*wgsl.Param { return []*wgsl.Param{{Name: "x", Type: t}} }

// bit is 1u when c holds, else 0u.
func bit(c wgsl.Expr) wgsl.Expr { return sel(wgsl.U32Lit(0), wgsl.U32Lit(1), c) }

var wideHelperBuilders = map[string]func() *wgsl.Func{
	"xpu_add_w": func() *wgsl.Func {
		s := wgsl.Id("s")
		return fn("Go's 64-bit x + y on (low, high) words: wraps.", wideParams(), wideType,
			let("s", bin(wgsl.Add, loOf(argX), loOf(argY))),
			ret(wideOf(s, bin(wgsl.Add, bin(wgsl.Add, hiOf(argX), hiOf(argY)), bit(bin(wgsl.Lt, s, loOf(argX)))))))
	},
	"xpu_sub_w": func() *wgsl.Func {
		return fn("Go's 64-bit x - y on (low, high) words: wraps.", wideParams(), wideType,
			ret(wideOf(bin(wgsl.Sub, loOf(argX), loOf(argY)),
				bin(wgsl.Sub, bin(wgsl.Sub, hiOf(argX), hiOf(argY)), bit(bin(wgsl.Lt, loOf(argX), loOf(argY)))))))
	},
	"xpu_neg_w": func() *wgsl.Func {
		return fn("Go's 64-bit -x on (low, high) words: wraps.", oneParam(wideType), wideType,
			ret(wideOf(bin(wgsl.Sub, wgsl.U32Lit(0), loOf(argX)),
				bin(wgsl.Sub, bin(wgsl.Sub, wgsl.U32Lit(0), hiOf(argX)), bit(bin(wgsl.Ne, loOf(argX), wgsl.U32Lit(0)))))))
	},
	"xpu_mul32_w": func() *wgsl.Func {
		id := wgsl.Id
		m16 := func(x wgsl.Expr) wgsl.Expr { return bin(wgsl.And, x, wgsl.U32Lit(0xffff)) }
		s16 := func(x wgsl.Expr) wgsl.Expr { return bin(wgsl.Shr, x, wgsl.U32Lit(16)) }
		add := func(a, b wgsl.Expr) wgsl.Expr { return bin(wgsl.Add, a, b) }
		return fn("The 64-bit product of the uint32s x and y, from four 16x16-bit partial products.",
			params(wgsl.U32Type, wgsl.U32Type), wideType,
			let("a0", m16(argX)), let("a1", s16(argX)), let("b0", m16(argY)), let("b1", s16(argY)),
			let("p00", bin(wgsl.Mul, id("a0"), id("b0"))), let("p01", bin(wgsl.Mul, id("a0"), id("b1"))),
			let("p10", bin(wgsl.Mul, id("a1"), id("b0"))), let("p11", bin(wgsl.Mul, id("a1"), id("b1"))),
			let("m", add(add(s16(id("p00")), m16(id("p01"))), m16(id("p10")))),
			ret(wideOf(bin(wgsl.Or, bin(wgsl.Shl, id("m"), wgsl.U32Lit(16)), m16(id("p00"))),
				add(add(add(id("p11"), s16(id("p01"))), s16(id("p10"))), s16(id("m"))))))
	},
	"xpu_mul_w": func() *wgsl.Func {
		p := wgsl.Id("p")
		return fn("Go's 64-bit x * y on (low, high) words: the low 64 bits of the product.", wideParams(), wideType,
			let("p", wgsl.CallOf("xpu_mul32_w", loOf(argX), loOf(argY))),
			ret(wideOf(loOf(p), bin(wgsl.Add, hiOf(p), bin(wgsl.Add, bin(wgsl.Mul, loOf(argX), hiOf(argY)), bin(wgsl.Mul, hiOf(argX), loOf(argY)))))))
	},
	"xpu_shl_w": func() *wgsl.Func {
		return fn("Go's 64-bit x << y: 0 when y >= 64.", params(wideType, wgsl.U32Type), wideType,
			when(bin(wgsl.Ge, argY, wgsl.U32Lit(64)), ret(wideZero())),
			when(bin(wgsl.Ge, argY, wgsl.U32Lit(32)), ret(wideOf(wgsl.U32Lit(0), bin(wgsl.Shl, loOf(argX), bin(wgsl.Sub, argY, wgsl.U32Lit(32)))))),
			when(bin(wgsl.Eq, argY, wgsl.U32Lit(0)), ret(argX)),
			ret(wideOf(bin(wgsl.Shl, loOf(argX), argY),
				bin(wgsl.Or, bin(wgsl.Shl, hiOf(argX), argY), bin(wgsl.Shr, loOf(argX), bin(wgsl.Sub, wgsl.U32Lit(32), argY))))))
	},
	"xpu_shr_u64": func() *wgsl.Func {
		return fn("Go's uint64 x >> y: 0 when y >= 64.", params(wideType, wgsl.U32Type), wideType,
			when(bin(wgsl.Ge, argY, wgsl.U32Lit(64)), ret(wideZero())),
			when(bin(wgsl.Ge, argY, wgsl.U32Lit(32)), ret(wideOf(bin(wgsl.Shr, hiOf(argX), bin(wgsl.Sub, argY, wgsl.U32Lit(32))), wgsl.U32Lit(0)))),
			when(bin(wgsl.Eq, argY, wgsl.U32Lit(0)), ret(argX)),
			ret(wideOf(bin(wgsl.Or, bin(wgsl.Shr, loOf(argX), argY), bin(wgsl.Shl, hiOf(argX), bin(wgsl.Sub, wgsl.U32Lit(32), argY))),
				bin(wgsl.Shr, hiOf(argX), argY))))
	},
	"xpu_shr_i64": func() *wgsl.Func {
		h := asI32(hiOf(argX))
		s := wgsl.Id("s")
		return fn("Go's int64 x >> y: the sign fills every bit when y >= 64.", params(wideType, wgsl.U32Type), wideType,
			let("s", toU32(bin(wgsl.Shr, h, wgsl.U32Lit(31)))),
			when(bin(wgsl.Ge, argY, wgsl.U32Lit(64)), ret(wideOf(s, s))),
			when(bin(wgsl.Ge, argY, wgsl.U32Lit(32)), ret(wideOf(toU32(bin(wgsl.Shr, h, bin(wgsl.Sub, argY, wgsl.U32Lit(32)))), s))),
			when(bin(wgsl.Eq, argY, wgsl.U32Lit(0)), ret(argX)),
			ret(wideOf(bin(wgsl.Or, bin(wgsl.Shr, loOf(argX), argY), bin(wgsl.Shl, hiOf(argX), bin(wgsl.Sub, wgsl.U32Lit(32), argY))),
				toU32(bin(wgsl.Shr, h, argY)))))
	},
	"xpu_count_u64": func() *wgsl.Func {
		return fn("A uint64 shift count as a uint32: counts of 2^32 and more saturate.", oneParam(wideType), wgsl.U32Type,
			ret(sel(loOf(argX), wgsl.U32Lit(math.MaxUint32), bin(wgsl.Ne, hiOf(argX), wgsl.U32Lit(0)))))
	},
	"xpu_count_i64": func() *wgsl.Func {
		return fn("An int64 shift count as a uint32: counts of 2^32 and more saturate; a negative count records the fault Go panics with.",
			oneParam(wideType), wgsl.U32Type,
			when(negative(argX), recordFault(faultNegativeShift)),
			ret(sel(loOf(argX), wgsl.U32Lit(math.MaxUint32), bin(wgsl.Ne, hiOf(argX), wgsl.U32Lit(0)))))
	},
	"xpu_lt_u64": func() *wgsl.Func {
		return fn("Go's uint64 x < y.", wideParams(), wgsl.BoolType,
			ret(bin(wgsl.LOr, bin(wgsl.Lt, hiOf(argX), hiOf(argY)),
				bin(wgsl.LAnd, bin(wgsl.Eq, hiOf(argX), hiOf(argY)), bin(wgsl.Lt, loOf(argX), loOf(argY))))))
	},
	"xpu_lt_i64": func() *wgsl.Func {
		return fn("Go's int64 x < y.", wideParams(), wgsl.BoolType,
			ret(bin(wgsl.LOr, bin(wgsl.Lt, asI32(hiOf(argX)), asI32(hiOf(argY))),
				bin(wgsl.LAnd, bin(wgsl.Eq, hiOf(argX), hiOf(argY)), bin(wgsl.Lt, loOf(argX), loOf(argY))))))
	},
	"xpu_divrem_u64": func() *wgsl.Func {
		q, r, i := wgsl.Id("q"), wgsl.Id("r"), wgsl.Id("i")
		sh := bin(wgsl.And, toU32(i), wgsl.U32Lit(31))
		high := bin(wgsl.Ge, i, wgsl.I32Lit(32))
		next := bin(wgsl.And, bin(wgsl.Shr, sel(loOf(argX), hiOf(argX), high), sh), wgsl.U32Lit(1))
		one := bin(wgsl.Shl, wgsl.U32Lit(1), sh)
		return fn("The uint64 quotient (xy) and remainder (zw) of x by y, y nonzero: long division, one bit a step.",
			wideParams(), quadType,
			when(bin(wgsl.LAnd, bin(wgsl.Eq, hiOf(argX), wgsl.U32Lit(0)), bin(wgsl.Eq, hiOf(argY), wgsl.U32Lit(0))),
				ret(&wgsl.Construct{Type: quadType, Args: []wgsl.Expr{bin(wgsl.Div, loOf(argX), loOf(argY)), wgsl.U32Lit(0), bin(wgsl.Rem, loOf(argX), loOf(argY)), wgsl.U32Lit(0)}})),
			&wgsl.VarDecl{Name: "q", Type: wideType},
			&wgsl.VarDecl{Name: "r", Type: wideType},
			&wgsl.For{
				Init:   &wgsl.VarDecl{Name: "i", Type: wgsl.I32Type, Init: wgsl.I32Lit(63)},
				Cond:   bin(wgsl.Ge, i, wgsl.I32Lit(0)),
				Update: &wgsl.CompoundAssign{LHS: i, Op: wgsl.Sub, RHS: wgsl.I32Lit(1)},
				Body: &wgsl.Block{Stmts: []wgsl.Stmt{
					&wgsl.Assign{LHS: r, RHS: wideOf(bin(wgsl.Or, bin(wgsl.Shl, loOf(r), wgsl.U32Lit(1)), next),
						bin(wgsl.Or, bin(wgsl.Shl, hiOf(r), wgsl.U32Lit(1)), bin(wgsl.Shr, loOf(r), wgsl.U32Lit(31))))},
					when(not(wgsl.CallOf("xpu_lt_u64", r, argY)),
						&wgsl.Assign{LHS: r, RHS: wgsl.CallOf("xpu_sub_w", r, argY)},
						&wgsl.Assign{LHS: q, RHS: bin(wgsl.Or, q, sel(wideOf(one, wgsl.U32Lit(0)), wideOf(wgsl.U32Lit(0), one), high))}),
				}},
			},
			ret(&wgsl.Construct{Type: quadType, Args: []wgsl.Expr{q, r}}))
	},
	"xpu_div_u64": func() *wgsl.Func { return wideDiv("Go's uint64 x / y", false, false) },
	"xpu_rem_u64": func() *wgsl.Func { return wideDiv("Go's uint64 x % y", false, true) },
	"xpu_div_i64": func() *wgsl.Func {
		return wideDiv("Go's int64 x / y, truncated toward zero: MinInt64 / -1 wraps to MinInt64", true, false)
	},
	"xpu_rem_i64": func() *wgsl.Func { return wideDiv("Go's int64 x % y, with the sign of x", true, true) },
	"xpu_f32_of_u64": func() *wgsl.Func {
		n, v, t, r := wgsl.Id("n"), wgsl.Id("v"), wgsl.Id("t"), wgsl.Id("r")
		clz := func(x wgsl.Expr) wgsl.Expr { return wgsl.CallOf("countLeadingZeros", x) }
		// WGSL lets f32(u32) round either way (SwiftShader does not round
		// to nearest above 2^24), so the rounding is done on the bits and
		// only the float's bits are built: the exponent field plus the
		// rounded 24-bit significand, whose carry into the exponent is
		// the right result when rounding reaches the next power of two.
		return fn("float32(x) of a uint64, rounded to nearest even on the bits: the top 32 bits with a sticky bit for the rest, rounded to 24 bits.",
			oneParam(wideType), wgsl.F32Type,
			when(bin(wgsl.LAnd, bin(wgsl.Eq, hiOf(argX), wgsl.U32Lit(0)), bin(wgsl.Lt, loOf(argX), wgsl.U32Lit(1<<24))),
				ret(&wgsl.Construct{Type: wgsl.F32Type, Args: []wgsl.Expr{loOf(argX)}})),
			let("n", sel(clz(hiOf(argX)), bin(wgsl.Add, wgsl.U32Lit(32), clz(loOf(argX))), bin(wgsl.Eq, hiOf(argX), wgsl.U32Lit(0)))),
			let("v", wgsl.CallOf("xpu_shl_w", argX, n)),
			let("t", bin(wgsl.Or, hiOf(v), bit(bin(wgsl.Ne, loOf(v), wgsl.U32Lit(0))))),
			let("r", bin(wgsl.And, t, wgsl.U32Lit(0xff))),
			let("m", bin(wgsl.Add, bin(wgsl.Shr, t, wgsl.U32Lit(8)), bit(bin(wgsl.LOr, bin(wgsl.Gt, r, wgsl.U32Lit(0x80)),
				bin(wgsl.LAnd, bin(wgsl.Eq, r, wgsl.U32Lit(0x80)), bin(wgsl.Ne, bin(wgsl.And, t, wgsl.U32Lit(0x100)), wgsl.U32Lit(0))))))),
			ret(&wgsl.Bitcast{Type: wgsl.F32Type, X: bin(wgsl.Add, bin(wgsl.Shl, bin(wgsl.Sub, wgsl.U32Lit(189), n), wgsl.U32Lit(23)), wgsl.Id("m"))}))
	},
	"xpu_f32_of_i64": func() *wgsl.Func {
		f := wgsl.Id("f")
		return fn("float32(x) of an int64, rounded to nearest even.", oneParam(wideType), wgsl.F32Type,
			let("f", wgsl.CallOf("xpu_f32_of_u64", sel(argX, wgsl.CallOf("xpu_neg_w", argX), negative(argX)))),
			ret(sel(f, &wgsl.Unary{Op: wgsl.Neg, X: f}, negative(argX))))
	},
	"xpu_u64_of_f32": func() *wgsl.Func {
		t, h := wgsl.Id("t"), wgsl.Id("h")
		return fn("uint64(x): truncates toward zero, saturates out of range, NaN gives 0.", oneParam(wgsl.F32Type), wideType,
			when(not(cmpResult(ir.OpGt, cmpBits(argX, 0xbf800000))), ret(wideZero())),                                                  // -1
			when(cmpResult(ir.OpGe, cmpBits(argX, 0x5f800000)), ret(wideOf(wgsl.U32Lit(math.MaxUint32), wgsl.U32Lit(math.MaxUint32)))), // 2^64
			let("t", wgsl.CallOf("trunc", argX)),
			let("h", wgsl.CallOf("floor", bin(wgsl.Mul, t, wgsl.F32Lit(1.0/4294967296)))),
			ret(wideOf(toU32(bin(wgsl.Sub, t, bin(wgsl.Mul, h, wgsl.F32Lit(4294967296)))), toU32(h))))
	},
	"xpu_i64_of_f32": func() *wgsl.Func {
		m := wgsl.Id("m")
		return fn("int64(x): truncates toward zero, saturates out of range, NaN gives 0.", oneParam(wgsl.F32Type), wideType,
			&wgsl.LetDecl{Name: "c", Init: cmpBits(argX, 0xdf000000)}, // -2^63
			when(bin(wgsl.Eq, wgsl.Id("c"), wgsl.I32Lit(2)), ret(wideZero())),
			when(cmpResult(ir.OpLt, wgsl.Id("c")), ret(wideOf(wgsl.U32Lit(0), wgsl.U32Lit(0x80000000)))),
			when(cmpResult(ir.OpGe, cmpBits(argX, 0x5f000000)), ret(wideOf(wgsl.U32Lit(math.MaxUint32), wgsl.U32Lit(math.MaxInt32)))), // 2^63
			let("m", wgsl.CallOf("xpu_u64_of_f32", wgsl.CallOf("abs", argX))),
			ret(sel(m, wgsl.CallOf("xpu_neg_w", m), bin(wgsl.Gt, bitsOf(argX), wgsl.U32Lit(0x7fffffff)))))
	},
}

// wideDiv builds a 64-bit division (rem false) or remainder helper.
func wideDiv(doc string, signed, rem bool) *wgsl.Func {
	part := "xy"
	if rem {
		part = "zw"
	}
	zero := bin(wgsl.LAnd, bin(wgsl.Eq, loOf(argY), wgsl.U32Lit(0)), bin(wgsl.Eq, hiOf(argY), wgsl.U32Lit(0)))
	fault := when(zero, recordFault(faultDivZero), ret(argX))
	if !signed {
		return fn(doc+"; x / 0 records the fault Go panics with.", wideParams(), wideType, fault,
			ret(&wgsl.Member{X: wgsl.CallOf("xpu_divrem_u64", argX, argY), Name: part}))
	}
	abs := func(x wgsl.Expr) wgsl.Expr { return sel(x, wgsl.CallOf("xpu_neg_w", x), negative(x)) }
	r := wgsl.Id("r")
	neg := negative(argX)
	if !rem {
		neg = bin(wgsl.Ne, negative(argX), negative(argY))
	}
	return fn(doc+"; x / 0 records the fault Go panics with.", wideParams(), wideType, fault,
		let("r", &wgsl.Member{X: wgsl.CallOf("xpu_divrem_u64", abs(argX), abs(argY)), Name: part}),
		ret(sel(r, wgsl.CallOf("xpu_neg_w", r), neg)))
}
