package llvmgen

// This file writes a GPU's entry (ArchNVPTX, ArchAMDGCN): a thread runs
// one work-item, so every value is a scalar and all control flow is
// branches, as the uniformity analysis would have it for one lane.
// Barriers are the GPU's own, shared arrays its static shared memory,
// zeroed by the block before the body runs (the reference gives every
// block zeroed arrays). The parameters are those of schema/ptx.go (the
// same for HSACO, schema/hsaco.go); a fault sets its bit of the fault
// word and ends the thread.

import (
	"strconv"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

// The address spaces of the GPU targets: generic is 0 on both.
const (
	spaceGlobal      = 1
	spaceShared      = 3
	spaceAMDConstant = 4 // the dispatch packet
	spaceAMDPrivate  = 5 // the stack
)

// kernelThread writes the entry of a GPU target.
func (g *gen) kernelThread() {
	k := g.k
	var params []*llvm.Param
	type bufParams struct{ addr, bytes *llvm.Param }
	bufs := map[*ir.Param]bufParams{}
	scalars := false
	for _, p := range k.Params {
		switch p.Kind {
		case ir.BufferParam:
			bp := bufParams{llvm.NewParam(p.Name+".addr", llvm.I64), llvm.NewParam(p.Name+".bytes", llvm.I64)}
			bufs[p] = bp
			params = append(params, bp.addr, bp.bytes)
		case ir.ScalarParam:
			scalars = true
		}
	}
	var uniforms *llvm.Param
	if scalars {
		uniforms = llvm.NewParam("uniforms", llvm.I64)
		params = append(params, uniforms)
	}
	fault := llvm.NewParam("fault", llvm.I64)
	params = append(params, fault)

	attrs := []llvm.Attr{
		{Key: "nounwind"},
		{Key: "target-cpu", Value: g.t.CPU, Quoted: true},
		{Key: "target-features", Value: g.t.Features, Quoted: true},
	}
	count := int64(k.Block[0]) * int64(k.Block[1]) * int64(k.Block[2])
	f := g.m.NewFunc(Symbol(k), llvm.Void, params...)
	switch g.t.Arch {
	case ArchNVPTX:
		f.CC = "ptx_kernel"
	case ArchAMDGCN:
		f.CC = "amdgpu_kernel"
		n := strconv.FormatInt(count, 10)
		attrs = append(attrs, llvm.Attr{Key: "amdgpu-flat-work-group-size", Value: n + "," + n, Quoted: true},
			llvm.Attr{Key: "uniform-work-group-size", Value: "true", Quoted: true})
	}
	f.AttrGroup = g.m.AddAttrGroup(llvm.AttrGroup{Attrs: attrs})
	b := llvm.NewBuilder(f)
	if g.t.Arch == ArchAMDGCN {
		b.AllocaSpace = spaceAMDPrivate
	}
	g.b = b

	for i, p := range k.Params {
		if p.Kind != ir.BufferParam {
			continue
		}
		bp := bufs[p]
		n := b.Bin(llvm.UDiv, bp.bytes.Local, i64(int64(p.Type.Size())), llvm.Flags{})
		g.buffers[p] = &buffer{index: i, base: g.globalPtr(bp.addr.Local), len: n, bound: g.bufferBound(n)}
	}
	if uniforms != nil {
		u := g.globalPtr(uniforms.Local)
		for _, p := range k.Params {
			if p.Kind != ir.ScalarParam {
				continue
			}
			at := g.byteAt(u, int64(p.Binding))
			if ir.IsKind(p.Type, ir.Bool) {
				g.scalars[p] = b.ICmp(llvm.NE, b.Load(llvm.I8, at, 1), &llvm.Int{T: llvm.I8})
				continue
			}
			v := b.Load(llvm.I32, at, 4)
			if ir.IsKind(p.Type, ir.F32) {
				v = b.Cast(llvm.Bitcast, v, llvm.F32)
			}
			g.scalars[p] = v
		}
	}
	g.faultPtr = g.globalPtr(fault.Local)

	g.threadIDs()
	g.waveScratch()
	g.sharedArrays()

	exit := b.NewBlock("exit")
	g.ret = &retFrame{kernel: true, exit: exit}
	g.flow = true
	g.block(k.Body)
	if !b.Block.Terminated() {
		b.Br(exit)
	}
	b.SetBlock(exit)
	b.Ret(nil)
}

// globalPtr returns the generic pointer of the global memory at the
// device address a (i64): through the global space, so that LLVM's
// address-space inference makes its accesses global ones.
func (g *gen) globalPtr(a llvm.Value) llvm.Value {
	p := g.b.Cast(llvm.IntToPtr, a, llvm.PtrIn(spaceGlobal))
	return g.b.Cast(llvm.AddrSpaceCast, p, llvm.Ptr)
}

// threadIDs reads the thread's coordinates: its block's, the grid's
// size in blocks, and its own in the block, with its linear index.
func (g *gen) threadIDs() {
	k := g.k
	b := g.b
	axes := [3]string{"x", "y", "z"}
	var local [3]llvm.Value
	switch g.t.Arch {
	case ArchNVPTX:
		sreg := func(name string) llvm.Value { return g.intrinsic("llvm.nvvm.read.ptx.sreg."+name, llvm.I32) }
		for d, a := range axes {
			g.group[d] = sreg("ctaid." + a)
			g.groups[d] = sreg("nctaid." + a)
			local[d] = sreg("tid." + a)
		}
	case ArchAMDGCN:
		// The grid's size is the dispatch packet's, in work-items
		// (hsa_kernel_dispatch_packet_t: grid_size_x at byte 12).
		packet := g.intrinsic("llvm.amdgcn.dispatch.ptr", llvm.PtrIn(spaceAMDConstant))
		for d, a := range axes {
			g.group[d] = g.intrinsic("llvm.amdgcn.workgroup.id."+a, llvm.I32)
			size := b.Load(llvm.I32, b.GEP(llvm.I8, packet, i64(12+4*int64(d))), 4)
			g.groups[d] = b.Bin(llvm.UDiv, size, i32(int64(k.Block[d])), llvm.Flags{})
			local[d] = g.intrinsic("llvm.amdgcn.workitem.id."+a, llvm.I32)
		}
	}
	for d := range 3 {
		if k.Block[d] == 1 {
			local[d] = i32(0)
		}
		g.local[d] = value{x: local[d]}
	}
	bx, by := i32(int64(k.Block[0])), i32(int64(k.Block[1]))
	li := b.Add(local[0], b.Bin(llvm.Mul, bx, b.Add(local[1], b.Bin(llvm.Mul, by, local[2], llvm.Flags{NUW: true})), llvm.Flags{NUW: true}))
	g.local[3] = value{x: li}
}

// sharedArrays makes the kernel's shared arrays, globals of the shared
// space, and zeroes them, the block's threads a word each in turn.
func (g *gen) sharedArrays() {
	if len(g.k.Shared) == 0 {
		return
	}
	b := g.b
	count := int64(g.k.Block[0]) * int64(g.k.Block[1]) * int64(g.k.Block[2])
	for _, s := range g.k.Shared {
		t := &llvm.ArrayType{Len: s.Len, Elem: g.memType(s.Elem)}
		gl := &llvm.Global{Name: "shared." + s.Name, Linkage: llvm.Internal, T: t, Init: &llvm.Poison{T: t}, Align: 16, Space: spaceShared}
		g.m.Globals = append(g.m.Globals, gl)
		p := b.Cast(llvm.AddrSpaceCast, gl.Ref(), llvm.Ptr)
		g.shared[s] = p
		// Elements are 32-bit scalars or structs of them.
		words := int64(llvm.SizeOf(t)) / 4
		pre := b.Block
		head, body, done := b.NewBlock("zero"), b.NewBlock("zero.body"), b.NewBlock("zero.done")
		b.Br(head)
		b.SetBlock(head)
		i, phi := b.Phi(llvm.I32, llvm.Incoming{X: g.local[3].x, From: pre})
		b.CondBr(b.ICmp(llvm.ULT, i, i32(words)), body, done)
		b.SetBlock(body)
		b.Store(i32(0), b.GEP(llvm.I32, p, b.Cast(llvm.ZExt, i, llvm.I64)), 4)
		phi.In = append(phi.In, llvm.Incoming{X: b.Add(i, i32(count)), From: body})
		b.Br(head)
		b.SetBlock(done)
	}
	g.barrier()
}

// barrier is a barrier of the block's threads that orders their
// accesses to memory.
func (g *gen) barrier() {
	b := g.b
	switch g.t.Arch {
	case ArchNVPTX:
		// bar.sync orders the block's memory accesses as well.
		g.intrinsic("llvm.nvvm.barrier0", llvm.Void)
	case ArchAMDGCN:
		b.ScopedFence(llvm.Release, "workgroup")
		g.intrinsic("llvm.amdgcn.s.barrier", llvm.Void)
		b.ScopedFence(llvm.Acquire, "workgroup")
	}
}

// faultBits maps the host's fault codes to the fault word's bits.
var faultBits = map[uint32]uint32{
	schema.HostFaultDivZero:       schema.FaultDivZero,
	schema.HostFaultNegativeShift: schema.FaultNegativeShift,
	schema.HostFaultIndex:         schema.FaultIndex,
}

// threadFault ends the thread when bad (i1) holds, having set the
// fault's bit of the fault word.
func (g *gen) threadFault(bad llvm.Value, code uint32) {
	bit, ok := faultBits[code]
	if !ok {
		g.fail("the fault %d on a GPU", code)
	}
	if c, ok := bad.(*llvm.Int); ok && c.Bits == 0 {
		return
	}
	g.ifThen(bad, "fault", func() {
		g.b.AtomicRMW(llvm.RMWOr, g.faultPtr, i32(int64(bit)), llvm.Monotonic, 4)
		g.b.Ret(nil)
	})
}
