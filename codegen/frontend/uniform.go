package frontend

// This file runs the IR analyses on a lowered kernel and turns the
// barriers and wave verbs they find in non-uniform control flow into
// refusals.

import (
	"errors"

	"github.com/goxpu/xpu/codegen/ir"
)

// analyze runs ir.Analyze on k and reports its barrier errors.
func (c *checker) analyze(k *ir.Kernel) {
	err := ir.Analyze(k)
	if err == nil {
		return
	}
	var list ir.BarrierErrors
	if !errors.As(err, &list) {
		c.errs = append(c.errs, &Error{Pos: k.Pos, Rule: string(RuleUnsupported), Msg: err.Error(), Fix: fixes[RuleUnsupported]})
		return
	}
	for _, b := range list {
		why := ""
		if b.Cause != nil {
			why = ": " + b.Cause.String()
		}
		if b.Verb != "" {
			msg := "xpu." + b.Verb + " in non-uniform control flow"
			if b.Func != "" {
				msg = "call of " + b.Func + ", which reaches xpu." + b.Verb + ", in non-uniform control flow"
			}
			c.errs = append(c.errs, &Error{Pos: b.Pos, Rule: string(RuleWaveNonuniform), Msg: msg + why, Fix: fixes[RuleWaveNonuniform]})
			continue
		}
		msg := "barrier in non-uniform control flow"
		if b.Func != "" {
			msg = "call of " + b.Func + ", which reaches a barrier, in non-uniform control flow"
		}
		c.errs = append(c.errs, &Error{Pos: b.Pos, Rule: string(RuleBarrierNonuniform), Msg: msg + why, Fix: fixes[RuleBarrierNonuniform]})
	}
}
