package llvmgen

// This file writes the entry: it reads the launch (the layout of
// schema.HostLaunch, HostBuffer and HostFault, taken from the Go types),
// runs the blocks of its range, each block's work-items in chunks of W
// lanes, and reports faults.

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/ir/fission"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

var (
	launchGroups   = int64(unsafe.Offsetof(schema.HostLaunch{}.Groups))
	launchUniforms = int64(unsafe.Offsetof(schema.HostLaunch{}.Uniforms))
	launchBuffers  = int64(unsafe.Offsetof(schema.HostLaunch{}.Buffers))
	launchStop     = int64(unsafe.Offsetof(schema.HostLaunch{}.Stop))
	launchFault    = int64(unsafe.Offsetof(schema.HostLaunch{}.Fault))
	bufferBase     = int64(unsafe.Offsetof(schema.HostBuffer{}.Base))
	bufferBytes    = int64(unsafe.Offsetof(schema.HostBuffer{}.Bytes))
	bufferSize     = int64(unsafe.Sizeof(schema.HostBuffer{}))
	faultCode      = int64(unsafe.Offsetof(schema.HostFault{}.Code))
	faultGroup     = int64(unsafe.Offsetof(schema.HostFault{}.Group))
	faultLocal     = int64(unsafe.Offsetof(schema.HostFault{}.Local))
	faultObject    = int64(unsafe.Offsetof(schema.HostFault{}.Object))
	faultIndex     = int64(unsafe.Offsetof(schema.HostFault{}.Index))
)

// faultFn is the internal function that writes a HostFault and returns
// its code.
const faultFn = "xpu.fault"

// byteAt returns base + off bytes.
func (g *gen) byteAt(base llvm.Value, off int64) llvm.Value {
	if off == 0 {
		return base
	}
	return g.b.GEP(llvm.I8, base, i64(off))
}

func (g *gen) entry() {
	k := g.k
	attrs := g.m.AddAttrGroup(llvm.AttrGroup{Attrs: []llvm.Attr{
		{Key: "nounwind"},
		{Key: "target-cpu", Value: g.t.CPU, Quoted: true},
		{Key: "target-features", Value: g.t.Features, Quoted: true},
		{Key: "prefer-vector-width", Value: itoa(g.t.VectorBits), Quoted: true},
		{Key: "min-legal-vector-width", Value: itoa(g.t.VectorBits), Quoted: true},
	}})
	g.faultFunc()
	launch := llvm.NewParam("launch", llvm.Ptr, "noalias", "nocapture", "readonly")
	first, last := llvm.NewParam("first", llvm.I64), llvm.NewParam("last", llvm.I64)
	f := g.m.NewFunc(schema.HostSymbol(k.Name), llvm.I32, launch, first, last)
	f.AttrGroup = attrs
	b := llvm.NewBuilder(f)
	g.b = b
	for i := range 3 {
		g.groups[i] = b.Load(llvm.I32, g.byteAt(launch.Local, launchGroups+4*int64(i)), 4)
	}
	uniforms := b.Load(llvm.Ptr, g.byteAt(launch.Local, launchUniforms), 8)
	buffers := b.Load(llvm.Ptr, g.byteAt(launch.Local, launchBuffers), 8)
	g.stopPtr = b.Load(llvm.Ptr, g.byteAt(launch.Local, launchStop), 8)
	g.faultPtr = b.Load(llvm.Ptr, g.byteAt(launch.Local, launchFault), 8)
	for i, p := range k.Params {
		switch p.Kind {
		case ir.ScalarParam:
			at := g.byteAt(uniforms, int64(p.Binding))
			if ir.IsKind(p.Type, ir.Bool) {
				// A Go bool: one byte, 0 or 1.
				g.scalars[p] = b.ICmp(llvm.NE, b.Load(llvm.I8, at, 1), &llvm.Int{T: llvm.I8})
				continue
			}
			v := b.Load(llvm.I32, at, 4)
			switch {
			case ir.IsKind(p.Type, ir.F32):
				g.scalars[p] = b.Cast(llvm.Bitcast, v, llvm.F32)
			default:
				g.scalars[p] = v
			}
		case ir.BufferParam:
			hb := g.byteAt(buffers, int64(p.Binding)*bufferSize)
			base := b.Load(llvm.Ptr, g.byteAt(hb, bufferBase), 8)
			bytes := b.Load(llvm.I64, g.byteAt(hb, bufferBytes), 8)
			n := b.Bin(llvm.UDiv, bytes, i64(int64(p.Type.Size())), llvm.Flags{})
			g.buffers[p] = &buffer{index: i, base: base, len: n, bound: g.bufferBound(n)}
		}
	}
	for _, s := range k.Shared {
		t := &llvm.ArrayType{Len: s.Len, Elem: g.memType(s.Elem)}
		g.shared[s] = b.Alloca("shared."+s.Name, t, 64)
	}
	g.cur = b.Alloca("mask", g.vec(llvm.I1), 1)
	count := int64(k.Block[0]) * int64(k.Block[1]) * int64(k.Block[2])
	g.nchunks = (count + int64(g.W) - 1) / int64(g.W)
	pieces := g.plan()
	g.crossSlots(pieces)

	// The block loop.
	entry := b.Block
	head, body, done := b.NewBlock("block"), b.NewBlock("block.body"), b.NewBlock("done")
	b.Br(head)
	b.SetBlock(head)
	blk, phi := b.Phi(llvm.I64, llvm.Incoming{X: first.Local, From: entry})
	b.CondBr(b.ICmp(llvm.ULT, blk, last.Local), body, done)
	b.SetBlock(done)
	b.Ret(i32(int64(schema.HostOK)))
	b.SetBlock(body)
	g.stopCheck()
	gx64 := b.Cast(llvm.ZExt, g.groups[0], llvm.I64)
	gy64 := b.Cast(llvm.ZExt, g.groups[1], llvm.I64)
	g.group[0] = b.Cast(llvm.Trunc, b.Bin(llvm.URem, blk, gx64, llvm.Flags{}), llvm.I32)
	rest := b.Bin(llvm.UDiv, blk, gx64, llvm.Flags{})
	g.group[1] = b.Cast(llvm.Trunc, b.Bin(llvm.URem, rest, gy64, llvm.Flags{}), llvm.I32)
	g.group[2] = b.Cast(llvm.Trunc, b.Bin(llvm.UDiv, rest, gy64, llvm.Flags{}), llvm.I32)
	for _, s := range k.Shared {
		n := int64(s.Len) * int64(llvm.SizeOf(g.memType(s.Elem)))
		g.intrinsic("llvm.memset.p0.i64", llvm.Void, g.shared[s], &llvm.Int{T: llvm.I8}, i64(n), llvm.False)
	}
	if g.alive != nil {
		n := g.nchunks * int64(llvm.SizeOf(g.maskInt()))
		g.intrinsic("llvm.memset.p0.i64", llvm.Void, g.alive, llvm.ConstInt(llvm.I8, -1), i64(n), llvm.False)
	}
	g.pieces(pieces)
	next := b.Add(blk, i64(1))
	phi.In = append(phi.In, llvm.Incoming{X: next, From: b.Block})
	b.Br(head)
}

// bufferBound returns the bound of a buffer of n elements (i64).
func (g *gen) bufferBound(n llvm.Value) bound {
	b := g.b
	clamp := func(max int64) llvm.Value {
		return b.Cast(llvm.Trunc, g.intrinsic("llvm.umin.i64", llvm.I64, n, i64(max)), llvm.I32)
	}
	return bound{u: clamp(math.MaxUint32), s: clamp(1 << 31), big: b.ICmp(llvm.UGT, n, i64(math.MaxUint32))}
}

// crossSlots makes the slots, one per chunk, of the variables that live
// across pieces and, when the body has more than one piece, the record of the lanes
// that have returned.
func (g *gen) crossSlots(pieces []fission.Node) {
	g.perChunk = map[*ir.Var]llvm.Value{}
	vars := make([]*ir.Var, 0, len(g.cross))
	ir.WalkStmts(g.k.Body, func(s ir.Stmt) bool {
		if d, ok := s.(*ir.Decl); ok && g.cross[d.Var] {
			vars = append(vars, d.Var)
		}
		return true
	})
	for _, v := range vars {
		// A uniform one too: every chunk runs the statements that
		// update it.
		lt := g.slotType(v.Type, g.varying(v))
		g.chunkVars = append(g.chunkVars, v)
		g.perChunk[v] = g.b.Alloca("chunks."+v.Name, &llvm.ArrayType{Len: int(g.nchunks), Elem: lt}, 32)
	}
	if len(pieces) > 1 {
		g.alive = g.b.Alloca("alive", &llvm.ArrayType{Len: int(g.nchunks), Elem: g.maskInt()}, 8)
	}
}

// maskInt is the integer type of a mask's bits.
func (g *gen) maskInt() *llvm.IntType { return &llvm.IntType{Bits: g.W} }

// pieces runs the pieces of the body for one block.
func (g *gen) pieces(ps []fission.Node) {
	b := g.b
	for _, p := range ps {
		switch p := p.(type) {
		case *fission.Segment:
			g.chunks(p.Stmts)
		case *fission.Wave:
			g.pos = p.Verb.Pos
			g.wideWave(p)
		case *fission.If:
			g.pos = p.Pos
			c := g.blockCond(p.Cond)
			tb, eb, after := b.NewBlock("bthen"), b.NewBlock("belse"), b.NewBlock("bendif")
			b.CondBr(c, tb, eb)
			b.SetBlock(tb)
			g.pieces(p.Then)
			b.Br(after)
			b.SetBlock(eb)
			g.pieces(p.Else)
			b.Br(after)
			b.SetBlock(after)
		case *fission.Loop:
			g.pos = p.Pos
			head, body, exit := b.NewBlock("bloop"), b.NewBlock("bloop.body"), b.NewBlock("bloop.exit")
			b.Br(head)
			b.SetBlock(head)
			g.stopCheck()
			if p.Cond != nil {
				b.CondBr(g.blockCond(p.Cond), body, exit)
			} else {
				b.Br(body)
			}
			b.SetBlock(body)
			g.pieces(p.Body)
			g.pieces(p.Post)
			b.Br(head)
			b.SetBlock(exit)
		}
	}
}

// blockCond evaluates the uniform condition of an if or loop around a
// barrier, once for the block, as its first chunk would.
func (g *gen) blockCond(cond ir.Expr) llvm.Value {
	g.setChunk(i32(0))
	g.flow = true
	c := g.expr(cond).x
	if isVec(c) {
		g.fail("the condition of an if or loop around a barrier is not uniform")
	}
	return c
}

// setChunk computes the coordinates of the work-items of chunk c and
// sets the execution mask to those in the block (that have not
// returned).
func (g *gen) setChunk(c llvm.Value) {
	b := g.b
	bx, by, bz := int64(g.k.Block[0]), int64(g.k.Block[1]), int64(g.k.Block[2])
	count := bx * by * bz
	g.chunkBase = b.Bin(llvm.Shl, c, i32(int64(log2(g.W))), llvm.Flags{NUW: true})
	li := b.Add(g.splat(g.chunkBase), g.lanes())
	valid := g.allOnes()
	if count%int64(g.W) != 0 {
		valid = b.ICmp(llvm.ULT, li, &llvm.Splat{Len: g.W, X: i32(count)})
	}
	if g.alive != nil {
		bits := b.Load(g.maskInt(), b.GEP(g.maskInt(), g.alive, c), 4)
		valid = b.And(valid, b.Cast(llvm.Bitcast, bits, g.vec(llvm.I1)))
	}
	g.setMask(valid)
	g.local = [4]value{g.coord(li, 1, bx), g.coord(li, bx, by), g.coord(li, bx*by, bz), rampOf(li, g.chunkBase)}
	for _, d := range g.rematOrder {
		x := g.expr(d.Init)
		g.vars[d.Var] = &variable{t: d.Var.Type, ssa: &x}
	}
	for _, v := range g.chunkVars {
		arr := g.perChunk[v]
		vec := g.varying(v)
		lt := g.slotType(v.Type, vec)
		g.vars[v] = &variable{t: v.Type, vec: vec, lt: lt,
			ptr: b.GEP(&llvm.ArrayType{Len: int(g.nchunks), Elem: lt}, arr, i64(0), c)}
	}
}

// coord returns the local coordinate (li / below) % size of the chunk's
// lanes (li their linear indices): a scalar when the chunk's lanes share
// it (below a multiple of W), a ramp when they are consecutive (below 1,
// size a multiple of W), else a vector.
func (g *gen) coord(li llvm.Value, below, size int64) value {
	b := g.b
	w := int64(g.W)
	switch {
	case size == 1:
		return value{x: i32(0)}
	case below%w == 0:
		q := b.Bin(llvm.UDiv, g.chunkBase, i32(below), llvm.Flags{})
		return value{x: b.Bin(llvm.URem, q, i32(size), llvm.Flags{})}
	case below == 1 && size%w == 0:
		return rampOf(b.Bin(llvm.URem, li, &llvm.Splat{Len: g.W, X: i32(size)}, llvm.Flags{}),
			b.Bin(llvm.URem, g.chunkBase, i32(size), llvm.Flags{}))
	}
	q := b.Bin(llvm.UDiv, li, &llvm.Splat{Len: g.W, X: i32(below)}, llvm.Flags{})
	return value{x: b.Bin(llvm.URem, q, &llvm.Splat{Len: g.W, X: i32(size)}, llvm.Flags{})}
}

// chunks writes the loop over one block's chunks of W work-items that
// runs the statements of a segment.
func (g *gen) chunks(stmts []ir.Stmt) {
	g.chunkLoop(func(llvm.Value) { g.block(&ir.Block{Stmts: stmts}) })
}

// chunkLoop writes a loop over one block's chunks that runs body for
// chunk c.
func (g *gen) chunkLoop(body func(c llvm.Value)) {
	b := g.b
	pre := b.Block
	head, end := b.NewBlock("chunk"), b.NewBlock("chunk.end")
	b.Br(head)
	b.SetBlock(head)
	c, phi := b.Phi(llvm.I32, llvm.Incoming{X: i32(0), From: pre})
	g.setChunk(c)
	g.ret = &retFrame{kernel: true, exit: end}
	g.flow = true
	body(c)
	if !b.Block.Terminated() {
		b.Br(end)
	}
	b.SetBlock(end)
	if g.alive != nil {
		b.Store(g.maskBits(g.mask()), b.GEP(g.maskInt(), g.alive, c), 4)
	}
	next := b.Add(c, i32(1))
	phi.In = append(phi.In, llvm.Incoming{X: next, From: b.Block})
	after := b.NewBlock("chunks.done")
	b.CondBr(b.ICmp(llvm.ULT, next, i32(g.nchunks)), head, after)
	b.SetBlock(after)
}

func log2(n int) int {
	l := 0
	for ; n > 1; n >>= 1 {
		l++
	}
	return l
}

func itoa(n int) string { return strconv.Itoa(n) }

// stopCheck returns HostStopped when the launch's Stop word is set.
func (g *gen) stopCheck() {
	if g.simt() {
		// A GPU's launch has no stop word: its driver bounds it.
		return
	}
	w := g.b.AtomicLoad(llvm.I32, g.stopPtr, llvm.Monotonic, 4)
	g.ifThen(g.b.ICmp(llvm.NE, w, i32(0)), "stopped", func() {
		g.b.Ret(i32(int64(schema.HostStopped)))
	})
}

// faultFunc writes the internal function that fills a HostFault.
func (g *gen) faultFunc() {
	names := []string{"fault", "code", "gx", "gy", "gz", "lx", "ly", "lz", "object", "index"}
	ps := make([]*llvm.Param, len(names))
	for i, n := range names {
		t := llvm.Type(llvm.I32)
		if i == 0 {
			t = llvm.Ptr
		}
		ps[i] = llvm.NewParam(n, t)
	}
	f := g.m.NewFunc(faultFn, llvm.I32, ps...)
	f.Linkage = llvm.Internal
	f.AttrGroup = g.m.AddAttrGroup(llvm.AttrGroup{Attrs: []llvm.Attr{{Key: "nounwind"}, {Key: "cold"}, {Key: "noinline"}}})
	b := llvm.NewBuilder(f)
	at := func(off int64) llvm.Value {
		if off == 0 {
			return ps[0].Local
		}
		return b.GEP(llvm.I8, ps[0].Local, i64(off))
	}
	b.Store(ps[1].Local, at(faultCode), 4)
	for i := range 3 {
		b.Store(ps[2+i].Local, at(faultGroup+4*int64(i)), 4)
		b.Store(ps[5+i].Local, at(faultLocal+4*int64(i)), 4)
	}
	b.Store(ps[8].Local, at(faultObject), 4)
	b.Store(ps[9].Local, at(faultIndex), 4)
	b.Ret(ps[1].Local)
}

// fault returns code from the entry, having written the fault of the
// first lane of bad (a mask, or an i1 for a uniform fault of the first
// active lane) with the object and index (scalar or per lane).
func (g *gen) fault(bad llvm.Value, code uint32, object uint32, index llvm.Value) {
	if g.simt() {
		g.threadFault(bad, code)
		return
	}
	b := g.b
	var m llvm.Value
	if isVec(bad) {
		m = bad
		bad = g.any(bad)
	}
	g.ifThen(bad, "fault", func() {
		if m == nil {
			m = g.mask()
		}
		bits := g.maskBits(m)
		it := bits.Type().(*llvm.IntType)
		lane := g.intrinsic("llvm.cttz."+it.String(), it, bits, llvm.True)
		if it.Bits > 32 {
			lane = b.Cast(llvm.Trunc, lane, llvm.I32)
		} else if it.Bits < 32 {
			lane = b.Cast(llvm.ZExt, lane, llvm.I32)
		}
		pick := func(v llvm.Value) llvm.Value {
			if isVec(v) {
				return b.ExtractElement(v, lane)
			}
			return v
		}
		if index == nil {
			index = i32(0)
		}
		r := b.Call(llvm.I32, faultFn, g.faultPtr, i32(int64(code)), g.group[0], g.group[1], g.group[2],
			pick(g.local[0].x), pick(g.local[1].x), pick(g.local[2].x), &llvm.Int{T: llvm.I32, Bits: uint64(object)}, pick(index))
		b.Ret(r)
	})
}
