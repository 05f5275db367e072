package wgslgen

// This file lowers the bit functions of math/bits: WGSL's builtins where
// they mean the same, helpers where WGSL has none (rotation, byte
// reversal, the high word of a product).

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

// bitsFuncs maps the bit functions to WGSL's builtins of the same meaning
// on u32 (countLeadingZeros(0u) and countTrailingZeros(0u) are 32u, as
// in Go).
var bitsFuncs = map[ir.Builtin]string{
	ir.OnesCount32: "countOneBits", ir.LeadingZeros32: "countLeadingZeros",
	ir.TrailingZeros32: "countTrailingZeros", ir.Reverse32: "reverseBits",
}

// bitsHelpers are the helpers of the bit functions WGSL has no builtin for.
var bitsHelpers = map[ir.Builtin]string{
	ir.ReverseBytes32: "xpu_reverse_bytes_u32", ir.RotateLeft32: "xpu_rotl_u32", ir.MulHi32: "xpu_mulhi_u32",
}

// bits lowers a bit function of the lowered u32 operands args.
func (l *lowerer) bits(e *ir.CallBuiltin, args []wgsl.Expr) wgsl.Expr {
	for i, a := range e.Args {
		if ir.IsKind(a.Type(), ir.I32) {
			args[i] = &wgsl.Construct{Type: wgsl.U32Type, Args: []wgsl.Expr{args[i]}}
		}
	}
	if fn, ok := bitsFuncs[e.Fn]; ok {
		return wgsl.CallOf(fn, args...)
	}
	if h, ok := bitsHelpers[e.Fn]; ok {
		return wgsl.CallOf(l.helper(h), args...)
	}
	if e.Fn == ir.Len32 {
		return bin(wgsl.Sub, wgsl.U32Lit(32), wgsl.CallOf("countLeadingZeros", args[0]))
	}
	l.fail(ruleIR, "%v is not a bit function", e.Fn)
	return wgsl.Id("xpu_invalid")
}

func let(name string, x wgsl.Expr) *wgsl.LetDecl { return &wgsl.LetDecl{Name: name, Init: x} }

func u32Param(names ...string) []*wgsl.Param {
	ps := make([]*wgsl.Param, len(names))
	for i, n := range names {
		ps[i] = &wgsl.Param{Name: n, Type: wgsl.U32Type}
	}
	return ps
}

// bitsHelperBuilders build the helpers of bitsHelpers.
var bitsHelperBuilders = map[string]func() *wgsl.Func{
	"xpu_reverse_bytes_u32": func() *wgsl.Func {
		m := func(x wgsl.Expr, mask uint32) wgsl.Expr { return bin(wgsl.And, x, wgsl.U32Lit(mask)) }
		return fn("Go's bits.ReverseBytes32.", u32Param("x"), wgsl.U32Type,
			ret(bin(wgsl.Or,
				bin(wgsl.Or, bin(wgsl.Shl, argX, wgsl.U32Lit(24)), bin(wgsl.Shl, m(argX, 0xff00), wgsl.U32Lit(8))),
				bin(wgsl.Or, m(bin(wgsl.Shr, argX, wgsl.U32Lit(8)), 0xff00), bin(wgsl.Shr, argX, wgsl.U32Lit(24))))))
	},
	"xpu_rotl_u32": func() *wgsl.Func {
		s := wgsl.Id("s")
		return fn("Go's bits.RotateLeft32: the count modulo 32, a negative one rotating right.", u32Param("x", "y"), wgsl.U32Type,
			let("s", bin(wgsl.And, argY, wgsl.U32Lit(31))),
			ret(bin(wgsl.Or, bin(wgsl.Shl, argX, s), bin(wgsl.Shr, argX, bin(wgsl.And, bin(wgsl.Sub, wgsl.U32Lit(32), s), wgsl.U32Lit(31))))))
	},
	"xpu_mulhi_u32": func() *wgsl.Func {
		id := wgsl.Id
		lo := func(x wgsl.Expr) wgsl.Expr { return bin(wgsl.And, x, wgsl.U32Lit(0xffff)) }
		hi := func(x wgsl.Expr) wgsl.Expr { return bin(wgsl.Shr, x, wgsl.U32Lit(16)) }
		return fn("The high word of Go's bits.Mul32, from the products of the 16-bit halves.", u32Param("x", "y"), wgsl.U32Type,
			let("xl", lo(argX)), let("xh", hi(argX)), let("yl", lo(argY)), let("yh", hi(argY)),
			let("lh", bin(wgsl.Mul, id("xl"), id("yh"))), let("hl", bin(wgsl.Mul, id("xh"), id("yl"))),
			let("mid", bin(wgsl.Add, bin(wgsl.Add, hi(bin(wgsl.Mul, id("xl"), id("yl"))), lo(id("lh"))), lo(id("hl")))),
			ret(bin(wgsl.Add, bin(wgsl.Add, bin(wgsl.Mul, id("xh"), id("yh")), bin(wgsl.Add, hi(id("lh")), hi(id("hl")))), hi(id("mid")))))
	},
}
