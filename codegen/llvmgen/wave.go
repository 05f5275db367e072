package llvmgen

// This file lowers the wave verbs. A wave is a chunk (or, for a kernel
// that declares a narrower width dividing W, an aligned part of one): its
// lanes run in lock step, so a verb is an operation across the lanes of
// one vector, and needs no splitting of the body. A verb runs in uniform control
// flow (the analysis requires it), so its active lanes are the chunk's
// lanes inside the block. Reductions and scans combine the active lanes
// in lane order, one lane at a time, as the reference does; a shuffle
// from a lane that is not active yields the caller's own value.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

func (g *gen) wave(e *ir.Wave) value {
	b := g.b
	args := make([]llvm.Value, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.splat(g.expr(a).x)
	}
	v := args[0]
	m := g.mask()
	ww := g.waveWidth()
	pos := func(f func(p int) int64) llvm.Value { // a constant i32 vector over the lanes
		e := make([]llvm.Value, g.W)
		for p := range e {
			e[p] = i32(f(p))
		}
		return &llvm.VectorConst{Elems: e}
	}
	wave := pos(func(p int) int64 { return int64(p / ww) })    // each lane's wave in the chunk
	inWave := pos(func(p int) int64 { return int64(p % ww) })  // each lane's index in its wave
	start := pos(func(p int) int64 { return int64(p - p%ww) }) // the first lane of its wave
	float := ir.IsKind(e.T, ir.F32) || len(e.Args) > 0 && ir.IsKind(e.Args[0].Type(), ir.F32)
	signed := ir.IsKind(e.Args[0].Type(), ir.I32)
	// identity is what an inactive lane adds: -0 is exact for floats.
	identity := func() llvm.Value {
		if float {
			return &llvm.Splat{Len: g.W, X: llvm.ConstF32(negZero)}
		}
		return zeroLike(v)
	}
	lane := func(l int) (llvm.Value, llvm.Value) { // lane l's value (splat) and whether it is an active lane of each lane's wave
		x := g.b.Broadcast(g.W, b.ExtractElement(v, i32(int64(l))))
		on := g.b.Broadcast(g.W, b.ExtractElement(m, i32(int64(l))))
		if ww < g.W {
			on = b.And(on, b.ICmp(llvm.EQ, wave, constLike(wave, int64(l/ww))))
		}
		return x, on
	}
	add := func(x, y llvm.Value) llvm.Value {
		if float {
			return b.Bin(llvm.FAdd, x, y, llvm.Flags{})
		}
		return b.Add(x, y)
	}
	less := func(x, y llvm.Value) llvm.Value {
		switch {
		case float:
			return b.FCmp(llvm.OLT, x, y)
		case signed:
			return b.ICmp(llvm.SLT, x, y)
		}
		return b.ICmp(llvm.ULT, x, y)
	}
	switch e.Op {
	case schema.WaveSum, schema.WavePrefixSum, schema.WaveExclusivePrefixSum:
		var s llvm.Value = zeroLike(v)
		for l := range g.W {
			x, on := lane(l)
			switch e.Op {
			case schema.WavePrefixSum:
				on = b.And(on, b.ICmp(llvm.UGE, inWave, constLike(inWave, int64(l%ww))))
			case schema.WaveExclusivePrefixSum:
				on = b.And(on, b.ICmp(llvm.UGT, inWave, constLike(inWave, int64(l%ww))))
			}
			s = add(s, b.Select(on, x, identity()))
		}
		return value{x: s}
	case schema.WaveMin, schema.WaveMax:
		acc := v
		for l := range g.W {
			x, on := lane(l)
			var take llvm.Value
			if e.Op == schema.WaveMin {
				take = less(x, acc) // Min(acc, x): x < acc
			} else {
				take = less(acc, x) // Max(acc, x): x > acc
			}
			acc = b.Select(b.And(on, take), x, acc)
		}
		return value{x: acc}
	case schema.WaveBallot, schema.WaveAny, schema.WaveAll:
		p := b.And(m, v)
		if e.Op == schema.WaveAll {
			p = b.And(m, g.not(v))
		}
		// Each lane's wave's bits: the chunk's, shifted down to its
		// wave's first lane and cut to the wave.
		bits := b.Cast(llvm.ZExt, g.maskBits(p), llvm.I32)
		mine := b.Bin(llvm.LShr, g.splat(bits), start, llvm.Flags{})
		if ww < 32 {
			mine = b.And(mine, constLike(mine, int64(1)<<ww-1))
		}
		switch e.Op {
		case schema.WaveAny:
			return value{x: b.ICmp(llvm.NE, mine, zeroLike(mine))}
		case schema.WaveAll:
			return value{x: b.ICmp(llvm.EQ, mine, zeroLike(mine))}
		}
		return value{x: mine}
	}
	// Shuffles: the source lane of each lane, -1 for its own value.
	// Shuffles: each lane's source lane in its wave, then in the chunk;
	// -1 for its own value.
	w := constLike(inWave, int64(ww))
	var src llvm.Value
	k := args[1]
	switch e.Op {
	case schema.WaveBroadcast, schema.WaveShuffle:
		src = b.Bin(llvm.URem, k, w, llvm.Flags{})
	case schema.WaveShuffleXor:
		src = b.Xor(inWave, b.Bin(llvm.URem, k, w, llvm.Flags{}))
	case schema.WaveShuffleUp:
		src = b.Select(b.ICmp(llvm.UGT, k, inWave), constLike(k, -1), b.Sub(inWave, k))
	case schema.WaveShuffleDown:
		s64 := b.Add(b.Cast(llvm.ZExt, inWave, g.vec(llvm.I64)), b.Cast(llvm.ZExt, k, g.vec(llvm.I64)))
		past := b.ICmp(llvm.UGE, s64, &llvm.Splat{Len: g.W, X: i64(int64(ww))})
		src = b.Select(past, constLike(k, -1), b.Add(inWave, k))
	default:
		g.fail("the wave verb %v", e.Op)
	}
	own := b.ICmp(llvm.EQ, src, constLike(src, -1))
	src = b.Select(own, src, b.Add(src, start))
	r := v
	for l := range g.W {
		x := g.b.Broadcast(g.W, b.ExtractElement(v, i32(int64(l))))
		on := g.b.Broadcast(g.W, b.ExtractElement(m, i32(int64(l))))
		r = b.Select(b.And(on, b.ICmp(llvm.EQ, src, constLike(src, int64(l)))), x, r)
	}
	return value{x: r}
}

// waveWidth is WaveWidth().
func (g *gen) waveWidth() int { return int(Wave(g.k, g.t)) }
