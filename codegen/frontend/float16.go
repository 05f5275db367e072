package frontend

// This file lowers xpu.Float16, the binary16 storage type: its two
// conversions become calls of device functions in 32-bit integer
// arithmetic (ir.Float16ToFloat32, ir.Float32ToFloat16), and arithmetic,
// comparison and numeric conversion of its bits are refused.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/goxpu/xpu/codegen/ir"
)

// isFloat16 reports whether t is xpu.Float16.
func isFloat16(t types.Type) bool { return t != nil && isXpuNamed(t, "Float16") }

// float16Func returns the kernel's device function of a Float16
// conversion (toF32: Float16.Float32, else Float16From), made at its
// first use.
func (ks *kernelState) float16Func(toF32 bool, p token.Pos) *ir.Func {
	key := "xpu.Float16From"
	if toF32 {
		key = "xpu.Float16.Float32"
	}
	if f, ok := ks.specs[key]; ok {
		return f
	}
	var f *ir.Func
	if toF32 {
		f = ir.Float16ToFloat32(ks.c.funcName("Float16Float32"), ks.c.pos(p))
	} else {
		f = ir.Float32ToFloat16(ks.c.funcName("Float16From"), ks.c.pos(p))
	}
	ks.specs[key] = f
	ks.k.Funcs = append(ks.k.Funcs, f)
	return f
}

// float16Method lowers h.Float32() of the Float16 h.
func (f *fnState) float16Method(e *ast.CallExpr, sel *ast.SelectorExpr) ir.Expr {
	x := f.expr(sel.X)
	return &ir.Call{Func: f.ks.float16Func(true, e.Pos()), Args: []ir.Expr{x}, Pos: f.c.pos(e.Pos())}
}

// float16From lowers xpu.Float16From(x).
func (f *fnState) float16From(e *ast.CallExpr) ir.Expr {
	if len(e.Args) != 1 {
		return f.bad()
	}
	x := f.exprHint(e.Args[0], ir.F32Type)
	return &ir.Call{Func: f.ks.float16Func(false, e.Pos()), Args: []ir.Expr{x}, Pos: f.c.pos(e.Pos())}
}

// float16Arith reports, and refuses, an operator of kind what (e.g.
// "operator +") applied to a Float16 operand among xs.
func (f *fnState) float16Arith(p token.Pos, what string, xs ...ast.Expr) bool {
	for _, x := range xs {
		if x != nil && isFloat16(f.typeOf(x)) {
			f.c.errorf(p, RuleFloat16Arith, "%s on the xpu.Float16 %s", what, types.ExprString(x))
			return true
		}
	}
	return false
}

// float16Conversion refuses a numeric conversion between xpu.Float16 and
// float32: Go converts the bits' integer value, not the half-precision
// number. Conversions to and from integer types keep the bits.
func (f *fnState) float16Conversion(e *ast.CallExpr, to types.Type) bool {
	from := f.typeOf(e.Args[0])
	if from == nil {
		return false
	}
	isFloat := func(t types.Type) bool {
		b, ok := t.Underlying().(*types.Basic)
		return ok && b.Info()&types.IsFloat != 0
	}
	if isFloat16(to) && isFloat(from) || isFloat16(from) && isFloat(to) {
		f.c.errorf(e.Pos(), RuleFloat16Arith, "conversion %s converts the integer bits of an xpu.Float16", types.ExprString(e))
		return true
	}
	return false
}
