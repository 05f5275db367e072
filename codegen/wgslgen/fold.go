package wgslgen

import (
	"math"

	"github.com/goxpu/xpu/codegen/ir"
)

// Constant folding with Go's semantics. WGSL evaluates expressions of
// literals at shader-creation time and rejects any that overflow, so an
// operation on two constants (which Go wraps at run time, for typed
// values the front end did not fold) is folded here instead. Division by
// zero folds to the value the run-time helpers give.

// foldBinary folds X Op Y when both are constants.
func foldBinary(e *ir.Binary) (*ir.Const, bool) {
	x, ok1 := e.X.(*ir.Const)
	y, ok2 := e.Y.(*ir.Const)
	t, ok3 := e.T.(*ir.Basic)
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	a, b := x.Bits, y.Bits
	boolean := func(v bool) (*ir.Const, bool) {
		if v {
			return &ir.Const{T: ir.BoolType, Bits: 1}, true
		}
		return &ir.Const{T: ir.BoolType}, true
	}
	switch e.Op {
	case ir.OpLAnd:
		return boolean(a != 0 && b != 0)
	case ir.OpLOr:
		return boolean(a != 0 || b != 0)
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		c := compare(x.T.Kind, a, b)
		if c == unordered {
			return boolean(e.Op == ir.OpNe)
		}
		return boolean(map[ir.Op]bool{
			ir.OpEq: c == 0, ir.OpNe: c != 0, ir.OpLt: c < 0, ir.OpLe: c <= 0, ir.OpGt: c > 0, ir.OpGe: c >= 0,
		}[e.Op])
	}
	var r uint32
	switch t.Kind {
	case ir.F32:
		f, g := math.Float32frombits(a), math.Float32frombits(b)
		switch e.Op {
		case ir.OpAdd:
			r = math.Float32bits(f + g)
		case ir.OpSub:
			r = math.Float32bits(f - g)
		case ir.OpMul:
			r = math.Float32bits(f * g)
		case ir.OpDiv:
			r = math.Float32bits(f / g)
		default:
			return nil, false
		}
	case ir.I32, ir.U32:
		if (e.Op == ir.OpShl || e.Op == ir.OpShr) && y.T.Kind == ir.I32 && int32(b) < 0 {
			return nil, false // left to the helper, which records the fault
		}
		var ok bool
		if r, ok = foldInt(e.Op, t.Kind == ir.I32, a, b); !ok {
			return nil, false
		}
	default:
		return nil, false
	}
	return &ir.Const{T: t, Bits: r}, true
}

// foldInt applies an integer operator to the bits a and b.
func foldInt(op ir.Op, signed bool, a, b uint32) (uint32, bool) {
	switch op {
	case ir.OpAdd:
		return a + b, true
	case ir.OpSub:
		return a - b, true
	case ir.OpMul:
		return a * b, true
	case ir.OpAnd:
		return a & b, true
	case ir.OpOr:
		return a | b, true
	case ir.OpXor:
		return a ^ b, true
	case ir.OpAndNot:
		return a &^ b, true
	case ir.OpShl:
		if b >= 32 {
			return 0, true
		}
		return a << b, true
	case ir.OpShr:
		if signed {
			return uint32(int32(a) >> min(b, 31)), true
		}
		if b >= 32 {
			return 0, true
		}
		return a >> b, true
	case ir.OpDiv:
		switch {
		case b == 0:
			return 0, false // left to the helper, which records the fault
		case signed && b == 0xffffffff:
			return -a, true
		case signed:
			return uint32(int32(a) / int32(b)), true
		}
		return a / b, true
	case ir.OpRem:
		switch {
		case b == 0:
			return 0, false // left to the helper, which records the fault
		case signed && b == 0xffffffff:
			return 0, true
		case signed:
			return uint32(int32(a) % int32(b)), true
		}
		return a % b, true
	}
	return 0, false
}

const unordered = 2

// compare compares the constants a and b of kind k: -1, 0, 1, or
// unordered when a float is NaN.
func compare(k ir.BasicKind, a, b uint32) int {
	switch k {
	case ir.F32:
		f, g := math.Float32frombits(a), math.Float32frombits(b)
		switch {
		case f < g:
			return -1
		case f > g:
			return 1
		case f == g:
			return 0
		}
		return unordered
	case ir.I32:
		return cmp3(int32(a), int32(b))
	}
	return cmp3(a, b)
}

func cmp3[T int32 | uint32](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// foldUnary folds Op C.
func foldUnary(op ir.Op, c *ir.Const) (*ir.Const, bool) {
	switch op {
	case ir.OpNeg:
		if c.T.Kind == ir.F32 {
			return &ir.Const{T: c.T, Bits: c.Bits ^ 0x80000000}, true
		}
		return &ir.Const{T: c.T, Bits: -c.Bits}, true
	case ir.OpNot:
		return &ir.Const{T: c.T, Bits: c.Bits ^ 1}, true
	case ir.OpCompl:
		return &ir.Const{T: c.T, Bits: ^c.Bits}, true
	}
	return nil, false
}

// convertBits converts the bits b of kind from to type t, as the
// lowering does at run time: integers keep their bits (a narrow one the
// low bits, extended), floats truncate toward zero and saturate, NaN
// gives 0.
func convertBits(from ir.BasicKind, t *ir.Basic, b uint32) uint32 {
	if t.Narrow() {
		return ir.ExtendBits(b, t)
	}
	to := t.Kind
	switch {
	case from == to, from != ir.F32 && to != ir.F32:
		return b
	case from == ir.I32:
		return math.Float32bits(float32(int32(b)))
	case from == ir.U32:
		return math.Float32bits(float32(b))
	}
	f := float64(math.Float32frombits(b))
	switch {
	case math.IsNaN(f):
		return 0
	case to == ir.I32 && f < math.MinInt32:
		return 0x80000000
	case to == ir.I32 && f > math.MaxInt32:
		return math.MaxInt32
	case to == ir.I32:
		return uint32(int32(f))
	case f <= -1:
		return 0
	case f > math.MaxUint32:
		return math.MaxUint32
	}
	return uint32(f)
}
