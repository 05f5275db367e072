package llvmgen

// This file lowers the wave verbs on a GPU, where a wave is H threads of
// the hardware's (a warp of 32, a wavefront of 32 or 64) or an aligned
// segment of ww of them (a declared width dividing H), running in lock
// step. Every verb is made of one primitive, reading a value from another
// thread of the segment (shfl.sync on NVIDIA, ds_bpermute on AMD), and a
// ballot for the predicates. A verb runs in uniform control flow (the
// analysis requires it), so its active threads are those of the block,
// which fill each segment from its first lane: a segment's last one may
// be short, and its missing lanes' values are never used (a shuffle from
// one yields the caller's own value, as on the other tiers).
// Reductions and scans are trees over the lanes: a float sum may round
// differently from the reference's lane order, as on WebGPU.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

// segment is the caller's place in its wave.
type segment struct {
	ww     int64      // the wave's width, a divisor of the hardware's
	inWave llvm.Value // the caller's lane in its wave
	base   llvm.Value // the hardware lane of the wave's lane 0
	n      llvm.Value // the wave's active lanes: a prefix of it
	member llvm.Value // NVIDIA: the warp's active threads (the shuffles' member mask)
}

// threadInWave is LaneIndex(): the linear index's place in its wave (a
// block's threads fill the hardware's waves in linear order).
func (g *gen) threadInWave() llvm.Value {
	return g.b.And(g.local[3].x, i32(int64(g.waveWidth())-1))
}

func (g *gen) segment() segment {
	b := g.b
	ww := int64(g.waveWidth())
	h := int64(g.t.Lanes)
	li := g.local[3].x
	count := int64(g.k.Block[0]) * int64(g.k.Block[1]) * int64(g.k.Block[2])
	s := segment{ww: ww, inWave: g.threadInWave()}
	s.base = b.And(b.And(li, i32(h-1)), i32(^(ww - 1)))
	first := b.And(li, i32(^(ww - 1)))
	if count%ww == 0 {
		s.n = i32(ww)
	} else {
		s.n = g.intrinsic("llvm.umin.i32", llvm.I32, b.Sub(i32(count), first), i32(ww))
	}
	if g.t.Arch == ArchNVPTX {
		if count%h == 0 {
			s.member = i32(-1)
		} else {
			warp := b.And(li, i32(^(h - 1)))
			n := g.intrinsic("llvm.umin.i32", llvm.I32, b.Sub(i32(count), warp), i32(h))
			// (1 << n) - 1 for n = 1 to 32, without a shift by 32.
			s.member = b.Bin(llvm.LShr, i32(-1), b.Sub(i32(32), n), llvm.Flags{})
		}
	}
	return s
}

// read returns the value x of lane src of the caller's wave (an i32 or
// float), or the caller's own x where src is not an active lane of it.
func (g *gen) read(s segment, x, src llvm.Value) llvm.Value {
	b := g.b
	in := b.ICmp(llvm.ULT, src, s.n)
	lane := b.Add(s.base, b.And(src, i32(s.ww-1)))
	t := x.Type()
	v := x
	switch {
	case llvm.SameType(t, llvm.I1):
		v = b.Cast(llvm.ZExt, x, llvm.I32)
	case llvm.SameType(t, llvm.F32):
		v = b.Cast(llvm.Bitcast, x, llvm.I32)
	}
	var r llvm.Value
	switch g.t.Arch {
	case ArchNVPTX:
		r = g.intrinsic("llvm.nvvm.shfl.sync.idx.i32", llvm.I32, s.member, v, lane, i32(31))
	case ArchAMDGCN:
		r = g.intrinsic("llvm.amdgcn.ds.bpermute", llvm.I32, b.Bin(llvm.Shl, lane, i32(2), llvm.Flags{}), v)
	}
	switch {
	case llvm.SameType(t, llvm.I1):
		r = b.Cast(llvm.Trunc, r, llvm.I1)
	case llvm.SameType(t, llvm.F32):
		r = b.Cast(llvm.Bitcast, r, llvm.F32)
	}
	return b.Select(in, r, x)
}

// ballot returns the bits of the caller's wave's active lanes where p
// (i1) holds, lane i at bit i, as an i64.
func (g *gen) ballot(s segment, p llvm.Value) llvm.Value {
	b := g.b
	var bits llvm.Value
	switch {
	case g.t.Arch == ArchNVPTX:
		bits = b.Cast(llvm.ZExt, g.intrinsic("llvm.nvvm.vote.ballot.sync", llvm.I32, s.member, p), llvm.I64)
	case g.t.Lanes == 64:
		bits = g.intrinsic("llvm.amdgcn.ballot.i64", llvm.I64, p)
	default:
		bits = b.Cast(llvm.ZExt, g.intrinsic("llvm.amdgcn.ballot.i32", llvm.I32, p), llvm.I64)
	}
	bits = b.Bin(llvm.LShr, bits, b.Cast(llvm.ZExt, s.base, llvm.I64), llvm.Flags{})
	if s.ww < 64 {
		bits = b.And(bits, i64(int64(1)<<s.ww-1))
	}
	return bits
}

// waveArgs evaluates the verb e's operands; t is the first's type.
func (g *gen) waveArgs(e *ir.Wave) (args []llvm.Value, t ir.Type) {
	args = make([]llvm.Value, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.expr(a).x
	}
	return args, e.Args[0].Type()
}

func (g *gen) threadWave(e *ir.Wave) value {
	if g.waveWidth() > g.t.Lanes {
		return g.foldedWave(e)
	}
	b := g.b
	s := g.segment()
	args, t := g.waveArgs(e)
	v := args[0]
	float := ir.IsKind(t, ir.F32)
	add := func(x, y llvm.Value) llvm.Value {
		if float {
			return b.Bin(llvm.FAdd, x, y, llvm.Flags{})
		}
		return b.Add(x, y)
	}
	// tree combines, for lane i, the lanes i to the wave's end (lane 0:
	// all of them), then gives every lane lane 0's.
	tree := func(combine func(acc, x llvm.Value) llvm.Value) llvm.Value {
		acc := v
		for off := int64(1); off < s.ww; off *= 2 {
			src := b.Add(s.inWave, i32(off))
			y := g.read(s, acc, src)
			acc = b.Select(b.ICmp(llvm.ULT, src, s.n), combine(acc, y), acc)
		}
		return g.read(s, acc, i32(0))
	}
	// scan is the inclusive prefix sum: lane i's is that of lanes 0 to i.
	scan := func() llvm.Value {
		acc := v
		for off := int64(1); off < s.ww; off *= 2 {
			has := b.ICmp(llvm.UGE, s.inWave, i32(off))
			y := g.read(s, acc, b.Sub(s.inWave, i32(off)))
			acc = b.Select(has, add(y, acc), acc)
		}
		return acc
	}
	switch e.Op {
	case schema.WaveSum:
		return value{x: tree(add)}
	case schema.WaveMin:
		return value{x: tree(func(acc, x llvm.Value) llvm.Value { return b.Select(g.less(t, x, acc), x, acc) })}
	case schema.WaveMax:
		return value{x: tree(func(acc, x llvm.Value) llvm.Value { return b.Select(g.less(t, acc, x), x, acc) })}
	case schema.WavePrefixSum:
		return value{x: scan()}
	case schema.WaveExclusivePrefixSum:
		in := scan()
		prev := g.read(s, in, b.Sub(s.inWave, i32(1)))
		return value{x: b.Select(b.ICmp(llvm.EQ, s.inWave, i32(0)), zeroLike(v), prev)}
	case schema.WaveBallot, schema.WaveAny, schema.WaveAll:
		if e.Op == schema.WaveBallot && s.ww > 32 {
			g.fail("WaveBallot at a wave of %d lanes (at most 32)", s.ww)
		}
		p := v
		if e.Op == schema.WaveAll {
			p = g.not(p)
		}
		bits := g.ballot(s, p)
		switch e.Op {
		case schema.WaveAny:
			return value{x: b.ICmp(llvm.NE, bits, i64(0))}
		case schema.WaveAll:
			return value{x: b.ICmp(llvm.EQ, bits, i64(0))}
		}
		return value{x: b.Cast(llvm.Trunc, bits, llvm.I32)}
	}
	return value{x: g.read(s, v, g.shuffleSource(e.Op, args[1], s.inWave, s.ww))}
}

// shuffleSource returns the lane of its wave of ww lanes that a caller
// at lane inWave reads for the shuffle op with lane operand k: ww (one
// past the wave) where it reads its own value.
func (g *gen) shuffleSource(op schema.WaveOp, k, inWave llvm.Value, ww int64) llvm.Value {
	b := g.b
	switch op {
	case schema.WaveBroadcast, schema.WaveShuffle:
		return b.And(k, i32(ww-1))
	case schema.WaveShuffleXor:
		return b.Xor(inWave, b.And(k, i32(ww-1)))
	case schema.WaveShuffleUp:
		return b.Select(b.ICmp(llvm.UGT, k, inWave), i32(ww), b.Sub(inWave, k))
	case schema.WaveShuffleDown:
		// inWave + k without wrapping: k at most ww - 1 - inWave.
		past := b.ICmp(llvm.UGT, k, b.Sub(i32(ww-1), inWave))
		return b.Select(past, i32(ww), b.Add(inWave, k))
	}
	g.fail("the wave verb %v", op)
	return nil
}

// foldedWave lowers the verb e for a wave wider than the hardware's (a
// declared width that is a multiple of it): every thread of the block
// puts its operand in a shared array (the verb runs in uniform control
// flow, so all of them do), a barrier, and each reads its wave's from
// there, in lane order as the reference combines them, and a barrier
// again before the array is used for the next verb.
func (g *gen) foldedWave(e *ir.Wave) value {
	b := g.b
	ww := int64(g.waveWidth())
	if e.Op == schema.WaveBallot && ww > 32 {
		g.fail("WaveBallot at a wave of %d lanes (at most 32)", ww)
	}
	args, t := g.waveArgs(e)
	v := args[0]
	float := ir.IsKind(t, ir.F32)
	count := int64(g.k.Block[0]) * int64(g.k.Block[1]) * int64(g.k.Block[2])
	li := g.local[3].x
	toWord := func(x llvm.Value) llvm.Value {
		switch {
		case llvm.SameType(x.Type(), llvm.I1):
			return b.Cast(llvm.ZExt, x, llvm.I32)
		case llvm.SameType(x.Type(), llvm.F32):
			return b.Cast(llvm.Bitcast, x, llvm.I32)
		}
		return x
	}
	fromWord := func(w llvm.Value) llvm.Value {
		switch {
		case llvm.SameType(v.Type(), llvm.I1):
			return b.ICmp(llvm.NE, w, i32(0))
		case float:
			return b.Cast(llvm.Bitcast, w, llvm.F32)
		}
		return w
	}
	scratch := g.scratch
	at := func(i llvm.Value) llvm.Value { return b.GEP(llvm.I32, scratch, b.Cast(llvm.ZExt, i, llvm.I64)) }
	b.Store(toWord(v), at(li), 4)
	g.barrier()
	first := b.And(li, i32(^(ww - 1)))
	inWave := b.And(li, i32(ww-1))
	var n llvm.Value = i32(ww)
	if count%ww != 0 {
		n = g.intrinsic("llvm.umin.i32", llvm.I32, b.Sub(i32(count), first), i32(ww))
	}
	lane := func(l llvm.Value) llvm.Value { return fromWord(b.Load(llvm.I32, at(b.Add(first, l)), 4)) }
	var r llvm.Value
	switch e.Op {
	case schema.WaveSum, schema.WavePrefixSum, schema.WaveExclusivePrefixSum:
		end := n
		switch e.Op {
		case schema.WavePrefixSum:
			end = b.Add(inWave, i32(1))
		case schema.WaveExclusivePrefixSum:
			end = inWave
		}
		r = g.laneLoop(end, zeroLike(v), func(l, acc llvm.Value) llvm.Value {
			if float {
				return b.Bin(llvm.FAdd, acc, lane(l), llvm.Flags{})
			}
			return b.Add(acc, lane(l))
		})
	case schema.WaveMin, schema.WaveMax:
		r = g.laneLoop(n, v, func(l, acc llvm.Value) llvm.Value {
			x := lane(l)
			if e.Op == schema.WaveMin {
				return b.Select(g.less(t, x, acc), x, acc)
			}
			return b.Select(g.less(t, acc, x), x, acc)
		})
	case schema.WaveBallot, schema.WaveAny, schema.WaveAll:
		bits := g.laneLoop(n, i64(0), func(l, acc llvm.Value) llvm.Value {
			p := lane(l)
			if e.Op == schema.WaveAll {
				p = g.not(p)
			}
			bit := b.Bin(llvm.Shl, i64(1), b.Cast(llvm.ZExt, l, llvm.I64), llvm.Flags{})
			return b.Or(acc, b.Select(p, bit, i64(0)))
		})
		switch e.Op {
		case schema.WaveAny:
			r = b.ICmp(llvm.NE, bits, i64(0))
		case schema.WaveAll:
			r = b.ICmp(llvm.EQ, bits, i64(0))
		default:
			r = b.Cast(llvm.Trunc, bits, llvm.I32)
		}
	default:
		src := g.shuffleSource(e.Op, args[1], inWave, ww)
		in := b.ICmp(llvm.ULT, src, n)
		safe := b.Select(in, src, i32(0))
		r = b.Select(in, lane(safe), v)
	}
	g.barrier()
	return value{x: r}
}

// waveScratch makes, for a kernel whose waves are folded, the shared
// array of a word per thread of the block that its verbs exchange their
// operands in.
func (g *gen) waveScratch() {
	if g.waveWidth() <= g.t.Lanes || !ir.UsesWaves(g.k) {
		return
	}
	count := int(g.k.Block[0] * g.k.Block[1] * g.k.Block[2])
	t := &llvm.ArrayType{Len: count, Elem: llvm.I32}
	gl := &llvm.Global{Name: "shared.wave", Linkage: llvm.Internal, T: t, Init: &llvm.Poison{T: t}, Align: 16, Space: spaceShared}
	g.m.Globals = append(g.m.Globals, gl)
	g.scratch = g.b.Cast(llvm.AddrSpaceCast, gl.Ref(), llvm.Ptr)
}

// laneLoop returns the value of acc after body(l, acc) for l from 0 to
// n-1 (i32), acc starting at init.
func (g *gen) laneLoop(n, init llvm.Value, body func(l, acc llvm.Value) llvm.Value) llvm.Value {
	b := g.b
	pre := b.Block
	head, bb, done := b.NewBlock("lanes"), b.NewBlock("lanes.body"), b.NewBlock("lanes.done")
	b.Br(head)
	b.SetBlock(head)
	l, lphi := b.Phi(llvm.I32, llvm.Incoming{X: i32(0), From: pre})
	acc, aphi := b.Phi(init.Type(), llvm.Incoming{X: init, From: pre})
	b.CondBr(b.ICmp(llvm.ULT, l, n), bb, done)
	b.SetBlock(bb)
	next := body(l, acc)
	lphi.In = append(lphi.In, llvm.Incoming{X: b.Add(l, i32(1)), From: b.Block})
	aphi.In = append(aphi.In, llvm.Incoming{X: next, From: b.Block})
	b.Br(head)
	b.SetBlock(done)
	return acc
}
