package llvmgen

// This file lowers atomics: one real atomic per active lane, in lane
// order (other blocks run on other threads), on a buffer or a shared
// array alike.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
)

var rmwOps = map[ir.AtomicOp][2]llvm.RMWOp{ // signed, unsigned
	ir.AtomicAdd:        {llvm.RMWAdd, llvm.RMWAdd},
	ir.AtomicSub:        {llvm.RMWSub, llvm.RMWSub},
	ir.AtomicAnd:        {llvm.RMWAnd, llvm.RMWAnd},
	ir.AtomicOr:         {llvm.RMWOr, llvm.RMWOr},
	ir.AtomicXor:        {llvm.RMWXor, llvm.RMWXor},
	ir.AtomicExchange:   {llvm.RMWXchg, llvm.RMWXchg},
	ir.AtomicMin:        {llvm.RMWMin, llvm.RMWUMin},
	ir.AtomicMax:        {llvm.RMWMax, llvm.RMWUMax},
	ir.AtomicAddFloat32: {llvm.RMWFAdd, llvm.RMWFAdd},
}

func (g *gen) atomic(e *ir.Atomic) value {
	p := g.placeOf(e.Ptr)
	if p.mem == nil {
		g.fail("an atomic on a place that is not a buffer or shared element")
	}
	r := p.mem
	if _, ok := r.elem.(*ir.Basic); !ok {
		g.fail("an atomic on a struct element")
	}
	args := make([]llvm.Value, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.expr(a).x
	}
	g.checkIndex(r.idx, r.n, r.signed, r.object)
	t := g.memType(r.elem)
	b := g.b
	var rt llvm.Type
	if e.Op != ir.AtomicStore {
		rt = t
	}
	signed := ir.IsKind(r.elem, ir.I32)
	out := g.perLane(g.mask(), rt, func(lane llvm.Value) llvm.Value {
		ptr := g.laneAddr(r, lane)
		a := make([]llvm.Value, len(args))
		for i, x := range args {
			a[i] = g.pick(x, lane)
		}
		switch e.Op {
		case ir.AtomicLoad:
			if g.t.Arch == ArchNVPTX {
				// LLVM 19's NVPTX selects no ordered atomic load or
				// store, nor a fence: membar.gl (fence.sc.gpu) around a
				// relaxed one orders it as seq_cst would.
				g.intrinsic("llvm.nvvm.membar.gl", llvm.Void)
				x := b.AtomicLoad(t, ptr, llvm.Monotonic, 4)
				g.intrinsic("llvm.nvvm.membar.gl", llvm.Void)
				return x
			}
			return b.AtomicLoad(t, ptr, llvm.SeqCst, 4)
		case ir.AtomicStore:
			if g.t.Arch == ArchNVPTX {
				g.intrinsic("llvm.nvvm.membar.gl", llvm.Void)
				b.AtomicStore(a[0], ptr, llvm.Monotonic, 4)
				g.intrinsic("llvm.nvvm.membar.gl", llvm.Void)
				return nil
			}
			b.AtomicStore(a[0], ptr, llvm.SeqCst, 4)
			return nil
		case ir.AtomicCompareExchange:
			return b.CmpXchg(ptr, a[0], a[1], llvm.SeqCst, llvm.SeqCst, 4)
		}
		ops, ok := rmwOps[e.Op]
		if !ok {
			g.fail("the atomic %v", e.Op)
		}
		op := ops[1]
		if signed {
			op = ops[0]
		}
		return b.AtomicRMW(op, ptr, a[0], llvm.SeqCst, 4)
	})
	return value{x: out}
}
