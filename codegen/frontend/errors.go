package frontend

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
)

// Error is one refusal: the position of the offending construct, the rule
// it breaks, what is wrong, and a sentence on how to fix it.
type Error struct {
	Pos  ir.Pos
	Rule string
	Msg  string
	Fix  string
}

// Error formats e as file:line:col: [rule] msg; fix.
func (e *Error) Error() string {
	s := fmt.Sprintf("%v: [%s] %s", e.Pos, e.Rule, e.Msg)
	if e.Fix != "" {
		s += "; " + e.Fix
	}
	return s
}

// ErrorList is every refusal of one Check, sorted by position.
type ErrorList []*Error

// Error returns the errors one per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// sortErrors orders errors by position and drops duplicates (a device
// function's refusal is found once per kernel that calls it).
func sortErrors(errs []*Error) ErrorList {
	slices.SortStableFunc(errs, func(a, b *Error) int {
		return cmp.Or(
			cmp.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Msg, b.Msg))
	})
	return ErrorList(slices.CompactFunc(errs, func(a, b *Error) bool { return *a == *b }))
}
