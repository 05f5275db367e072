package frontend

// This file applies the len(buffer)=scalar arguments of //xpu:kernel.

import "github.com/goxpu/xpu/codegen/ir"

// minLens records each len(buffer)=scalar bound of ds on k's buffer
// parameter, refusing a bound that names no buffer, no uint32 or int32
// scalar, or a buffer bounded twice.
func (c *checker) minLens(k *ir.Kernel, ds []minLenDirective) {
	for _, d := range ds {
		buf, scalar := paramNamed(k, d.buffer), paramNamed(k, d.scalar)
		switch {
		case buf == nil || buf.Kind != ir.BufferParam:
			c.errorf(d.pos, RuleDirective, "len(%s): %s is no buffer parameter of %s", d.buffer, d.buffer, k.Name)
		case scalar == nil || scalar.Kind != ir.ScalarParam || (scalar.Type != ir.U32Type && scalar.Type != ir.I32Type):
			c.errorf(d.pos, RuleDirective, "len(%s)=%s: %s is no uint32 or int32 scalar parameter of %s", d.buffer, d.scalar, d.scalar, k.Name)
		case buf.MinLen != "":
			c.errorf(d.pos, RuleDirective, "len(%s) is bounded twice", d.buffer)
		default:
			buf.MinLen = d.scalar
		}
	}
}

// paramNamed returns k's parameter named name, or nil.
func paramNamed(k *ir.Kernel, name string) *ir.Param {
	for _, p := range k.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}
