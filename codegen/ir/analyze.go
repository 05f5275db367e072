package ir

// This file is the entry point of the analyses every lowering shares:
// buffer and shared access modes, which device functions reach a barrier,
// and uniformity (flow.go), with the barrier rule that rests on it.

import (
	"fmt"
	"strings"

	"github.com/goxpu/xpu/schema"
)

// BarrierError is a barrier reached in control flow that is not
// workgroup-uniform: a Barrier statement, a wave verb, where the lanes
// of a wave meet (Verb is then its name), or a call of a device function
// that reaches either (Func is then its name, and Verb that of the verb
// it reaches, if any). Cause says what made the flow non-uniform, when
// the analysis knows.
type BarrierError struct {
	Pos   Pos
	Func  string
	Verb  string
	Cause *Cause
}

func (e *BarrierError) Error() string {
	var s string
	switch {
	case e.Verb != "" && e.Func != "":
		s = fmt.Sprintf("%v: call of %s, which reaches wave verb %s, in non-uniform control flow", e.Pos, e.Func, e.Verb)
	case e.Verb != "":
		s = fmt.Sprintf("%v: wave verb %s in non-uniform control flow", e.Pos, e.Verb)
	case e.Func != "":
		s = fmt.Sprintf("%v: call of %s, which reaches a barrier, in non-uniform control flow", e.Pos, e.Func)
	default:
		s = fmt.Sprintf("%v: barrier in non-uniform control flow", e.Pos)
	}
	if e.Cause != nil {
		s += ": " + e.Cause.String()
	}
	return s
}

// Cause is what made control flow non-uniform: a statement or condition
// of the kernel's code.
type Cause struct {
	Pos  Pos
	What CauseKind
}

// CauseKind enumerates the causes of non-uniform control flow.
type CauseKind int

const (
	CauseCondition     CauseKind = iota // an if condition that depends on the work-item
	CauseLoopCondition                  // a loop condition that depends on the work-item
	CauseReturn                         // a return that only some work-items reach
	CauseBreak                          // a break that only some work-items take
	CauseContinue                       // a continue that only some work-items take
	CauseArguments                      // arguments of a call that depend on the work-item
	CauseOperand                        // the left operand of && or || that depends on the work-item (no Pos: expressions have none)
)

func (c *Cause) String() string {
	switch c.What {
	case CauseCondition:
		return fmt.Sprintf("the if condition at %v depends on the work-item", c.Pos)
	case CauseLoopCondition:
		return fmt.Sprintf("the loop condition at %v depends on the work-item", c.Pos)
	case CauseReturn:
		return fmt.Sprintf("the return at %v is under a condition that depends on the work-item, so only some work-items go on", c.Pos)
	case CauseBreak:
		return fmt.Sprintf("the break at %v is under a condition that depends on the work-item, so only some work-items leave the loop", c.Pos)
	case CauseOperand:
		return "it is the right operand of an && or || whose left operand depends on the work-item, so only some work-items evaluate it"
	case CauseContinue:
		return fmt.Sprintf("the continue at %v is under a condition that depends on the work-item, so only some work-items skip the rest of the loop", c.Pos)
	}
	return "its arguments depend on the work-item, and the function's control flow depends on them"
}

// BarrierErrors is every BarrierError of a kernel, in the order found.
type BarrierErrors []*BarrierError

func (l BarrierErrors) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (l BarrierErrors) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// Analyze runs the shared analyses on k: it fills Param.Access,
// Param.AtomicElem, Shared.Access, Shared.AtomicElem, Func.Barrier,
// Func.Wave and k.Uniform. It returns BarrierErrors when a barrier, or a call of a
// function that reaches one, sits in non-uniform control flow (or a
// function with a barrier is called with non-uniform arguments that its
// control flow depends on). Analyze may be run again on the same kernel.
func Analyze(k *Kernel) error {
	accesses(k)
	barriers(k)
	waves(k)
	errs := uniformity(k)
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// accesses computes the access mode of every buffer and shared array.
func accesses(k *Kernel) {
	for _, p := range k.Params {
		p.Access, p.AtomicElem = schema.AccessNone, nil
	}
	for _, s := range k.Shared {
		s.Access, s.AtomicElem = schema.AccessNone, nil
	}
	visit := func(b *Block) {
		WalkStmts(b, func(s Stmt) bool {
			if a, ok := s.(*Assign); ok {
				markPlace(a.Dst, schema.AccessWrite)
				readsOfPlace(a.Dst)
				markReads(a.Value)
				return true
			}
			for _, x := range StmtExprs(s) {
				markReads(x)
			}
			return true
		})
	}
	visit(k.Body)
	for _, f := range k.Funcs {
		visit(f.Body)
	}
}

// markReads marks the buffers and shared arrays x loads from, and the
// targets of its atomics.
func markReads(x Expr) {
	WalkExpr(x, func(e Expr) bool {
		switch e := e.(type) {
		case *Index:
			markMemory(e.X, schema.AccessRead)
		case *Atomic:
			elem := e.Ptr.Type()
			if IsKind(elem, F32) {
				elem = U32Type
			}
			markPlace(e.Ptr, schema.AccessAtomic)
			setAtomicElem(e.Ptr, elem)
			readsOfPlace(e.Ptr)
			for _, a := range e.Args {
				markReads(a)
			}
			return false
		}
		return true
	})
}

// readsOfPlace marks the loads of the index operands of a place.
func readsOfPlace(x Expr) {
	for {
		switch e := x.(type) {
		case *Index:
			markReads(e.Index)
			x = e.X
		case *FieldOf:
			x = e.X
		default:
			return
		}
	}
}

// placeRoot returns the variable, buffer or shared array a place is in.
func placeRoot(x Expr) Expr {
	for {
		switch e := x.(type) {
		case *Index:
			x = e.X
		case *FieldOf:
			x = e.X
		default:
			return x
		}
	}
}

// markPlace adds a to the access mode of the memory a place is in.
func markPlace(x Expr, a schema.Access) { markMemory(placeRoot(x), a) }

// setAtomicElem records the element type an atomic sees.
func setAtomicElem(x Expr, t Type) {
	switch r := placeRoot(x).(type) {
	case *BufferRef:
		if r.Param.AtomicElem == nil {
			r.Param.AtomicElem = t
		}
	case *SharedRef:
		if r.Shared.AtomicElem == nil {
			r.Shared.AtomicElem = t
		}
	}
}

// markMemory adds a to the access mode of a BufferRef or SharedRef.
func markMemory(x Expr, a schema.Access) {
	switch r := x.(type) {
	case *BufferRef:
		r.Param.Access = join(r.Param.Access, a)
	case *SharedRef:
		r.Shared.Access = join(r.Shared.Access, a)
	}
}

// join combines two access modes.
func join(a, b schema.Access) schema.Access {
	switch {
	case a == schema.AccessAtomic || b == schema.AccessAtomic:
		return schema.AccessAtomic
	case a == schema.AccessNone:
		return b
	case b == schema.AccessNone || a == b:
		return a
	}
	return schema.AccessReadWrite
}

// barriers sets Func.Barrier for every device function of k.
func barriers(k *Kernel) {
	done := make(map[*Func]bool)
	var has func(f *Func) bool
	has = func(f *Func) bool {
		if done[f] {
			return f.Barrier
		}
		done[f] = true // a cycle (which the front end refuses) ends here
		f.Barrier = blockHasBarrier(f.Body, has)
		return f.Barrier
	}
	for _, f := range k.Funcs {
		has(f)
	}
}

// blockHasBarrier reports whether b reaches a barrier, directly or
// through a call for which has reports true.
func blockHasBarrier(b *Block, has func(*Func) bool) bool {
	found := false
	WalkStmts(b, func(s Stmt) bool {
		if _, ok := s.(*Barrier); ok {
			found = true
		}
		for _, x := range StmtExprs(s) {
			WalkExpr(x, func(e Expr) bool {
				if c, ok := e.(*Call); ok && has(c.Func) {
					found = true
				}
				return true
			})
		}
		return !found
	})
	return found
}
