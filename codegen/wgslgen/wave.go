package wgslgen

// This file lowers the wave verbs and queries at one wave tier.
//
// A virtual wave of W lanes is a range of W consecutive local indices. The
// tiers differ in how lanes meet:
//
//   - native: the device's subgroups are the waves (subgroup size S = W,
//     or a width-agnostic kernel, whose W is S): subgroup builtins.
//   - folded (S < W): a wave spans W/S subgroups; each subgroup reduces,
//     scans or votes over its own lanes with a subgroup builtin, and the
//     lanes combine the W/S subgroup results through workgroup memory and
//     barriers (wavefold.go); shuffles go through workgroup memory, as in
//     the emulated tier.
//   - narrow (S > W): each subgroup holds S/W waves; lanes meet through
//     subgroupShuffle, each lane reading only the lanes of its own wave.
//   - emulated (no subgroups): lanes meet through workgroup memory and
//     barriers, legal because the front end admits wave verbs only in
//     workgroup-uniform control flow.
//
// Reductions and scans in the memory and shuffle tiers run over the lanes
// in lane order, as the reference runner does.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// EmulatedWidth is the wave width of a width-agnostic kernel in the
// emulated tier.
const EmulatedWidth = 32

// MaxSubgroup bounds the subgroup sizes the variants cover.
const MaxSubgroup = 128

// variant is the wave tier of one of a kernel's WGSL artifacts and the
// devices it is for.
type variant struct {
	tier schema.Tier
	sel  schema.Selector
}

// variants returns the tiers k needs, each with its selector: one without
// a tier for a kernel that uses no wave verb or query; for a
// width-agnostic kernel, native and emulated; for a declared width W,
// native (S = W), folded (S < W), narrow (W < S <= MaxSubgroup) and
// emulated, which runs on any device.
func variants(k *ir.Kernel) []variant {
	if !ir.UsesWaves(k) && k.Wave == 0 {
		return []variant{{}}
	}
	var vs []variant
	if w := k.Wave; w == 0 {
		maxS := uint32(MaxSubgroup)
		if usesBallot(k) {
			maxS = 32
		}
		vs = append(vs, variant{schema.TierNative, schema.Selector{SubgroupMin: 4, SubgroupMax: maxS}})
	} else {
		vs = append(vs, variant{schema.TierNative, schema.Selector{SubgroupMin: w, SubgroupMax: w, Width: w}})
		if w > 4 {
			vs = append(vs, variant{schema.TierFolded, schema.Selector{SubgroupMin: 4, SubgroupMax: w / 2, Width: w}})
		}
		if w < MaxSubgroup {
			vs = append(vs, variant{schema.TierNarrow, schema.Selector{SubgroupMin: 2 * w, SubgroupMax: MaxSubgroup, Width: w}})
		}
	}
	em := k.Wave
	if em == 0 {
		em = EmulatedWidth
	}
	return append(vs, variant{schema.TierEmulated, schema.Selector{Width: em}})
}

func usesBallot(k *ir.Kernel) bool {
	found := false
	ir.WalkStmts(k.Body, func(s ir.Stmt) bool {
		if w, _ := ir.WaveStmt(s); w != nil && w.Op == ir.WaveBallot {
			found = true
		}
		return !found
	})
	return found
}

// GenerateTier lowers k at tier and prints it.
func GenerateTier(k *ir.Kernel, tier schema.Tier) (string, error) {
	m, err := lower(k, tier)
	if err != nil {
		return "", err
	}
	return print(k, m)
}

// waveWidth returns the static wave width of the tier, or nil when it is
// the subgroup size (native, width-agnostic).
func (l *lowerer) waveWidth() wgsl.Expr {
	switch {
	case l.k.Wave != 0:
		return wgsl.U32Lit(l.k.Wave)
	case l.tier == schema.TierNative:
		return nil
	}
	return wgsl.U32Lit(EmulatedWidth)
}

// subgroups reports whether the tier uses subgroup builtins.
func (l *lowerer) subgroups() bool { return l.tier != "" && l.tier != schema.TierEmulated }

// waveQuery lowers WaveWidth and LaneIndex.
func (l *lowerer) waveQuery(fn ir.Builtin) wgsl.Expr {
	w := l.waveWidth()
	if w == nil {
		if fn == ir.WaveWidth {
			return l.entryValue(sgSize)
		}
		return l.entryValue(sgLane)
	}
	if fn == ir.WaveWidth {
		return w
	}
	return bin(wgsl.Rem, l.entryValue(entryBuiltins[4]), w)
}

// The subgroup builtins of the entry point.
var (
	sgLane = entryBuiltins[5]
	sgSize = entryBuiltins[6]
)

// scratch returns the workgroup array the memory tiers exchange through,
// declaring it on first use: one u32 per lane, the block rounded up to
// whole waves.
func (l *lowerer) scratch() wgsl.Expr {
	const name = "xpu_wave"
	if _, ok := l.globals[name]; !ok {
		b := l.blockSize()
		n, w := b[0]*b[1]*b[2], l.k.Wave
		if w == 0 {
			w = EmulatedWidth
		}
		l.globalDecls = append(l.globalDecls, &wgsl.GlobalVar{
			Space: wgsl.Workgroup, Name: l.global(name, "the wave exchange"),
			Type: &wgsl.Array{Elem: wgsl.U32Type, Len: int((n + w - 1) / w * w)},
		})
	}
	return wgsl.Id(name)
}

// waveCtx is what the lowering of one wave verb needs.
type waveCtx struct {
	w     *ir.Wave
	t     wgsl.Type // the operand's type as exchanged: the verb's, or u32 for a predicate
	xv    wgsl.Expr // the operand, bound
	width wgsl.Expr
	lane  wgsl.Expr
	base  wgsl.Expr // the local index of the wave's lane 0
	n     wgsl.Expr // the block's work-items
}

// waveStmt lowers dst = w (a Decl when decl).
func (l *lowerer) waveStmt(w *ir.Wave, dst *ir.Var, decl bool) {
	if l.tier == "" {
		l.fail(ruleWaveTier, "%s needs a wave tier", w.Op)
		return
	}
	name := l.local(dst)
	if decl {
		l.emit(&wgsl.VarDecl{Name: name, Type: l.typ(dst.Type)})
	}
	c := &waveCtx{w: w, t: l.typ(w.Args[0].Type())}
	x := l.expr(w.Args[0])
	if w.Op.IsPredicate() {
		c.t = wgsl.U32Type
		x = wgsl.CallOf("select", wgsl.U32Lit(0), wgsl.U32Lit(1), x)
	}
	c.xv = l.let(x)
	li := l.entryValue(entryBuiltins[4])
	c.width = l.waveQuery(ir.WaveWidth)
	c.lane = l.let(l.waveQuery(ir.LaneIndex))
	c.base = l.let(bin(wgsl.Sub, li, c.lane))
	b := l.blockSize()
	c.n = wgsl.U32Lit(b[0] * b[1] * b[2])
	var r wgsl.Expr
	if l.tier == schema.TierEmulated || l.tier == schema.TierFolded && w.Op.IsShuffle() {
		l.exchange(c, c.xv)
	}
	switch {
	case w.Op.IsShuffle():
		r = l.waveShuffle(c)
	case l.tier == schema.TierNative:
		r = l.waveNative(c)
	case l.tier == schema.TierFolded:
		r = l.waveFolded(c)
	default:
		r = l.waveLoop(c)
	}
	l.emit(&wgsl.Assign{LHS: wgsl.Id(name), RHS: r})
}

func isU32(t wgsl.Type) bool {
	s, ok := t.(*wgsl.Scalar)
	return ok && s.Kind == wgsl.U32
}

// read returns lane j's operand (j < width): from the exchange array, or
// through a shuffle.
func (l *lowerer) read(c *waveCtx, j wgsl.Expr) wgsl.Expr {
	switch l.tier {
	case schema.TierNative:
		return wgsl.CallOf("subgroupShuffle", c.xv, j)
	case schema.TierNarrow:
		sg := l.entryValue(sgLane)
		return wgsl.CallOf("subgroupShuffle", c.xv, bin(wgsl.Add, bin(wgsl.Sub, sg, bin(wgsl.Rem, sg, c.width)), j))
	}
	var x wgsl.Expr = &wgsl.Index{X: l.scratch(), Index: bin(wgsl.Add, c.base, j)}
	if !isU32(c.t) {
		x = &wgsl.Bitcast{Type: c.t, X: x}
	}
	return x
}

// waveShuffle lowers the shuffles: the source lane, whether it is in the
// wave, and the caller's own value when it is not (or is past the block).
func (l *lowerer) waveShuffle(c *waveCtx) wgsl.Expr {
	a := l.let(l.expr(c.w.Args[1]))
	var src, ok wgsl.Expr
	switch c.w.Op {
	case ir.WaveBroadcast, ir.WaveShuffle:
		src, ok = bin(wgsl.Rem, a, c.width), wgsl.BoolLit(true)
	case ir.WaveShuffleXor:
		src, ok = bin(wgsl.Xor, c.lane, bin(wgsl.Rem, a, c.width)), wgsl.BoolLit(true)
	case ir.WaveShuffleUp:
		ok = bin(wgsl.Le, a, c.lane)
		src = wgsl.CallOf("select", c.lane, bin(wgsl.Sub, c.lane, a), ok)
	case ir.WaveShuffleDown:
		ok = bin(wgsl.Lt, a, bin(wgsl.Sub, c.width, c.lane))
		src = wgsl.CallOf("select", c.lane, bin(wgsl.Add, c.lane, a), ok)
	}
	okv := l.let(ok)
	s := l.let(src)
	v := l.let(l.read(c, s))
	in := bin(wgsl.LAnd, okv, bin(wgsl.Lt, bin(wgsl.Add, c.base, s), c.n))
	return wgsl.CallOf("select", c.xv, v, in)
}

// waveNative lowers a reduction, scan or vote to a subgroup builtin.
func (l *lowerer) waveNative(c *waveCtx) wgsl.Expr {
	p := bin(wgsl.Ne, c.xv, wgsl.U32Lit(0))
	switch c.w.Op {
	case ir.WaveSum:
		return wgsl.CallOf("subgroupAdd", c.xv)
	case ir.WaveMin:
		return wgsl.CallOf("subgroupMin", c.xv)
	case ir.WaveMax:
		return wgsl.CallOf("subgroupMax", c.xv)
	case ir.WavePrefixSum:
		return wgsl.CallOf("subgroupInclusiveAdd", c.xv)
	case ir.WaveExclusivePrefixSum:
		return wgsl.CallOf("subgroupExclusiveAdd", c.xv)
	case ir.WaveBallot:
		return &wgsl.Member{X: wgsl.CallOf("subgroupBallot", p), Name: "x"}
	case ir.WaveAny:
		return wgsl.CallOf("subgroupAny", p)
	case ir.WaveAll:
		return wgsl.CallOf("subgroupAll", p)
	}
	l.fail(ruleIR, "wave verb %v", c.w.Op)
	return c.xv
}

// waveLoop lowers a reduction, scan or vote as a loop over the lanes of
// the wave, in lane order.
func (l *lowerer) waveLoop(c *waveCtx) wgsl.Expr {
	var init wgsl.Expr
	switch c.w.Op {
	case ir.WaveSum, ir.WavePrefixSum, ir.WaveExclusivePrefixSum:
		init = &wgsl.Construct{Type: c.t}
	case ir.WaveMin, ir.WaveMax:
		init = c.xv
	case ir.WaveBallot, ir.WaveAny:
		init = wgsl.U32Lit(0)
	case ir.WaveAll:
		init = wgsl.U32Lit(1)
	}
	acc, j := l.temp(), l.temp()
	l.emit(&wgsl.VarDecl{Name: acc, Type: c.t, Init: init})
	l.emit(&wgsl.VarDecl{Name: j, Type: wgsl.U32Type, Init: wgsl.U32Lit(0)})
	var body []wgsl.Stmt
	saved := l.fn.out
	l.fn.out = &body
	l.emit(&wgsl.If{Cond: bin(wgsl.Ge, wgsl.Id(j), c.width), Then: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Break{}}}})
	v := l.let(l.read(c, wgsl.Id(j)))
	in := bin(wgsl.Lt, bin(wgsl.Add, c.base, wgsl.Id(j)), c.n)
	switch c.w.Op {
	case ir.WavePrefixSum:
		in = bin(wgsl.LAnd, in, bin(wgsl.Le, wgsl.Id(j), c.lane))
	case ir.WaveExclusivePrefixSum:
		in = bin(wgsl.LAnd, in, bin(wgsl.Lt, wgsl.Id(j), c.lane))
	}
	var next wgsl.Expr
	a := wgsl.Id(acc)
	switch c.w.Op {
	case ir.WaveSum, ir.WavePrefixSum, ir.WaveExclusivePrefixSum:
		next = bin(wgsl.Add, a, v)
	case ir.WaveMin:
		next = wgsl.CallOf("min", a, v)
	case ir.WaveMax:
		next = wgsl.CallOf("max", a, v)
	case ir.WaveBallot:
		next = bin(wgsl.Or, a, bin(wgsl.Shl, v, wgsl.Id(j)))
	case ir.WaveAny:
		next = bin(wgsl.Or, a, v)
	case ir.WaveAll:
		next = bin(wgsl.And, a, v)
	default:
		l.fail(ruleIR, "wave verb %v", c.w.Op)
		next = a
	}
	l.emit(&wgsl.If{Cond: in, Then: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Assign{LHS: a, RHS: next}}}})
	l.fn.out = saved
	l.emit(&wgsl.Loop{
		Body:       &wgsl.Block{Stmts: body},
		Continuing: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Assign{LHS: wgsl.Id(j), RHS: bin(wgsl.Add, wgsl.Id(j), wgsl.U32Lit(1))}}},
	})
	if c.w.Op == ir.WaveAny || c.w.Op == ir.WaveAll {
		return bin(wgsl.Ne, a, wgsl.U32Lit(0))
	}
	return a
}
