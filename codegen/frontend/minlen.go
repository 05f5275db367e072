package frontend

// This file applies the len(buffer)=a*b arguments of //xpu:kernel.

import (
	"slices"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
)

// minLens records each len(buffer)=a*b bound of ds on k's buffer
// parameter, refusing a bound that names no buffer, a factor that is no
// uint32 or int32 scalar, or a buffer bounded twice.
func (c *checker) minLens(k *ir.Kernel, ds []minLenDirective) {
	for _, d := range ds {
		buf := paramNamed(k, d.buffer)
		bound := strings.Join(d.factors, "*")
		switch {
		case buf == nil || buf.Kind != ir.BufferParam:
			c.errorf(d.pos, RuleDirective, "len(%s): %s is no buffer parameter of %s", d.buffer, d.buffer, k.Name)
		case buf.MinLen != nil:
			c.errorf(d.pos, RuleDirective, "len(%s) is bounded twice", d.buffer)
		default:
			if bad := badFactor(k, d.factors); bad != "" {
				c.errorf(d.pos, RuleDirective, "len(%s)=%s: %s is no uint32 or int32 scalar parameter of %s", d.buffer, bound, bad, k.Name)
				continue
			}
			buf.MinLen = slices.Clone(d.factors) // each template member its own
		}
	}
}

// badFactor returns the first of factors that names no uint32 or int32
// scalar parameter of k, or "" when each does.
func badFactor(k *ir.Kernel, factors []string) string {
	for _, f := range factors {
		p := paramNamed(k, f)
		if p == nil || p.Kind != ir.ScalarParam || (p.Type != ir.U32Type && p.Type != ir.I32Type) {
			return f
		}
	}
	return ""
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
