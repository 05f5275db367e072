package golower

import (
	"math"

	"github.com/goxpu/xpu/codegen/ir"
)

// This file folds constant subexpressions with the IR's run-time rules
// (integers wrap, float32 rounds each step): Go would fold them with its
// exact constant arithmetic and refuse those that overflow.

// fold returns the value of e when e is built of constants only and its
// value follows from the IR's rules without a run-time failure.
func fold(e ir.Expr) (*ir.Const, bool) { return foldIn(e, nil) }

// foldIn is fold where BlockX, BlockY and BlockZ are the constants of
// block: the lowering spells them as Go constants, so an expression of
// them must fold here, with the IR's rules, not in Go.
func foldIn(e ir.Expr, block *[3]uint32) (*ir.Const, bool) {
	switch e := e.(type) {
	case *ir.Const:
		return e, true
	case *ir.CallBuiltin:
		if block == nil || e.Fn < ir.BlockX || e.Fn > ir.BlockZ {
			return nil, false
		}
		return &ir.Const{T: ir.U32Type, Bits: block[e.Fn-ir.BlockX]}, true
	case *ir.Unary:
		x, ok := foldIn(e.X, block)
		t, tok := e.T.(*ir.Basic)
		if !ok || !tok {
			return nil, false
		}
		return foldUnary(e.Op, x, t)
	case *ir.Binary:
		x, ok := foldIn(e.X, block)
		y, yok := foldIn(e.Y, block)
		t, tok := e.T.(*ir.Basic)
		if !ok || !yok || !tok {
			return nil, false
		}
		return foldBinary(e.Op, x, y, t)
	case *ir.Convert:
		x, ok := foldIn(e.X, block)
		if !ok {
			return nil, false
		}
		return foldConvert(x, e.T)
	}
	return nil, false
}

func foldUnary(op ir.Op, x *ir.Const, t *ir.Basic) (*ir.Const, bool) {
	switch {
	case op == ir.OpNot && t.Kind == ir.Bool:
		return &ir.Const{T: t, Bits: x.Bits ^ 1}, true
	case op == ir.OpCompl && ir.IsInteger(t):
		return &ir.Const{T: t, Bits: ^x.Bits}, true
	case op == ir.OpNeg && ir.IsInteger(t):
		return &ir.Const{T: t, Bits: -x.Bits}, true
	case op == ir.OpNeg && t.Kind == ir.F32:
		return &ir.Const{T: t, Bits: x.Bits ^ 1<<31}, true
	}
	return nil, false
}

func foldBinary(op ir.Op, x, y *ir.Const, t *ir.Basic) (*ir.Const, bool) {
	if t.Kind == ir.F32 {
		a, b := math.Float32frombits(x.Bits), math.Float32frombits(y.Bits)
		var r float32
		switch op {
		case ir.OpAdd:
			r = a + b
		case ir.OpSub:
			r = a - b
		case ir.OpMul:
			r = a * b
		case ir.OpDiv:
			r = a / b
		default:
			return nil, false
		}
		return &ir.Const{T: t, Bits: math.Float32bits(r)}, true
	}
	if !ir.IsInteger(t) && !t.Wide64() {
		return nil, false
	}
	// 32-bit operands are extended by their signedness and the operation
	// computed in 64 bits: its low word is the 32-bit result Go wraps to
	// (int32(MinInt32 / -1) is MinInt32, as MinInt64 / -1 is MinInt64).
	a, b := foldOperand(x), foldOperand(y)
	if (op == ir.OpShl || op == ir.OpShr) && (y.T.Kind == ir.I32 || y.T.Kind == ir.I64) && int64(b) < 0 {
		return nil, false // Go panics
	}
	signed := t.Kind == ir.I32 || t.Kind == ir.I64
	var r uint64
	switch op {
	case ir.OpAdd:
		r = a + b
	case ir.OpSub:
		r = a - b
	case ir.OpMul:
		r = a * b
	case ir.OpAnd:
		r = a & b
	case ir.OpOr:
		r = a | b
	case ir.OpXor:
		r = a ^ b
	case ir.OpAndNot:
		r = a &^ b
	case ir.OpShl:
		r = a << b
	case ir.OpShr:
		if signed {
			r = uint64(int64(a) >> b)
		} else {
			r = a >> b
		}
	case ir.OpDiv, ir.OpRem:
		if b == 0 {
			return nil, false
		}
		switch {
		case signed && op == ir.OpDiv:
			r = uint64(int64(a) / int64(b))
		case signed:
			r = uint64(int64(a) % int64(b))
		case op == ir.OpDiv:
			r = a / b
		default:
			r = a % b
		}
	default:
		return nil, false
	}
	c := &ir.Const{T: t, Bits: uint32(r)}
	if t.Wide64() {
		c.Hi = uint32(r >> 32)
	}
	return c, true
}

// foldOperand returns an integer constant's value in 64 bits: an int32
// sign-extended, a uint32 zero-extended.
func foldOperand(c *ir.Const) uint64 {
	switch {
	case c.T.Wide64():
		return c.Bits64()
	case c.T.Kind == ir.I32:
		return uint64(int64(int32(c.Bits)))
	}
	return uint64(c.Bits)
}

func foldConvert(x *ir.Const, t *ir.Basic) (*ir.Const, bool) {
	from := x.T.Kind
	switch {
	case from == t.Kind:
		return &ir.Const{T: t, Bits: x.Bits, Hi: x.Hi}, true
	case from == ir.Bool || t.Kind == ir.Bool, x.T.Wide64() || t.Wide64():
		return nil, false
	case t.Narrow() && from != ir.F32:
		return &ir.Const{T: t, Bits: ir.ExtendBits(x.Bits, t)}, true
	case from == ir.F32 && t.Narrow():
		return nil, false // the IR's Widen pass converts through 32 bits
	case from == ir.F32:
		f := math.Float32frombits(x.Bits)
		if t.Kind == ir.I32 {
			if !(f > -2147483649 && f < 2147483648) {
				return nil, false // out of range: left to the run time
			}
			return &ir.Const{T: t, Bits: uint32(int32(f))}, true
		}
		if !(f > -1 && f < 4294967296) {
			return nil, false
		}
		return &ir.Const{T: t, Bits: uint32(f)}, true
	case t.Kind == ir.F32 && from == ir.I32:
		return &ir.Const{T: t, Bits: math.Float32bits(float32(int32(x.Bits)))}, true
	case t.Kind == ir.F32:
		return &ir.Const{T: t, Bits: math.Float32bits(float32(x.Bits))}, true
	}
	return &ir.Const{T: t, Bits: x.Bits}, true // int32 <-> uint32 keeps the bits
}
