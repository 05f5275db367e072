package llvmgen

// This file lowers the bit functions of math/bits to LLVM's intrinsics,
// which every target (host, PTX, HSACO) selects to its own instructions.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
)

// bitsIntrinsics names the intrinsics of the one-operand bit functions.
var bitsIntrinsics = map[ir.Builtin]string{
	ir.OnesCount32: "llvm.ctpop", ir.Reverse32: "llvm.bitreverse", ir.ReverseBytes32: "llvm.bswap",
}

// bits lowers a bit function of i32 operands (scalars or lanes).
func (g *gen) bits(fn ir.Builtin, args []llvm.Value) llvm.Value {
	b := g.b
	x := args[0]
	t := x.Type()
	if name, ok := bitsIntrinsics[fn]; ok {
		return g.intrinsic(name+"."+suffix(t), t, x)
	}
	// ctlz and cttz of 0 are 32 with the flag false, as Go's counts.
	zeroDefined := llvm.ConstInt(llvm.I1, 0)
	switch fn {
	case ir.LeadingZeros32:
		return g.intrinsic("llvm.ctlz."+suffix(t), t, x, zeroDefined)
	case ir.TrailingZeros32:
		return g.intrinsic("llvm.cttz."+suffix(t), t, x, zeroDefined)
	case ir.Len32:
		return b.Sub(constLike(x, 32), g.intrinsic("llvm.ctlz."+suffix(t), t, x, zeroDefined))
	case ir.RotateLeft32:
		// fshl takes the count modulo 32, a negative one as its bits.
		return g.intrinsic("llvm.fshl."+suffix(t), t, x, x, args[1])
	case ir.MulHi32:
		wide := llvm.Like(t, llvm.I64)
		p := b.Mul(b.Cast(llvm.ZExt, x, wide), b.Cast(llvm.ZExt, args[1], wide))
		sh := llvm.Value(i64(32))
		if n := llvm.Lanes(t); n > 0 {
			sh = &llvm.Splat{Len: n, X: i64(32)}
		}
		return b.Cast(llvm.Trunc, b.Bin(llvm.LShr, p, sh, llvm.Flags{}), t)
	}
	g.fail("the bit function %v", fn)
	return x
}

// floatLike returns the float32 v, of x's shape.
func floatLike(x llvm.Value, v float32) llvm.Value {
	if n := llvm.Lanes(x.Type()); n > 0 {
		return &llvm.Splat{Len: n, X: llvm.ConstF32(v)}
	}
	return llvm.ConstF32(v)
}
