package llvmgen

// This file lowers expressions with Go's semantics: wrapping integer
// arithmetic, faults for a division by zero and a negative shift count,
// shifts by the width or more giving 0 or the sign, short-circuit && and
// ||, float-to-integer conversion as Go on the target's GOARCH converts.

import (
	"math"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

func (g *gen) expr(e ir.Expr) value {
	switch e := e.(type) {
	case *ir.Const:
		return value{x: g.constant(e)}
	case *ir.VarRef:
		return g.load(g.lookup(e.Var))
	case *ir.ScalarRef:
		return value{x: g.scalars[e.Param]}
	case *ir.Index, *ir.FieldOf:
		return g.loadPlace(g.placeOf(e))
	case *ir.Unary:
		return g.unary(e)
	case *ir.Binary:
		return g.binary(e)
	case *ir.Convert:
		return g.convert(e)
	case *ir.Bitcast:
		x := g.expr(e.X)
		to := g.basic(e.T)
		if llvm.SameType(llvm.Elem(x.x.Type()), to) {
			return x
		}
		return value{x: g.b.Cast(llvm.Bitcast, x.x, llvm.Like(x.x.Type(), to))}
	case *ir.CallBuiltin:
		return g.builtin(e)
	case *ir.Call:
		return g.call(e)
	case *ir.Len:
		return value{x: g.b.Cast(llvm.Trunc, g.buffers[e.Buffer].len, llvm.I32)}
	case *ir.Atomic:
		return g.atomic(e)
	case *ir.Wave:
		return g.wave(e)
	}
	g.fail("an expression of type %T", e)
	return value{}
}

func (g *gen) constant(c *ir.Const) llvm.Value {
	switch c.T.Kind {
	case ir.Bool:
		if c.Bits != 0 {
			return llvm.True
		}
		return llvm.False
	case ir.F32:
		return llvm.ConstF32(math.Float32frombits(c.Bits))
	}
	t := g.basic(c.T).(*llvm.IntType)
	if c.T.Wide64() {
		return &llvm.Int{T: t, Bits: c.Bits64()}
	}
	return &llvm.Int{T: t, Bits: uint64(c.Bits) & (1<<t.Bits - 1)}
}

func (g *gen) unary(e *ir.Unary) value {
	x := g.expr(e.X).x
	switch e.Op {
	case ir.OpNeg:
		if ir.IsKind(e.T, ir.F32) {
			return value{x: g.b.FNeg(x)}
		}
		return value{x: g.b.Sub(zeroLike(x), x)}
	case ir.OpNot:
		return value{x: g.not(x)}
	case ir.OpCompl:
		if !ir.IsInteger(e.T) && !ir.IsWide64(e.T) {
			g.fail("^ of a %v", e.T)
		}
		return value{x: g.b.Xor(x, onesLike(x))}
	}
	g.fail("the unary operator %v", e.Op)
	return value{}
}

// negZero is -0.
var negZero = float32(math.Copysign(0, -1))

func zeroLike(x llvm.Value) llvm.Value { return &llvm.Zero{T: x.Type()} }

// onesLike returns all bits set, of x's type.
func onesLike(x llvm.Value) llvm.Value {
	it := llvm.Elem(x.Type()).(*llvm.IntType)
	c := llvm.ConstInt(it, -1)
	if n := llvm.Lanes(x.Type()); n > 0 {
		return &llvm.Splat{Len: n, X: c}
	}
	return c
}

// constLike returns the integer constant v shaped as x: of x's integer
// type (i32 unless x is another integer), a vector when x is one.
func constLike(x llvm.Value, v int64) llvm.Value {
	c := i32(v)
	if it, ok := llvm.Elem(x.Type()).(*llvm.IntType); ok && it.Bits > 1 {
		c = llvm.ConstInt(it, v)
	}
	if n := llvm.Lanes(x.Type()); n > 0 {
		return &llvm.Splat{Len: n, X: c}
	}
	return c
}

// fconstLike returns the float32 constant v shaped as x.
func fconstLike(x llvm.Value, v float32) llvm.Value {
	if n := llvm.Lanes(x.Type()); n > 0 {
		return &llvm.Splat{Len: n, X: llvm.ConstF32(v)}
	}
	return llvm.ConstF32(v)
}

// pure reports whether evaluating x has no effect and cannot fault, so
// that && and || may evaluate it for every lane.
func pure(x ir.Expr) bool {
	ok := true
	ir.WalkExpr(x, func(e ir.Expr) bool {
		switch e := e.(type) {
		case *ir.Index, *ir.Call, *ir.Atomic, *ir.Wave:
			ok = false
		case *ir.Binary:
			switch e.Op {
			case ir.OpDiv, ir.OpRem:
				ok = !ir.IsInteger(e.T) && !ir.IsWide64(e.T) // an integer one may fault
			case ir.OpShl, ir.OpShr:
				ok = !ir.IsKind(e.Y.Type(), ir.I32) && !ir.IsKind(e.Y.Type(), ir.I64) // a negative count faults
			}
		}
		return ok
	})
	return ok
}

func (g *gen) binary(e *ir.Binary) value {
	if e.Op == ir.OpLAnd || e.Op == ir.OpLOr {
		return g.logical(e)
	}
	xv, yv := g.expr(e.X), g.expr(e.Y)
	x, y := g.widen(xv.x, yv.x)
	b := g.b
	t := e.X.Type()
	float := ir.IsKind(t, ir.F32)
	signed := ir.IsKind(t, ir.I32) || ir.IsKind(t, ir.I64)
	var r value
	if !float && !ir.IsWide64(t) && !ir.IsWide64(e.Y.Type()) {
		r = g.rampOf(e.Op, xv, yv)
	}
	arith := func(i, f llvm.BinOp) value {
		if float {
			return value{x: b.Bin(f, x, y, llvm.Flags{})}
		}
		return value{x: b.Bin(i, x, y, llvm.Flags{}), ramp: r.ramp, step: r.step}
	}
	switch e.Op {
	case ir.OpAdd:
		return arith(llvm.Add, llvm.FAdd)
	case ir.OpSub:
		return arith(llvm.Sub, llvm.FSub)
	case ir.OpMul:
		return arith(llvm.Mul, llvm.FMul)
	case ir.OpDiv, ir.OpRem:
		if float {
			if e.Op == ir.OpRem {
				g.fail("a float remainder")
			}
			return value{x: b.Bin(llvm.FDiv, x, y, llvm.Flags{})}
		}
		return value{x: g.divide(e.Op == ir.OpDiv, signed, x, y)}
	case ir.OpAnd:
		return value{x: b.And(x, y)}
	case ir.OpOr:
		return value{x: b.Or(x, y)}
	case ir.OpXor:
		return value{x: b.Xor(x, y)}
	case ir.OpAndNot:
		return value{x: b.And(x, b.Xor(y, onesLike(y)))}
	case ir.OpShl, ir.OpShr:
		return value{x: g.shift(e, x, y), ramp: r.ramp, step: r.step}
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		return value{x: g.compare(e.Op, t, x, y), all: g.rampAll(e.Op, t, xv, yv)}
	}
	g.fail("the binary operator %v", e.Op)
	return value{}
}

// rampOf returns the ramp of x op y (integers) when it is one whose
// step is a constant (and none, else): a ramp plus or minus a uniform
// value, the sum or difference of ramps, a ramp times or shifted left
// by a constant. Wrapping arithmetic keeps x = r + step*lanes exact.
func (g *gen) rampOf(op ir.Op, xv, yv value) value {
	b := g.b
	uniform := func(v value) bool { return !isVec(v.x) }
	// constant returns a constant operand's value.
	constant := func(v value) (int64, bool) {
		c, ok := v.x.(*llvm.Int)
		if !ok {
			return 0, false
		}
		return int64(uint32(c.Bits)), true
	}
	var r value
	switch op {
	case ir.OpAdd:
		switch {
		case xv.ramp != nil && uniform(yv):
			r = value{ramp: b.Add(xv.ramp, yv.x), step: xv.step}
		case yv.ramp != nil && uniform(xv):
			r = value{ramp: b.Add(yv.ramp, xv.x), step: yv.step}
		case xv.ramp != nil && yv.ramp != nil:
			r = value{ramp: b.Add(xv.ramp, yv.ramp), step: xv.step + yv.step}
		}
	case ir.OpSub:
		switch {
		case xv.ramp != nil && uniform(yv):
			r = value{ramp: b.Sub(xv.ramp, yv.x), step: xv.step}
		case xv.ramp != nil && yv.ramp != nil && xv.step > yv.step:
			r = value{ramp: b.Sub(xv.ramp, yv.ramp), step: xv.step - yv.step}
		}
	case ir.OpMul:
		if yv.ramp != nil {
			xv, yv = yv, xv
		}
		if c, ok := constant(yv); ok && xv.ramp != nil && c > 0 && c <= maxStep {
			r = value{ramp: b.Mul(xv.ramp, yv.x), step: xv.step * c}
		}
	case ir.OpShl:
		if c, ok := constant(yv); ok && xv.ramp != nil && c < 17 {
			r = value{ramp: b.Bin(llvm.Shl, xv.ramp, yv.x, llvm.Flags{}), step: xv.step << c}
		}
	}
	if r.step > maxStep {
		return value{}
	}
	return r
}

// rampAll returns, for a comparison of a ramp of integers with a uniform
// value (i < n, i <= n, n > i, n >= i), the scalar test that it holds in
// every lane: the ramp's last lane does not wrap and compares so. nil for
// any other comparison.
func (g *gen) rampAll(op ir.Op, t ir.Type, xv, yv value) llvm.Value {
	if !ir.IsInteger(t) {
		return nil
	}
	switch op {
	case ir.OpGt:
		op, xv, yv = ir.OpLt, yv, xv
	case ir.OpGe:
		op, xv, yv = ir.OpLe, yv, xv
	}
	if op != ir.OpLt && op != ir.OpLe || xv.ramp == nil || isVec(yv.x) {
		return nil
	}
	b := g.b
	span := xv.step * int64(g.W-1)
	signed := ir.IsKind(t, ir.I32)
	lim, less := int64(math.MaxUint32), llvm.ULT
	if signed {
		lim, less = math.MaxInt32, llvm.SLT
	}
	if op == ir.OpLe {
		less = llvm.ULE
		if signed {
			less = llvm.SLE
		}
	}
	noWrap := llvm.ULE
	if signed {
		noWrap = llvm.SLE
	}
	last := b.Add(xv.ramp, i32(span))
	return b.And(b.ICmp(noWrap, xv.ramp, i32(lim-span)), b.ICmp(less, last, yv.x))
}

// everyLane returns the scalar test that the bool v holds in every lane:
// v itself when uniform, a ramp comparison's test, or nil.
func everyLane(v value) llvm.Value {
	if !isVec(v.x) {
		return v.x
	}
	return v.all
}

// preds maps comparison operators to the predicates of float, signed
// and unsigned (or bool) operands.
var preds = map[ir.Op][3]llvm.Pred{
	ir.OpEq: {llvm.OEQ, llvm.EQ, llvm.EQ},
	ir.OpNe: {llvm.UNE, llvm.NE, llvm.NE},
	ir.OpLt: {llvm.OLT, llvm.SLT, llvm.ULT},
	ir.OpLe: {llvm.OLE, llvm.SLE, llvm.ULE},
	ir.OpGt: {llvm.OGT, llvm.SGT, llvm.UGT},
	ir.OpGe: {llvm.OGE, llvm.SGE, llvm.UGE},
}

func (g *gen) compare(op ir.Op, t ir.Type, x, y llvm.Value) llvm.Value {
	p := preds[op]
	switch {
	case ir.IsKind(t, ir.F32):
		return g.b.FCmp(p[0], x, y)
	case ir.IsKind(t, ir.I32), ir.IsKind(t, ir.I64):
		return g.b.ICmp(p[1], x, y)
	}
	return g.b.ICmp(p[2], x, y)
}

// logical lowers && and ||: the right operand runs only for the lanes
// the left one does not decide.
func (g *gen) logical(e *ir.Binary) value {
	and := e.Op == ir.OpLAnd
	xv := g.expr(e.X)
	x := xv.x
	b := g.b
	if pure(e.Y) {
		yv := g.expr(e.Y)
		y := yv.x
		x, y = g.widen(x, y)
		if and {
			r := value{x: b.Select(x, y, zeroLike(y))}
			if ax, ay := everyLane(xv), everyLane(yv); ax != nil && ay != nil {
				r.all = b.And(ax, ay) // x < w && y < h: both guards' tests
			}
			return r
		}
		return value{x: b.Select(x, onesLike(y), y)}
	}
	if !isVec(x) {
		// A uniform left operand: a branch.
		pre := b.Block
		rb, after := b.NewBlock("rhs"), b.NewBlock("rhs.end")
		if and {
			b.CondBr(x, rb, after)
		} else {
			b.CondBr(x, after, rb)
		}
		b.SetBlock(rb)
		y := g.expr(e.Y).x
		end := b.Block
		b.Br(after)
		b.SetBlock(after)
		// The edge from pre is taken when x decides: false for &&, true
		// for ||.
		var decided llvm.Value = llvm.False
		if !and {
			decided = llvm.True
		}
		if isVec(y) {
			decided = &llvm.Splat{Len: g.W, X: decided}
		}
		r, _ := b.Phi(y.Type(), llvm.Incoming{X: decided, From: pre}, llvm.Incoming{X: y, From: end})
		return value{x: r}
	}
	m0 := g.mask()
	need := b.And(m0, x)
	if !and {
		need = b.And(m0, g.not(x))
	}
	flow, full := g.flow, g.full
	pre := b.Block
	rb, after := b.NewBlock("rhs"), b.NewBlock("rhs.end")
	b.CondBr(g.any(need), rb, after)
	b.SetBlock(rb)
	g.setMask(need)
	g.flow, g.full = false, false
	y := g.splat(g.expr(e.Y).x)
	g.setMask(m0)
	g.flow, g.full = flow, full
	end := b.Block
	b.Br(after)
	b.SetBlock(after)
	r, _ := b.Phi(y.Type(), llvm.Incoming{X: g.noLanes(), From: pre}, llvm.Incoming{X: y, From: end})
	if and {
		return value{x: b.Select(x, r, g.noLanes())}
	}
	return value{x: b.Select(x, g.allOnes(), r)}
}

// active returns the lanes of the mask where bad holds (a vector), or
// for a scalar bad whether it holds and a lane is active.
func (g *gen) active(bad llvm.Value) llvm.Value {
	if g.simt() {
		return bad
	}
	if isVec(bad) {
		return g.b.And(bad, g.mask())
	}
	return g.b.And(bad, g.any(g.mask()))
}

// divide lowers x / y or x % y: a zero divisor on an active lane faults,
// MinInt32 / -1 wraps to MinInt32 (and its remainder is 0).
func (g *gen) divide(div, signed bool, x, y llvm.Value) llvm.Value {
	b := g.b
	zero := b.ICmp(llvm.EQ, y, zeroLike(y))
	g.fault(g.active(zero), schema.HostFaultDivZero, 0, nil)
	safe := b.Select(zero, constLike(y, 1), y)
	if !signed {
		if div {
			return b.Bin(llvm.UDiv, x, safe, llvm.Flags{})
		}
		return b.Bin(llvm.URem, x, safe, llvm.Flags{})
	}
	minus := b.ICmp(llvm.EQ, y, onesLike(y))
	safe = b.Select(minus, constLike(y, 1), safe)
	if div {
		q := b.Bin(llvm.SDiv, x, safe, llvm.Flags{})
		return b.Select(minus, b.Sub(zeroLike(x), x), q)
	}
	r := b.Bin(llvm.SRem, x, safe, llvm.Flags{})
	return b.Select(minus, zeroLike(x), r)
}

// shift lowers x << y and x >> y with Go's rules.
func (g *gen) shift(e *ir.Binary, x, y llvm.Value) llvm.Value {
	b := g.b
	if ir.IsKind(e.Y.Type(), ir.I32) || ir.IsKind(e.Y.Type(), ir.I64) {
		neg := b.ICmp(llvm.SLT, y, zeroLike(y))
		g.fault(g.active(neg), schema.HostFaultNegativeShift, 0, nil)
	}
	// The count, of either width, saturates at the width of x.
	xt := llvm.Elem(x.Type()).(*llvm.IntType)
	yt := llvm.Elem(y.Type()).(*llvm.IntType)
	width := int64(xt.Bits)
	big := b.ICmp(llvm.UGE, y, constLike(y, width))
	switch {
	case yt.Bits < xt.Bits:
		y = b.Cast(llvm.ZExt, y, llvm.Like(y.Type(), xt))
	case yt.Bits > xt.Bits:
		y = b.Cast(llvm.Trunc, y, llvm.Like(y.Type(), xt))
	}
	if e.Op == ir.OpShr && (ir.IsKind(e.T, ir.I32) || ir.IsKind(e.T, ir.I64)) {
		n := b.Select(big, constLike(y, width-1), y)
		return b.Bin(llvm.AShr, x, n, llvm.Flags{})
	}
	n := b.And(y, constLike(y, width-1))
	op := llvm.Shl
	if e.Op == ir.OpShr {
		op = llvm.LShr
	}
	return b.Select(big, zeroLike(x), b.Bin(op, x, n, llvm.Flags{}))
}

// convertWide lowers a conversion from or to int64 or uint64 (the IR's
// Widen pass leaves none whose other side is narrow): integers extend by
// the sign of the source or truncate, as Go's do; float32 to a 64-bit
// integer follows Go on the target out of range as the 32-bit ones do.
func (g *gen) convertWide(from, to *ir.Basic, x llvm.Value, lt llvm.Type) value {
	b := g.b
	switch {
	case from.Wide64() && to.Wide64():
		return value{x: x}
	case from.Kind == ir.I32:
		return value{x: b.Cast(llvm.SExt, x, lt)}
	case from.Kind == ir.U32:
		return value{x: b.Cast(llvm.ZExt, x, lt)}
	case to.Kind == ir.I32 || to.Kind == ir.U32:
		return value{x: b.Cast(llvm.Trunc, x, lt)}
	case to.Kind == ir.F32 && from.Kind == ir.I64:
		return value{x: b.Cast(llvm.SIToFP, g.float32Exact(x, true), lt)}
	case to.Kind == ir.F32:
		return value{x: b.Cast(llvm.UIToFP, g.float32Exact(x, false), lt)}
	case from.Kind == ir.F32 && g.t.GOARCH == "arm64":
		// FCVTZS and FCVTZU saturate and give 0 for NaN.
		name := "llvm.fptosi.sat."
		if to.Kind == ir.U64 {
			name = "llvm.fptoui.sat."
		}
		return value{x: g.intrinsic(name+suffix(lt)+"."+suffix(x.Type()), lt, x)}
	case from.Kind == ir.F32:
		// amd64: CVTTSS2SQ gives the indefinite 1<<63 for NaN and values
		// out of int64's range; Go's uint64 conversion takes 2^63 off a
		// value not below it and sets the top bit of that conversion.
		sat := func(x llvm.Value) llvm.Value {
			in := b.And(b.FCmp(llvm.OGE, x, fconstLike(x, -1<<63)), b.FCmp(llvm.OLT, x, fconstLike(x, 1<<63)))
			return b.Select(in, b.Cast(llvm.FPToSI, x, lt), constLike(zeroOf(lt), math.MinInt64))
		}
		if to.Kind == ir.I64 {
			return value{x: sat(x)}
		}
		top := constLike(zeroOf(lt), math.MinInt64)
		low := b.FCmp(llvm.OLT, x, fconstLike(x, 1<<63))
		return value{x: b.Select(low, sat(x), b.Or(sat(b.Bin(llvm.FSub, x, fconstLike(x, 1<<63), llvm.Flags{})), top))}
	}
	g.fail("a conversion from %v to %v", from, to)
	return value{}
}

// float32Exact returns the int64 or uint64 x (signed says which) made
// safe from double rounding on its way to float32. LLVM lowers a vector
// conversion from 64-bit integers to float32 on AArch64 through float64
// (UCVTF or SCVTF to doubles, then FCVTN), which rounds twice: 2^64 -
// 2^39 - 1 becomes 2^64, where Go's single rounding gives 2^64 - 2^40.
// Below 2^53 in magnitude the first step is exact; above it, x's bits
// below 2^11 are folded into a sticky bit at 2^11 (rounding to odd there),
// which makes the first step exact and leaves the float32 rounding, at a
// granularity of 2^30 or more, as it was. Elsewhere the conversion rounds
// once and x is returned as it is.
func (g *gen) float32Exact(x llvm.Value, signed bool) llvm.Value {
	if g.t.GOARCH != "arm64" {
		return x
	}
	b := g.b
	sticky := b.Select(b.ICmp(llvm.NE, b.And(x, constLike(x, 0x7ff)), constLike(x, 0)), constLike(x, 0x800), constLike(x, 0))
	odd := b.Or(b.And(x, constLike(x, ^0x7ff)), sticky)
	big := b.ICmp(llvm.UGE, x, constLike(x, 1<<53))
	if signed { // x >= 2^53 or x < -2^53
		big = b.ICmp(llvm.UGE, b.Bin(llvm.Add, x, constLike(x, 1<<53), llvm.Flags{}), constLike(x, 1<<54))
	}
	return b.Select(big, odd, x)
}

// zeroOf is the zero of type t.
func zeroOf(t llvm.Type) llvm.Value { return &llvm.Zero{T: t} }

func (g *gen) convert(e *ir.Convert) value {
	xv := g.expr(e.X)
	x := xv.x
	from, ok := e.X.Type().(*ir.Basic)
	if !ok {
		g.fail("a conversion of a non-scalar")
	}
	to := g.basic(e.T)
	lt := llvm.Like(x.Type(), to)
	b := g.b
	switch {
	case from.Kind == e.T.Kind, ir.IsInteger(from) && ir.IsInteger(e.T):
		return value{x: x, ramp: xv.ramp, step: xv.step}
	case from.Wide64() || e.T.Wide64():
		return g.convertWide(from, e.T, x, lt)
	case e.T.Narrow() && ir.IsInteger(from):
		// Go's conversion to a narrow integer keeps the low bits (the
		// IR's Widen pass leaves no other conversion to one).
		return value{x: b.Cast(llvm.Trunc, x, lt)}
	case from.Narrow() && ir.IsInteger(e.T) && from.Signed():
		return value{x: b.Cast(llvm.SExt, x, lt)}
	case from.Narrow() && ir.IsInteger(e.T):
		return value{x: b.Cast(llvm.ZExt, x, lt)}
	case from.Kind == ir.F32 && g.t.GOARCH == "arm64" && (e.T.Kind == ir.I32 || e.T.Kind == ir.U32):
		// arm64 Go converts with FCVTZS, which saturates and gives 0 for
		// NaN, as fptosi.sat does: to int32 directly, to uint32 through
		// int64, keeping the low word.
		wide := lt
		if e.T.Kind == ir.U32 {
			wide = llvm.Like(x.Type(), llvm.I64)
		}
		r := g.intrinsic("llvm.fptosi.sat."+suffix(wide)+"."+suffix(x.Type()), wide, x)
		if e.T.Kind == ir.U32 {
			r = b.Cast(llvm.Trunc, r, lt)
		}
		return value{x: r}
	case from.Kind == ir.F32 && e.T.Kind == ir.I32:
		// Go leaves an out-of-range conversion to the implementation; the
		// reference runs where this code runs, on amd64, whose CVTTSS2SI
		// gives the integer indefinite (MinInt32) for NaN and values out of
		// range. fptosi of those is poison, which the select discards.
		in := b.And(b.FCmp(llvm.OGE, x, fconstLike(x, -1<<31)), b.FCmp(llvm.OLT, x, fconstLike(x, 1<<31)))
		return value{x: b.Select(in, b.Cast(llvm.FPToSI, x, lt), constLike(x, math.MinInt32))}
	case from.Kind == ir.F32 && e.T.Kind == ir.U32:
		// amd64 Go converts to int64 (CVTTSS2SQ) and keeps the low word:
		// out of int64's range or NaN, that of the indefinite 1<<63, 0.
		wide := llvm.Like(x.Type(), llvm.I64)
		in := b.And(b.FCmp(llvm.OGE, x, fconstLike(x, -1<<63)), b.FCmp(llvm.OLT, x, fconstLike(x, 1<<63)))
		return value{x: b.Cast(llvm.Trunc, b.Select(in, b.Cast(llvm.FPToSI, x, wide), &llvm.Zero{T: wide}), lt)}
	case from.Kind == ir.I32 && e.T.Kind == ir.F32:
		return value{x: b.Cast(llvm.SIToFP, x, lt)}
	case from.Kind == ir.U32 && e.T.Kind == ir.F32:
		return value{x: b.Cast(llvm.UIToFP, x, lt)}
	}
	g.fail("a conversion from %v to %v", from, e.T)
	return value{}
}
