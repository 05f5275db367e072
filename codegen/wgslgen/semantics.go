package wgslgen

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// The helper functions that give WGSL Go's semantics where its own
// operators differ or leave the result open (see docs/language.md,
// "Where WGSL differs from Go"). Each is emitted once, when first used.

// helper declares the helper function name and returns its name.
func (l *lowerer) helper(name string) string {
	if _, ok := l.helpers[name]; ok {
		return name
	}
	if faultHelpers[name] || wideFaultHelpers[name] {
		l.fault = true
	}
	for _, d := range append(helperUses[name], wideHelperUses[name]...) {
		l.helper(d)
	}
	build, ok := helperBuilders[name]
	if !ok {
		build, ok = bitsHelperBuilders[name]
	}
	if !ok {
		build, ok = wideHelperBuilders[name]
	}
	if !ok {
		l.fail(ruleIR, "no helper %s", name)
		return name
	}
	f := build()
	f.Name = l.global(name, "helper "+name)
	l.helpers[name] = f
	return name
}

// faultHelpers are the helpers that record a fault: a kernel that calls
// one declares the fault word (faultVar).
var faultHelpers = map[string]bool{
	"xpu_div_i32": true, "xpu_rem_i32": true, "xpu_div_u32": true, "xpu_rem_u32": true, "xpu_shift_count": true,
}

// helperUses lists the helpers each helper calls.
var helperUses = map[string][]string{
	"xpu_i32_of_f32": {cmpF32}, "xpu_u32_of_f32": {cmpF32}, "xpu_min_f32": {cmpF32}, "xpu_max_f32": {cmpF32},
}

// faultVar is the fault word: an atomic u32 in a storage buffer the
// runtime binds after the buffers and the uniform block (see
// schema.Manifest.Fault). A work-item that does what Go panics on sets a
// bit of it, and the runtime turns a nonzero word into an error.
const faultVar = "xpu_fault"

// The bits of the fault word: an integer division or remainder by zero, a
// negative signed shift count.
const (
	faultDivZero       = schema.FaultDivZero
	faultNegativeShift = schema.FaultNegativeShift
)

// recordFault sets bit in the fault word. The helper then returns a
// value of WGSL's, which the runtime never lets be observed without the
// error.
func recordFault(bit uint32) wgsl.Stmt {
	return &wgsl.CallStmt{Call: wgsl.CallOf("atomicOr", wgsl.AddrOfExpr(wgsl.Id(faultVar)), wgsl.U32Lit(bit))}
}

// faultDecl declares the fault word at the binding after the buffers
// and the uniform block.
func (l *lowerer) faultDecl() {
	l.globalDecls = append(l.globalDecls, &wgsl.GlobalVar{
		Attrs:  []*wgsl.Attr{wgsl.GroupAttr(0), wgsl.BindingAttr(l.faultBinding)},
		Space:  wgsl.Storage,
		Access: wgsl.ReadWrite,
		Name:   l.global(faultVar, "the fault word"),
		Type:   &wgsl.Atomic{Elem: wgsl.U32Type},
	})
}

// argX and argY are the parameters of the two-operand helpers.
var argX, argY = wgsl.Id("x"), wgsl.Id("y")

func params(t wgsl.Type, yt wgsl.Type) []*wgsl.Param {
	return []*wgsl.Param{{Name: "x", Type: t}, {Name: "y", Type: yt}}
}

func ret(e wgsl.Expr) *wgsl.Return { return &wgsl.Return{Value: e} }

func when(cond wgsl.Expr, s ...wgsl.Stmt) *wgsl.If {
	return &wgsl.If{Cond: cond, Then: &wgsl.Block{Stmts: s}}
}

func bin(op wgsl.BinaryOp, a, b wgsl.Expr) *wgsl.Binary { return &wgsl.Binary{Op: op, X: a, Y: b} }

func fn(doc string, ps []*wgsl.Param, result wgsl.Type, body ...wgsl.Stmt) *wgsl.Func {
	return &wgsl.Func{Doc: doc, Params: ps, Result: result, Body: &wgsl.Block{Stmts: body}}
}

var helperBuilders = map[string]func() *wgsl.Func{
	"xpu_div_i32": func() *wgsl.Func {
		return fn("Go's int32 x / y: MinInt32 / -1 wraps to MinInt32; x / 0 records the fault Go panics with.",
			params(wgsl.I32Type, wgsl.I32Type), wgsl.I32Type,
			when(bin(wgsl.Eq, argY, wgsl.I32Lit(0)), recordFault(faultDivZero), ret(argX)),
			when(bin(wgsl.Eq, argY, wgsl.I32Lit(-1)), ret(bin(wgsl.Sub, wgsl.I32Lit(0), argX))),
			ret(bin(wgsl.Div, argX, argY)))
	},
	"xpu_rem_i32": func() *wgsl.Func {
		return fn("Go's int32 x % y, with the sign of x: x % -1 is 0; x % 0 records the fault Go panics with.",
			params(wgsl.I32Type, wgsl.I32Type), wgsl.I32Type,
			when(bin(wgsl.Eq, argY, wgsl.I32Lit(0)), recordFault(faultDivZero), ret(wgsl.I32Lit(0))),
			when(bin(wgsl.Eq, argY, wgsl.I32Lit(-1)), ret(wgsl.I32Lit(0))),
			ret(bin(wgsl.Rem, argX, argY)))
	},
	"xpu_div_u32": func() *wgsl.Func {
		return fn("Go's uint32 x / y; x / 0 records the fault Go panics with.",
			params(wgsl.U32Type, wgsl.U32Type), wgsl.U32Type,
			when(bin(wgsl.Eq, argY, wgsl.U32Lit(0)), recordFault(faultDivZero), ret(argX)),
			ret(bin(wgsl.Div, argX, argY)))
	},
	"xpu_rem_u32": func() *wgsl.Func {
		return fn("Go's uint32 x % y; x % 0 records the fault Go panics with.",
			params(wgsl.U32Type, wgsl.U32Type), wgsl.U32Type,
			when(bin(wgsl.Eq, argY, wgsl.U32Lit(0)), recordFault(faultDivZero), ret(wgsl.U32Lit(0))),
			ret(bin(wgsl.Rem, argX, argY)))
	},
	"xpu_shl_i32": func() *wgsl.Func { return shl(wgsl.I32Type, wgsl.I32Lit(0)) },
	"xpu_shl_u32": func() *wgsl.Func { return shl(wgsl.U32Type, wgsl.U32Lit(0)) },
	"xpu_shr_u32": func() *wgsl.Func {
		return fn("Go's uint32 x >> y: 0 when y >= 32 (WGSL takes y modulo 32).",
			params(wgsl.U32Type, wgsl.U32Type), wgsl.U32Type,
			ret(wgsl.CallOf("select", wgsl.U32Lit(0), bin(wgsl.Shr, argX, bin(wgsl.And, argY, wgsl.U32Lit(31))), bin(wgsl.Lt, argY, wgsl.U32Lit(32)))))
	},
	"xpu_shr_i32": func() *wgsl.Func {
		return fn("Go's int32 x >> y: the sign fills every bit when y >= 32 (WGSL takes y modulo 32).",
			params(wgsl.I32Type, wgsl.U32Type), wgsl.I32Type,
			ret(bin(wgsl.Shr, argX, wgsl.CallOf("min", argY, wgsl.U32Lit(31)))))
	},
	"xpu_shift_count": func() *wgsl.Func {
		return fn("Go's int32 shift count as a uint32; a negative count records the fault Go panics with.",
			[]*wgsl.Param{{Name: "x", Type: wgsl.I32Type}}, wgsl.U32Type,
			when(bin(wgsl.Lt, argX, wgsl.I32Lit(0)), recordFault(faultNegativeShift)),
			ret(&wgsl.Construct{Type: wgsl.U32Type, Args: []wgsl.Expr{argX}}))
	},
	cmpF32: func() *wgsl.Func {
		// A float's key is its magnitude bits, negated when the sign is
		// set: keys order as the floats do, and -0 and +0 share key 0.
		key := func(b wgsl.Expr) wgsl.Expr {
			mag := &wgsl.Construct{Type: wgsl.I32Type, Args: []wgsl.Expr{bin(wgsl.And, b, wgsl.U32Lit(0x7fffffff))}}
			return wgsl.CallOf("select", mag, &wgsl.Unary{Op: wgsl.Neg, X: mag}, bin(wgsl.Gt, b, wgsl.U32Lit(0x7fffffff)))
		}
		mag := func(b wgsl.Expr) wgsl.Expr { return bin(wgsl.And, b, wgsl.U32Lit(0x7fffffff)) }
		nan := bin(wgsl.Gt, wgsl.CallOf("max", mag(argX), mag(argY)), wgsl.U32Lit(0x7f800000))
		a, b := wgsl.Id("a"), wgsl.Id("b")
		order := wgsl.CallOf("select", wgsl.CallOf("select", wgsl.I32Lit(-1), wgsl.I32Lit(1), bin(wgsl.Gt, a, b)), wgsl.I32Lit(0), bin(wgsl.Eq, a, b))
		return fn("Go's comparison of the float32s of bits x and y: -1, 0 or 1, or 2 when either is NaN. "+
			"Integer arithmetic, which no compiler may take for finite math.",
			params(wgsl.U32Type, wgsl.U32Type), wgsl.I32Type,
			&wgsl.LetDecl{Name: "a", Init: key(argX)},
			&wgsl.LetDecl{Name: "b", Init: key(argY)},
			ret(wgsl.CallOf("select", order, wgsl.I32Lit(2), nan)))
	},
	"xpu_i32_of_f32": func() *wgsl.Func {
		return fn("int32(x): truncates toward zero, saturates out of range, NaN gives 0.",
			[]*wgsl.Param{{Name: "x", Type: wgsl.F32Type}}, wgsl.I32Type,
			&wgsl.LetDecl{Name: "c", Init: cmpBits(argX, 0xcf000000)}, // -2^31
			when(bin(wgsl.Eq, wgsl.Id("c"), wgsl.I32Lit(2)), ret(wgsl.I32Lit(0))),
			when(cmpResult(ir.OpLt, wgsl.Id("c")), ret(wgsl.I32Lit(-2147483648))),
			when(cmpResult(ir.OpGe, cmpBits(argX, 0x4f000000)), ret(wgsl.I32Lit(2147483647))), // 2^31
			ret(&wgsl.Construct{Type: wgsl.I32Type, Args: []wgsl.Expr{argX}}))
	},
	"xpu_u32_of_f32": func() *wgsl.Func {
		return fn("uint32(x): truncates toward zero, saturates out of range, NaN gives 0.",
			[]*wgsl.Param{{Name: "x", Type: wgsl.F32Type}}, wgsl.U32Type,
			when(&wgsl.Unary{Op: wgsl.Not, X: cmpResult(ir.OpGt, cmpBits(argX, 0xbf800000))}, ret(wgsl.U32Lit(0))), // -1
			when(cmpResult(ir.OpGe, cmpBits(argX, 0x4f800000)), ret(wgsl.U32Lit(4294967295))),                      // 2^32
			ret(&wgsl.Construct{Type: wgsl.U32Type, Args: []wgsl.Expr{argX}}))
	},
	"xpu_f32_of_bits": func() *wgsl.Func {
		return fn("The float32 with bits x, made at run time: an infinity or a NaN in a const-expression makes Tint refuse the shader.",
			[]*wgsl.Param{{Name: "x", Type: wgsl.U32Type}}, wgsl.F32Type,
			ret(&wgsl.Bitcast{Type: wgsl.F32Type, X: argX}))
	},
	"xpu_index": func() *wgsl.Func {
		return fn("The index x, made at run time: WGSL refuses a constant index out of an array's range when it creates the shader.",
			[]*wgsl.Param{{Name: "x", Type: wgsl.U32Type}}, wgsl.U32Type, ret(argX))
	},
	"xpu_min_f32": func() *wgsl.Func {
		return fn("xpu.Min for float32: y if y < x, else x (NaNs and zeros as in Go).",
			params(wgsl.F32Type, wgsl.F32Type), wgsl.F32Type,
			ret(wgsl.CallOf("select", argX, argY, cmpResult(ir.OpLt, wgsl.CallOf(cmpF32, bitsOf(argY), bitsOf(argX))))))
	},
	"xpu_max_f32": func() *wgsl.Func {
		return fn("xpu.Max for float32: y if y > x, else x (NaNs and zeros as in Go).",
			params(wgsl.F32Type, wgsl.F32Type), wgsl.F32Type,
			ret(wgsl.CallOf("select", argX, argY, cmpResult(ir.OpGt, wgsl.CallOf(cmpF32, bitsOf(argY), bitsOf(argX))))))
	},
}

// cmpF32 names the helper that compares float32s by their bits.
const cmpF32 = "xpu_cmp_f32"

// bitsOf is the bits of the float32 x.
func bitsOf(x wgsl.Expr) wgsl.Expr { return &wgsl.Bitcast{Type: wgsl.U32Type, X: x} }

// cmpBits compares the float32 x with the float32 of bits c.
func cmpBits(x wgsl.Expr, c uint32) wgsl.Expr { return wgsl.CallOf(cmpF32, bitsOf(x), wgsl.U32Lit(c)) }

func shl(t *wgsl.Scalar, zero wgsl.Expr) *wgsl.Func {
	return fn("Go's "+map[wgsl.ScalarKind]string{wgsl.I32: "int32", wgsl.U32: "uint32"}[t.Kind]+" x << y: 0 when y >= 32 (WGSL takes y modulo 32).",
		params(t, wgsl.U32Type), t,
		ret(wgsl.CallOf("select", zero, bin(wgsl.Shl, argX, bin(wgsl.And, argY, wgsl.U32Lit(31))), bin(wgsl.Lt, argY, wgsl.U32Lit(32)))))
}
