package wgslgen

// This file builds the wave helpers: outside the native tier's one-builtin
// verbs, each wave verb calls a module function of its family (reduction
// and scan, vote, shuffle) and operand type, which takes the verb as its
// last operand, op (the verb's schema.WaveOp). A helper holds the branches of
// the verbs the kernel uses, so a kernel of many verbs carries one body
// per family and type, not one per call. The front end admits wave verbs
// only in workgroup-uniform control flow, and op is a literal at every
// call, so the barriers and subgroup builtins inside a helper run in
// uniform control flow, as WGSL's uniformity analysis checks.

import (
	"fmt"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// waveFamily groups the verbs one helper serves.
type waveFamily int

const (
	familyReduce  waveFamily = iota // WaveSum .. WaveExclusivePrefixSum
	familyVote                      // WaveBallot, WaveAny, WaveAll
	familyShuffle                   // WaveShuffle, WaveShuffleXor, WaveShuffleUp, WaveShuffleDown
)

func waveFamilyOf(op schema.WaveOp) waveFamily {
	switch {
	case op.IsShuffle():
		return familyShuffle
	case op.IsPredicate():
		return familyVote
	}
	return familyReduce
}

// waveCode is the verb a helper is told: WaveBroadcast is WaveShuffle.
func waveCode(op schema.WaveOp) schema.WaveOp {
	if op == schema.WaveBroadcast {
		return schema.WaveShuffle
	}
	return op
}

// opSet is a set of wave verbs.
type opSet uint32

func opsOf(ops ...schema.WaveOp) opSet {
	var s opSet
	for _, o := range ops {
		s |= 1 << o
	}
	return s
}

func (s opSet) has(op schema.WaveOp) bool { return s&(1<<op) != 0 }

// The verbs of each family, in the order their branches appear.
var (
	scanOps    = opsOf(schema.WavePrefixSum, schema.WaveExclusivePrefixSum)
	minMaxOps  = opsOf(schema.WaveMin, schema.WaveMax)
	addOps     = opsOf(schema.WaveSum, schema.WavePrefixSum, schema.WaveExclusivePrefixSum)
	shuffleOps = opsOf(schema.WaveShuffle)
)

// waveHelperName names the helper of family f for operands of type t.
func waveHelperName(f waveFamily, t wgsl.Type) string {
	switch f {
	case familyVote:
		return "xpu_wave_vote"
	case familyShuffle:
		return "xpu_wave_shuffle_" + scalarName(t)
	}
	return "xpu_wave_reduce_" + scalarName(t)
}

func scalarName(t wgsl.Type) string {
	if s, ok := t.(*wgsl.Scalar); ok {
		return s.Kind.String()
	}
	return "x"
}

// waveUses returns the verbs the kernel's body and functions call, by the
// helper that serves them.
func (l *lowerer) waveUses() map[string]opSet {
	uses := map[string]opSet{}
	see := func(s ir.Stmt) bool {
		if w, _ := ir.WaveStmt(s); w != nil {
			op := waveCode(w.Op)
			t := wgsl.Type(wgsl.U32Type)
			if !op.IsPredicate() {
				t = l.typ(w.Args[0].Type())
			}
			uses[waveHelperName(waveFamilyOf(op), t)] |= opsOf(op)
		}
		return true
	}
	ir.WalkStmts(l.k.Body, see)
	for _, f := range l.k.Funcs {
		ir.WalkStmts(f.Body, see)
	}
	return uses
}

// waveHelper declares, on first use, the helper of family f for operands
// of type t at the module's tier, and returns its name.
func (l *lowerer) waveHelper(f waveFamily, t wgsl.Type) string {
	name := waveHelperName(f, t)
	if _, ok := l.helpers[name]; ok {
		return name
	}
	if l.waveOps == nil {
		l.waveOps = l.waveUses()
	}
	saved := l.fn
	var body []wgsl.Stmt
	l.fn = newFuncState(false, &body)
	h := l.newWaveHelper(t, l.waveOps[name])
	params := []*wgsl.Param{{Name: "x", Type: t}}
	var r wgsl.Expr
	switch {
	case f == familyShuffle:
		params = append(params, &wgsl.Param{Name: "a", Type: wgsl.U32Type})
		r = l.shuffleBody(h)
	case l.tier == schema.TierFolded:
		r = l.foldedBody(h, f)
	default:
		r = l.laneLoopBody(h, f)
	}
	l.emit(&wgsl.Return{Value: r})
	l.fn = saved
	params = append(params, &wgsl.Param{Name: "op", Type: wgsl.U32Type})
	l.helpers[name] = &wgsl.Func{
		Doc:    fmt.Sprintf("%s is the verb op of x, one of %s, at the %s tier.", name, h.ops, l.tier),
		Name:   l.global(name, "helper "+name),
		Params: params, Result: t, Body: &wgsl.Block{Stmts: body},
	}
	return name
}

func (s opSet) String() string {
	var names []string
	for op := range schema.WaveShuffleDown + 1 {
		if s.has(op) {
			names = append(names, op.String())
		}
	}
	return strings.Join(names, ", ")
}

// waveHelperCtx is what the body of one helper needs.
type waveHelperCtx struct {
	t     wgsl.Type // the operand's type
	ops   opSet     // the verbs the kernel calls it for
	x, op wgsl.Expr // the operand and the verb
	width wgsl.Expr
	lane  wgsl.Expr
	base  wgsl.Expr // the local index of the wave's lane 0
	n     wgsl.Expr // the block's work-items
}

func (l *lowerer) newWaveHelper(t wgsl.Type, ops opSet) *waveHelperCtx {
	h := &waveHelperCtx{t: t, ops: ops, x: wgsl.Id("x"), op: wgsl.Id("op")}
	li := l.entryValue(entryBuiltins[4])
	h.width = l.waveQuery(ir.WaveWidth)
	h.lane = l.let(l.waveQuery(ir.LaneIndex))
	h.base = l.let(bin(wgsl.Sub, li, h.lane))
	b := l.blockSize()
	h.n = wgsl.U32Lit(b[0] * b[1] * b[2])
	return h
}

// is returns the condition that op is one of s (nil: always, as every
// verb the helper serves is in s).
func (h *waveHelperCtx) is(s opSet) wgsl.Expr {
	var c wgsl.Expr
	for op := range schema.WaveShuffleDown + 1 {
		if !(h.ops & s).has(op) {
			continue
		}
		e := bin(wgsl.Eq, h.op, wgsl.U32Lit(uint32(op)))
		if c == nil {
			c = e
		} else {
			c = bin(wgsl.LOr, c, e)
		}
	}
	if h.ops&^s == 0 {
		return nil
	}
	return c
}

// pick returns yes when op is in s, no otherwise.
func (h *waveHelperCtx) pick(s opSet, yes, no wgsl.Expr) wgsl.Expr {
	switch {
	case h.ops&s == 0:
		return no
	case h.ops&^s == 0:
		return yes
	}
	return wgsl.CallOf("select", no, yes, h.is(s))
}

// unless returns c when op is in s and true otherwise, as a condition:
// c, c || op != k && ..., or nil when op is never in s.
func (h *waveHelperCtx) unless(s opSet, c wgsl.Expr) wgsl.Expr {
	switch {
	case h.ops&s == 0:
		return nil
	case h.ops&^s == 0:
		return c
	}
	var out []wgsl.Expr
	for op := range schema.WaveShuffleDown + 1 {
		if (h.ops & s).has(op) {
			out = append(out, bin(wgsl.Ne, h.op, wgsl.U32Lit(uint32(op))))
		}
	}
	return bin(wgsl.LOr, c, and(out...))
}

// opCase is what a helper does for the verbs of ops.
type opCase struct {
	ops opSet
	do  []wgsl.Stmt
}

// choose emits the case of op: a chain of ifs over the cases the helper
// serves, the last one untested when the others leave only it.
func (l *lowerer) choose(h *waveHelperCtx, cases ...opCase) {
	var live []opCase
	for _, c := range cases {
		if h.ops&c.ops != 0 {
			live = append(live, c)
		}
	}
	var covered opSet
	for _, c := range live {
		covered |= c.ops
	}
	var chain wgsl.Stmt
	for i := len(live) - 1; i >= 0; i-- {
		c := live[i]
		blk := &wgsl.Block{Stmts: c.do}
		if i == len(live)-1 && h.ops&^covered == 0 {
			if i == 0 {
				l.emit(c.do...)
				return
			}
			chain = blk
			continue
		}
		chain = &wgsl.If{Cond: h.is(c.ops), Then: blk, Else: chain}
	}
	if chain != nil {
		l.emit(chain)
	}
}

// and joins the conditions that are not nil.
func and(cs ...wgsl.Expr) wgsl.Expr {
	var r wgsl.Expr
	for _, c := range cs {
		switch {
		case c == nil:
		case r == nil:
			r = c
		default:
			r = bin(wgsl.LAnd, r, c)
		}
	}
	return r
}

// combine returns the step that folds v, the value of lane (or first
// subgroup lane) j, into acc.
func combine(h *waveHelperCtx, f waveFamily, acc, v, j wgsl.Expr) []opCase {
	set := func(e wgsl.Expr) []wgsl.Stmt { return []wgsl.Stmt{&wgsl.Assign{LHS: acc, RHS: e}} }
	if f == familyVote {
		return []opCase{
			{opsOf(schema.WaveBallot), set(bin(wgsl.Or, acc, bin(wgsl.Shl, v, j)))},
			{opsOf(schema.WaveAny), set(bin(wgsl.Or, acc, v))},
			{opsOf(schema.WaveAll), set(bin(wgsl.And, acc, v))},
		}
	}
	return []opCase{
		{opsOf(schema.WaveMin), set(wgsl.CallOf("min", acc, v))},
		{opsOf(schema.WaveMax), set(wgsl.CallOf("max", acc, v))},
		{addOps, set(bin(wgsl.Add, acc, v))},
	}
}

// accInit returns the starting value of a reduction of the family over
// own, the lane's (or its subgroup's) value.
func (h *waveHelperCtx) accInit(f waveFamily, own wgsl.Expr) wgsl.Expr {
	if f == familyVote {
		return h.pick(opsOf(schema.WaveAll), wgsl.U32Lit(1), wgsl.U32Lit(0))
	}
	return h.pick(minMaxOps, own, &wgsl.Construct{Type: h.t})
}

// laneLoopBody lowers a reduction, scan or vote at the emulated or narrow
// tier as a loop over the lanes of the wave, in lane order.
func (l *lowerer) laneLoopBody(h *waveHelperCtx, f waveFamily) wgsl.Expr {
	if l.tier == schema.TierEmulated {
		l.exchange(h, h.x)
	}
	acc, j := wgsl.Id(l.temp()), wgsl.Id(l.temp())
	l.emit(&wgsl.VarDecl{Name: acc.Name, Type: h.t, Init: h.accInit(f, h.x)})
	l.emit(&wgsl.VarDecl{Name: j.Name, Type: wgsl.U32Type, Init: wgsl.U32Lit(0)})
	l.laneLoop(j, func() {
		l.emit(&wgsl.If{Cond: bin(wgsl.Ge, j, h.width), Then: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Break{}}}})
		v := l.let(l.read(h, j))
		in := and(bin(wgsl.Lt, bin(wgsl.Add, h.base, j), h.n),
			h.unless(opsOf(schema.WavePrefixSum), bin(wgsl.Le, j, h.lane)),
			h.unless(opsOf(schema.WaveExclusivePrefixSum), bin(wgsl.Lt, j, h.lane)))
		l.ifThen(in, func() { l.choose(h, combine(h, f, acc, v, j)...) })
	})
	return acc
}

// laneLoop emits loop { body continuing { j = j + 1u; } }.
func (l *lowerer) laneLoop(j *wgsl.Ident, body func()) {
	var stmts []wgsl.Stmt
	saved := l.fn.out
	l.fn.out = &stmts
	body()
	l.fn.out = saved
	l.emit(&wgsl.Loop{
		Body:       &wgsl.Block{Stmts: stmts},
		Continuing: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Assign{LHS: j, RHS: bin(wgsl.Add, j, wgsl.U32Lit(1))}}},
	})
}

// ifThen emits if cond { then }.
func (l *lowerer) ifThen(cond wgsl.Expr, then func()) {
	var stmts []wgsl.Stmt
	saved := l.fn.out
	l.fn.out = &stmts
	then()
	l.fn.out = saved
	l.emit(&wgsl.If{Cond: cond, Then: &wgsl.Block{Stmts: stmts}})
}

// shuffleBody lowers the shuffles: the source lane, whether it is in the
// wave, and the caller's own value when it is not (or is past the block).
func (l *lowerer) shuffleBody(h *waveHelperCtx) wgsl.Expr {
	if l.tier == schema.TierEmulated || l.tier == schema.TierFolded {
		l.exchange(h, h.x)
	}
	a := wgsl.Id("a")
	src, ok := wgsl.Id(l.temp()), wgsl.Id("")
	upDown := opsOf(schema.WaveShuffleUp, schema.WaveShuffleDown)
	l.emit(&wgsl.VarDecl{Name: src.Name, Type: wgsl.U32Type})
	if h.ops&upDown != 0 {
		ok.Name = l.temp()
		l.emit(&wgsl.VarDecl{Name: ok.Name, Type: wgsl.BoolType, Init: wgsl.BoolLit(true)})
	}
	setSrc := func(e wgsl.Expr) wgsl.Stmt { return &wgsl.Assign{LHS: src, RHS: e} }
	setOK := func(e wgsl.Expr) wgsl.Stmt { return &wgsl.Assign{LHS: ok, RHS: e} }
	l.choose(h,
		opCase{shuffleOps, []wgsl.Stmt{setSrc(bin(wgsl.Rem, a, h.width))}},
		opCase{opsOf(schema.WaveShuffleXor), []wgsl.Stmt{setSrc(bin(wgsl.Xor, h.lane, bin(wgsl.Rem, a, h.width)))}},
		opCase{opsOf(schema.WaveShuffleUp), []wgsl.Stmt{
			setOK(bin(wgsl.Le, a, h.lane)),
			setSrc(wgsl.CallOf("select", h.lane, bin(wgsl.Sub, h.lane, a), ok)),
		}},
		opCase{opsOf(schema.WaveShuffleDown), []wgsl.Stmt{
			setOK(bin(wgsl.Lt, a, bin(wgsl.Sub, h.width, h.lane))),
			setSrc(wgsl.CallOf("select", h.lane, bin(wgsl.Add, h.lane, a), ok)),
		}},
	)
	v := l.let(l.read(h, src))
	in := bin(wgsl.Lt, bin(wgsl.Add, h.base, src), h.n)
	if h.ops&upDown != 0 {
		in = bin(wgsl.LAnd, ok, in)
	}
	return wgsl.CallOf("select", h.x, v, in)
}

// read returns lane j's operand (j < width): from the exchange array, or
// through a shuffle.
func (l *lowerer) read(h *waveHelperCtx, j wgsl.Expr) wgsl.Expr {
	switch l.tier {
	case schema.TierNative:
		return wgsl.CallOf("subgroupShuffle", h.x, j)
	case schema.TierNarrow:
		sg := l.entryValue(sgLane)
		return wgsl.CallOf("subgroupShuffle", h.x, bin(wgsl.Add, bin(wgsl.Sub, sg, bin(wgsl.Rem, sg, h.width)), j))
	}
	var x wgsl.Expr = &wgsl.Index{X: l.scratch(), Index: bin(wgsl.Add, h.base, j)}
	if !isU32(h.t) {
		x = &wgsl.Bitcast{Type: h.t, X: x}
	}
	return x
}

// exchange puts x, as bits, in the lane's slot of the wave exchange array
// between two barriers, so that every lane of the block may read it.
func (l *lowerer) exchange(h *waveHelperCtx, x wgsl.Expr) {
	li := l.entryValue(entryBuiltins[4])
	l.emit(&wgsl.CallStmt{Call: wgsl.CallOf("workgroupBarrier")})
	if !isU32(h.t) {
		x = &wgsl.Bitcast{Type: wgsl.U32Type, X: x}
	}
	l.emit(&wgsl.Assign{LHS: &wgsl.Index{X: l.scratch(), Index: li}, RHS: x})
	l.emit(&wgsl.CallStmt{Call: wgsl.CallOf("workgroupBarrier")})
}
