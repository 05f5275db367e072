package ir

import (
	"fmt"
	"sync"
)

// Uniformity is the result of the uniformity analysis (see DESIGN.md): a
// value is workgroup-uniform when it depends only on scalar parameters,
// group coordinates and counts, block sizes, constants and other uniform
// values; control flow is uniform when every condition guarding it is
// uniform and no early Return/Break/Continue under a non-uniform condition
// precedes it. One analysis serves the WGSL barrier rule, the emulated
// wave tier and the CPU lowerings' loop fission (package fission).
type Uniformity struct {
	// Value reports the expressions that are workgroup-uniform.
	Value map[Expr]bool
	// Flow reports the statements that run in workgroup-uniform control flow.
	Flow map[Stmt]bool

	// What Inlined needs: the device functions' summaries, and the
	// analyses it has made.
	summaries map[*Func]*funcSummary
	mu        sync.Mutex
	inlined   map[inlineKey]*Uniformity
}

// inlineKey is a function and which of its parameters are varying.
type inlineKey struct {
	f       *Func
	varying string
}

// Inlined returns the analysis of f's body entered in uniform control
// flow with the parameters marked in varying holding varying values and
// the others uniform: what a lowering that inlines f needs at a call
// whose arguments are not all uniform, where Value and Flow hold f's body
// as analyzed with uniform arguments. A loop whose counter depends only
// on uniform parameters stays uniform in it. Inlined is safe for
// concurrent use; its analyses are made once.
func (u *Uniformity) Inlined(f *Func, varying []bool) *Uniformity {
	key := inlineKey{f, fmt.Sprint(varying)}
	u.mu.Lock()
	defer u.mu.Unlock()
	if r, ok := u.inlined[key]; ok {
		return r
	}
	r := &Uniformity{Value: make(map[Expr]bool), Flow: make(map[Stmt]bool), summaries: u.summaries}
	runFlow(f.Body, f.Params, varying, r, u.summaries)
	if u.inlined == nil {
		u.inlined = make(map[inlineKey]*Uniformity)
	}
	u.inlined[key] = r
	return r
}
