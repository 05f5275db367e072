package llvmgen

// This file lowers the thread queries and the math functions, with the
// semantics of xpu's math.go: Min, Max, Abs and Clamp as its comparisons
// define them (NaN and -0 included), Round to even, Fma and the
// transcendental functions computed in double precision and rounded, as
// the reference computes them with Go's math package. On the host, exp
// and tanh are float32 IR of the lanes' shape (floatmath.go), the other
// transcendental functions calls of the C library's libm, lane by lane;
// on a GPU all are float32 IR (threadmath.go).

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
)

// libm names the double-precision C functions of the transcendentals the
// host computes by calls.
var libm = map[ir.Builtin]string{
	ir.Exp2: "exp2", ir.Log: "log", ir.Log2: "log2", ir.Pow: "pow",
	ir.Sin: "sin", ir.Cos: "cos", ir.Tan: "tan",
}

// exact names the intrinsics whose float32 result is the reference's
// (correctly rounded in either precision).
var exact = map[ir.Builtin]string{
	ir.Sqrt: "llvm.sqrt", ir.Floor: "llvm.floor", ir.Ceil: "llvm.ceil", ir.Trunc: "llvm.trunc", ir.Round: "llvm.roundeven",
}

func (g *gen) builtin(e *ir.CallBuiltin) value {
	b := g.b
	switch e.Fn {
	case ir.LocalX, ir.LocalY, ir.LocalZ:
		return g.local[e.Fn-ir.LocalX]
	case ir.LocalIndex:
		return g.local[3]
	case ir.GlobalX, ir.GlobalY, ir.GlobalZ:
		d := e.Fn - ir.GlobalX
		base := b.Mul(g.group[d], i32(int64(g.k.Block[d])))
		l := g.local[d]
		x, y := g.widen(base, l.x)
		v := value{x: b.Add(x, y)}
		if l.ramp != nil {
			v.ramp, v.step = b.Add(base, l.ramp), l.step
		}
		return v
	case ir.GroupX, ir.GroupY, ir.GroupZ:
		return value{x: g.group[e.Fn-ir.GroupX]}
	case ir.NumGroupsX, ir.NumGroupsY, ir.NumGroupsZ:
		return value{x: g.groups[e.Fn-ir.NumGroupsX]}
	case ir.BlockX, ir.BlockY, ir.BlockZ:
		return value{x: i32(int64(g.k.Block[e.Fn-ir.BlockX]))}
	case ir.WaveWidth:
		return value{x: i32(int64(g.waveWidth()))}
	case ir.LaneIndex:
		if g.simt() {
			return value{x: g.threadInWave()}
		}
		switch ww := g.waveWidth(); {
		case ww < g.W:
			return value{x: b.Bin(llvm.URem, g.lanes(), constLike(g.lanes(), int64(ww)), llvm.Flags{})}
		case ww > g.W:
			// A wave spans chunks: the chunk's first lane's place in it, plus the lane.
			r := b.Bin(llvm.URem, g.chunkBase, i32(int64(ww)), llvm.Flags{})
			return rampOf(b.Add(g.splat(r), g.lanes()), r)
		}
		return rampOf(g.lanes(), i32(0))
	}
	args := make([]llvm.Value, len(e.Args))
	vec := false
	for i, a := range e.Args {
		args[i] = g.expr(a).x
		vec = vec || isVec(args[i])
	}
	if vec {
		for i := range args {
			args[i] = g.splat(args[i])
		}
	}
	if e.Fn.IsBits() {
		return value{x: g.bits(e.Fn, args)}
	}
	if e.Fn == ir.Rsqrt {
		// Two roundings, as the reference: the square root, then 1/it.
		s := g.intrinsic("llvm.sqrt."+suffix(args[0].Type()), args[0].Type(), args[0])
		return value{x: b.Bin(llvm.FDiv, floatLike(s, 1), s, llvm.Flags{})}
	}
	if name, ok := exact[e.Fn]; ok {
		return value{x: g.intrinsic(name+"."+suffix(args[0].Type()), args[0].Type(), args[0])}
	}
	_, called := libm[e.Fn]
	switch {
	case (called || e.Fn == ir.Exp || e.Fn == ir.Tanh) && g.simt():
		return value{x: g.gpuMath(e.Fn, args)}
	case e.Fn == ir.Exp:
		return value{x: g.hostExp(args[0])}
	case e.Fn == ir.Tanh:
		return value{x: g.tanh(args[0])}
	case called:
		return value{x: g.libmCall(libm[e.Fn], args)}
	}
	float, signed := ir.IsKind(e.T, ir.F32), ir.IsKind(e.T, ir.I32)
	less := func(x, y llvm.Value) llvm.Value { return g.less(e.T, x, y) }
	minimum := func(x, y llvm.Value) llvm.Value { return b.Select(less(y, x), y, x) }
	maximum := func(x, y llvm.Value) llvm.Value { return b.Select(less(x, y), y, x) }
	switch e.Fn {
	case ir.Abs:
		x := args[0]
		switch {
		case float:
			return value{x: b.Select(less(x, zeroLike(x)), b.FNeg(x), x)}
		case signed:
			return value{x: b.Select(less(x, zeroLike(x)), b.Sub(zeroLike(x), x), x)}
		}
		return value{x: x}
	case ir.Min:
		return value{x: minimum(args[0], args[1])}
	case ir.Max:
		return value{x: maximum(args[0], args[1])}
	case ir.Clamp:
		return value{x: minimum(maximum(args[0], args[1]), args[2])}
	case ir.Fma:
		dt := llvm.Like(args[0].Type(), llvm.F64)
		d := make([]llvm.Value, 3)
		for i, a := range args {
			d[i] = b.Cast(llvm.FPExt, a, dt)
		}
		r := g.intrinsic("llvm.fma."+suffix(dt), dt, d...)
		return value{x: b.Cast(llvm.FPTrunc, r, args[0].Type())}
	}
	g.fail("the builtin %v", e.Fn)
	return value{}
}

// libmCall computes the float32 function name of the C library in double
// precision, lane by lane for vectors.
func (g *gen) libmCall(name string, args []llvm.Value) llvm.Value {
	b := g.b
	ts := make([]llvm.Type, len(args))
	for i := range ts {
		ts[i] = llvm.F64
	}
	g.m.Declare(name, llvm.F64, ts...)
	one := func(xs []llvm.Value) llvm.Value {
		d := make([]llvm.Value, len(xs))
		for i, x := range xs {
			d[i] = b.Cast(llvm.FPExt, x, llvm.F64)
		}
		return b.Cast(llvm.FPTrunc, b.Call(llvm.F64, name, d...), llvm.F32)
	}
	if !isVec(args[0]) {
		return one(args)
	}
	var out llvm.Value = &llvm.Poison{T: g.vec(llvm.F32)}
	for l := range g.W {
		xs := make([]llvm.Value, len(args))
		for i, a := range args {
			xs[i] = b.ExtractElement(a, i32(int64(l)))
		}
		out = b.InsertElement(out, one(xs), i32(int64(l)))
	}
	return out
}

// less is x < y for values of the IR type t, as Go compares them: ordered
// for floats (false with a NaN), signed for int32, unsigned otherwise.
func (g *gen) less(t ir.Type, x, y llvm.Value) llvm.Value {
	switch {
	case ir.IsKind(t, ir.F32):
		return g.b.FCmp(llvm.OLT, x, y)
	case ir.IsKind(t, ir.I32):
		return g.b.ICmp(llvm.SLT, x, y)
	}
	return g.b.ICmp(llvm.ULT, x, y)
}
