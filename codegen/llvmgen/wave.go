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
	"github.com/goxpu/xpu/codegen/ir/fission"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

func (g *gen) wave(e *ir.Wave) value {
	if g.simt() {
		return g.threadWave(e)
	}
	args := make([]llvm.Value, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.splat(g.expr(a).x)
	}
	if r := g.chunkSum(e, args[0]); r != nil {
		return value{x: r}
	}
	return g.waveOp(e, args, g.chunkLanes(args[0], g.mask()))
}

// chunkSum lowers WaveSum of v over a wave that is the whole chunk, of
// float32 or 32-bit integers, as one reduction of the chunk's active
// lanes, broadcast to them, and returns nil for any other verb or wave.
// waveOp's sum adds each lane into a vector of every caller's lanes, a
// chain of W vector additions a chunk; here the same additions in the
// same lane order (llvm.vector.reduce.fadd without reassociation is
// ordered, from the start value +0 as waveOp's sum starts, an inactive
// lane adding -0) run once, on one lane.
func (g *gen) chunkSum(e *ir.Wave, v llvm.Value) llvm.Value {
	if e.Op != schema.WaveSum || g.waveWidth() != g.W {
		return nil
	}
	b := g.b
	t := llvm.Elem(v.Type())
	var r llvm.Value
	switch {
	case llvm.SameType(t, llvm.F32):
		x := b.Select(g.mask(), v, &llvm.Splat{Len: g.W, X: llvm.ConstF32(negZero)})
		r = g.intrinsic("llvm.vector.reduce.fadd."+suffix(v.Type()), llvm.F32, llvm.ConstF32(0), x)
	case llvm.SameType(t, llvm.I32):
		x := b.Select(g.mask(), v, zeroLike(v))
		r = g.intrinsic("llvm.vector.reduce.add."+suffix(v.Type()), llvm.I32, x)
	default:
		return nil
	}
	return b.Broadcast(g.W, r)
}

// waveLanes is where a verb reads the lanes of the callers' waves.
type waveLanes struct {
	n      int                    // the lanes the verb visits, in lane order
	value  func(l int) llvm.Value // lane l's operand, for every caller
	on     func(l int) llvm.Value // lane l is active and in the caller's wave
	index  func(l int) int        // lane l's index in its wave
	inWave llvm.Value             // each caller's index in its wave
}

// chunkLanes are the lanes of a chunk holding whole waves (a width of W
// or a divisor of it): v is the operand, m the active lanes.
func (g *gen) chunkLanes(v, m llvm.Value) waveLanes {
	b := g.b
	ww := g.waveWidth()
	wave := g.perLaneConst(func(p int) int64 { return int64(p / ww) })
	return waveLanes{
		n:     g.W,
		value: func(l int) llvm.Value { return b.Broadcast(g.W, b.ExtractElement(v, i32(int64(l)))) },
		on: func(l int) llvm.Value {
			on := b.Broadcast(g.W, b.ExtractElement(m, i32(int64(l))))
			if ww < g.W {
				on = b.And(on, b.ICmp(llvm.EQ, wave, constLike(wave, int64(l/ww))))
			}
			return on
		},
		index:  func(l int) int { return l % ww },
		inWave: g.perLaneConst(func(p int) int64 { return int64(p % ww) }),
	}
}

// perLaneConst returns the constant i32 vector of f over the lanes.
func (g *gen) perLaneConst(f func(p int) int64) llvm.Value {
	e := make([]llvm.Value, g.W)
	for p := range e {
		e[p] = i32(f(p))
	}
	return &llvm.VectorConst{Elems: e}
}

// waveOp computes the verb e for every lane of the chunk: args are the
// callers' operands, src where the verb reads its wave's lanes.
func (g *gen) waveOp(e *ir.Wave, args []llvm.Value, src waveLanes) value {
	b := g.b
	v := args[0]
	ww := g.waveWidth()
	float := ir.IsKind(e.Args[0].Type(), ir.F32)
	// identity is what an inactive lane adds: -0 is exact for floats.
	identity := func() llvm.Value {
		if float {
			return &llvm.Splat{Len: g.W, X: llvm.ConstF32(negZero)}
		}
		return zeroLike(v)
	}
	add := func(x, y llvm.Value) llvm.Value {
		if float {
			return b.Bin(llvm.FAdd, x, y, llvm.Flags{})
		}
		return b.Add(x, y)
	}
	less := func(x, y llvm.Value) llvm.Value { return g.less(e.Args[0].Type(), x, y) }
	switch e.Op {
	case schema.WaveSum, schema.WavePrefixSum, schema.WaveExclusivePrefixSum:
		var s llvm.Value = zeroLike(v)
		for l := range src.n {
			on := src.on(l)
			switch e.Op {
			case schema.WavePrefixSum:
				on = b.And(on, b.ICmp(llvm.UGE, src.inWave, constLike(src.inWave, int64(src.index(l)))))
			case schema.WaveExclusivePrefixSum:
				on = b.And(on, b.ICmp(llvm.UGT, src.inWave, constLike(src.inWave, int64(src.index(l)))))
			}
			s = add(s, b.Select(on, src.value(l), identity()))
		}
		return value{x: s}
	case schema.WaveMin, schema.WaveMax:
		acc := v
		for l := range src.n {
			x := src.value(l)
			var take llvm.Value
			if e.Op == schema.WaveMin {
				take = less(x, acc) // Min(acc, x): x < acc
			} else {
				take = less(acc, x) // Max(acc, x): x > acc
			}
			acc = b.Select(b.And(src.on(l), take), x, acc)
		}
		return value{x: acc}
	case schema.WaveBallot, schema.WaveAny, schema.WaveAll:
		if e.Op == schema.WaveBallot && ww > 32 {
			g.fail("WaveBallot at a wave of %d lanes (at most 32)", ww)
		}
		// Each caller's wave's bits of the lanes that are active and
		// whose predicate holds (fails, for WaveAll).
		bits := zeroLike(g.splat(i64(0)))
		for l := range src.n {
			p := src.value(l)
			if e.Op == schema.WaveAll {
				p = g.not(p)
			}
			bit := &llvm.Splat{Len: g.W, X: i64(int64(1) << src.index(l))}
			bits = b.Or(bits, b.Select(b.And(src.on(l), p), bit, zeroLike(bits)))
		}
		switch e.Op {
		case schema.WaveAny:
			return value{x: b.ICmp(llvm.NE, bits, zeroLike(bits))}
		case schema.WaveAll:
			return value{x: b.ICmp(llvm.EQ, bits, zeroLike(bits))}
		}
		return value{x: b.Cast(llvm.Trunc, bits, g.vec(llvm.I32))}
	}
	// Shuffles: each lane's source lane in its wave; -1 for its own value.
	w := constLike(src.inWave, int64(ww))
	var from llvm.Value
	k := args[1]
	switch e.Op {
	case schema.WaveBroadcast, schema.WaveShuffle:
		from = b.Bin(llvm.URem, k, w, llvm.Flags{})
	case schema.WaveShuffleXor:
		from = b.Xor(src.inWave, b.Bin(llvm.URem, k, w, llvm.Flags{}))
	case schema.WaveShuffleUp:
		from = b.Select(b.ICmp(llvm.UGT, k, src.inWave), constLike(k, -1), b.Sub(src.inWave, k))
	case schema.WaveShuffleDown:
		s64 := b.Add(b.Cast(llvm.ZExt, src.inWave, g.vec(llvm.I64)), b.Cast(llvm.ZExt, k, g.vec(llvm.I64)))
		past := b.ICmp(llvm.UGE, s64, &llvm.Splat{Len: g.W, X: i64(int64(ww))})
		from = b.Select(past, constLike(k, -1), b.Add(src.inWave, k))
	default:
		g.fail("the wave verb %v", e.Op)
	}
	r := v
	for l := range src.n {
		hit := b.And(src.on(l), b.ICmp(llvm.EQ, from, constLike(from, int64(src.index(l)))))
		r = b.Select(hit, src.value(l), r)
	}
	return value{x: r}
}

// waveWidth is WaveWidth().
func (g *gen) waveWidth() int { return int(Wave(g.k, g.t)) }

// wideWave lowers a wave verb whose wave spans k = WaveWidth/W chunks:
// a loop over the chunks keeps each one's operands and active lanes, a
// second computes each chunk's result from its wave's k chunks.
func (g *gen) wideWave(st *fission.Wave) {
	b := g.b
	k := g.waveWidth() / g.W
	// Room for whole waves: a partial last wave's missing chunks have
	// no active lanes.
	n := (int(g.nchunks) + k - 1) / k * k
	keep := make([]llvm.Value, len(st.Verb.Args))
	types := make([]llvm.Type, len(st.Verb.Args))
	for i, a := range st.Verb.Args {
		types[i] = g.vec(g.basic(a.Type()))
		if ir.IsKind(a.Type(), ir.Bool) {
			types[i] = g.vec(llvm.I8)
		}
		keep[i] = b.Alloca("wave.arg", &llvm.ArrayType{Len: n, Elem: types[i]}, 32)
	}
	onType := &llvm.ArrayType{Len: n, Elem: g.maskInt()}
	active := b.Alloca("wave.on", onType, 8)
	b.Store(&llvm.Zero{T: onType}, active, 8)
	at := func(i int, c llvm.Value) llvm.Value { return b.GEP(types[i], keep[i], c) }
	g.chunkLoop(func(c llvm.Value) {
		for i, a := range st.Verb.Args {
			x := g.splat(g.expr(a).x)
			if ir.IsKind(a.Type(), ir.Bool) {
				x = b.Cast(llvm.ZExt, x, types[i])
			}
			b.Store(x, at(i, c), llvm.SizeOf(llvm.Elem(types[i])))
		}
		b.Store(g.maskBits(g.mask()), b.GEP(g.maskInt(), active, c), 1)
	})
	g.chunkLoop(func(c llvm.Value) {
		load := func(i int, c llvm.Value) llvm.Value {
			x := b.Load(types[i], at(i, c), llvm.SizeOf(llvm.Elem(types[i])))
			if ir.IsKind(st.Verb.Args[i].Type(), ir.Bool) {
				x = b.ICmp(llvm.NE, x, zeroLike(x))
			}
			return x
		}
		args := make([]llvm.Value, len(keep))
		for i := range keep {
			args[i] = load(i, c)
		}
		pos := b.Bin(llvm.URem, c, i32(int64(k)), llvm.Flags{}) // the chunk's place in its wave
		first := b.Sub(c, pos)
		// The wave's chunks, and their lanes, loaded once.
		vals := make([]llvm.Value, k)
		ons := make([]llvm.Value, k)
		for j := range k {
			cj := b.Add(first, i32(int64(j)))
			vals[j] = load(0, cj)
			bits := b.Load(g.maskInt(), b.GEP(g.maskInt(), active, cj), 1)
			ons[j] = b.Cast(llvm.Bitcast, bits, g.vec(llvm.I1))
		}
		src := waveLanes{
			n: k * g.W,
			value: func(l int) llvm.Value {
				return b.Broadcast(g.W, b.ExtractElement(vals[l/g.W], i32(int64(l%g.W))))
			},
			on: func(l int) llvm.Value {
				return b.Broadcast(g.W, b.ExtractElement(ons[l/g.W], i32(int64(l%g.W))))
			},
			index:  func(l int) int { return l },
			inWave: b.Add(g.splat(b.Mul(pos, i32(int64(g.W)))), g.lanes()),
		}
		x := g.waveOp(st.Verb, args, src)
		if v := g.vars[st.Dst]; v != nil && v.ptr != nil {
			g.storeSlot(v.ptr, v.lt, x, true)
		}
	})
}
