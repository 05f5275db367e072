package wgslgen

// This file decides which of the kernel body's barriers fence storage
// (storageBarrier before workgroupBarrier): those that order accesses to
// writable buffers, made by the block's work-items on both sides of them.

import (
	"github.com/goxpu/xpu/codegen/ir"

	"github.com/goxpu/xpu/schema"
)

// fencePoint is a barrier or an access to a writable buffer, in the order
// of the kernel's text, with the loops around it.
type fencePoint struct {
	barrier *ir.Barrier // nil for an access
	loops   []*ir.Loop
}

// storageFences returns the barriers of k's body that must fence storage
// as well as workgroup memory: those with an access to a writable buffer
// that may run before them and one that may run after them. An access
// runs before a barrier when it comes first in the text or shares a loop
// with it, and after it when it comes later or shares a loop. Read-only
// buffers need no fence: nothing writes them during a dispatch, and
// WebGPU refuses to bind one buffer both read-only and writable in one
// dispatch. Barriers in device functions are not decided here; they
// fence storage whenever the kernel writes a buffer.
func storageFences(k *ir.Kernel) map[*ir.Barrier]bool {
	writable := map[*ir.Param]bool{}
	for _, p := range k.Params {
		if p.Kind == ir.BufferParam && p.Access != schema.AccessRead && p.Access != schema.AccessNone {
			writable[p] = true
		}
	}
	calls := funcAccesses(k, writable)
	accesses := func(x ir.Expr) bool {
		found := false
		ir.WalkExpr(x, func(e ir.Expr) bool {
			switch e := e.(type) {
			case *ir.BufferRef:
				found = found || writable[e.Param]
			case *ir.Call:
				found = found || calls[e.Func]
			}
			return !found
		})
		return found
	}
	var points []fencePoint
	var walk func(b *ir.Block, loops []*ir.Loop)
	stmt := func(s ir.Stmt, loops []*ir.Loop) {
		if b, ok := s.(*ir.Barrier); ok {
			points = append(points, fencePoint{barrier: b, loops: loops})
			return
		}
		for _, x := range ir.StmtExprs(s) {
			if accesses(x) {
				points = append(points, fencePoint{loops: loops})
				break
			}
		}
	}
	walk = func(b *ir.Block, loops []*ir.Loop) {
		if b == nil {
			return
		}
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ir.Block:
				walk(s, loops)
			case *ir.If:
				stmt(s, loops)
				walk(s.Then, loops)
				walk(s.Else, loops)
			case *ir.Loop:
				inner := append(loops[:len(loops):len(loops)], s)
				stmt(s, inner)
				walk(s.Body, inner)
				walk(s.Post, inner)
			default:
				stmt(s, loops)
			}
		}
	}
	walk(k.Body, nil)

	fences := map[*ir.Barrier]bool{}
	for i, b := range points {
		if b.barrier == nil {
			continue
		}
		var before, after bool
		for j, a := range points {
			if a.barrier != nil || j == i {
				continue
			}
			shared := shareLoop(a.loops, b.loops)
			before = before || j < i || shared
			after = after || j > i || shared
		}
		fences[b.barrier] = before && after
	}
	return fences
}

// shareLoop reports whether two chains of enclosing loops, outermost
// first, have a loop in common.
func shareLoop(a, b []*ir.Loop) bool {
	return len(a) > 0 && len(b) > 0 && a[0] == b[0]
}

// funcAccesses returns the device functions of k that access a writable
// buffer, directly or through a callee (k.Funcs lists callees first).
func funcAccesses(k *ir.Kernel, writable map[*ir.Param]bool) map[*ir.Func]bool {
	calls := map[*ir.Func]bool{}
	for _, f := range k.Funcs {
		ir.WalkStmts(f.Body, func(s ir.Stmt) bool {
			for _, x := range ir.StmtExprs(s) {
				ir.WalkExpr(x, func(e ir.Expr) bool {
					switch e := e.(type) {
					case *ir.BufferRef:
						calls[f] = calls[f] || writable[e.Param]
					case *ir.Call:
						calls[f] = calls[f] || calls[e.Func]
					}
					return !calls[f]
				})
			}
			return !calls[f]
		})
	}
	return calls
}
