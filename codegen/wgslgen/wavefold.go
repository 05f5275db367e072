package wgslgen

// This file lowers the reductions, scans and votes of the folded tier
// (subgroups of S lanes, S < W): each subgroup first reduces its own lanes
// with a subgroup builtin, then the lanes of a wave combine the W/S
// subgroup results through workgroup memory. A subgroup's lanes are
// consecutive local indices, its first lane at a multiple of S, as the
// native tier assumes too.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

// waveFolded lowers a reduction, scan or vote at the folded tier.
func (l *lowerer) waveFolded(c *waveCtx) wgsl.Expr {
	op := c.w.Op
	p := bin(wgsl.Ne, c.xv, wgsl.U32Lit(0))
	var part, own wgsl.Expr // the subgroup's result; a scan's lane value within its subgroup
	switch op {
	case ir.WaveSum:
		part = wgsl.CallOf("subgroupAdd", c.xv)
	case ir.WaveMin:
		part = wgsl.CallOf("subgroupMin", c.xv)
	case ir.WaveMax:
		part = wgsl.CallOf("subgroupMax", c.xv)
	case ir.WavePrefixSum:
		own, part = l.let(wgsl.CallOf("subgroupInclusiveAdd", c.xv)), wgsl.CallOf("subgroupAdd", c.xv)
	case ir.WaveExclusivePrefixSum:
		own, part = l.let(wgsl.CallOf("subgroupExclusiveAdd", c.xv)), wgsl.CallOf("subgroupAdd", c.xv)
	case ir.WaveBallot:
		part = &wgsl.Member{X: wgsl.CallOf("subgroupBallot", p), Name: "x"}
	case ir.WaveAny:
		part = wgsl.CallOf("select", wgsl.U32Lit(0), wgsl.U32Lit(1), wgsl.CallOf("subgroupAny", p))
	case ir.WaveAll:
		part = wgsl.CallOf("select", wgsl.U32Lit(0), wgsl.U32Lit(1), wgsl.CallOf("subgroupAll", p))
	default:
		l.fail(ruleIR, "wave verb %v", op)
		return c.xv
	}
	partv := l.let(part)
	l.exchange(c, partv)

	var init wgsl.Expr
	switch op {
	case ir.WaveSum, ir.WavePrefixSum, ir.WaveExclusivePrefixSum:
		init = &wgsl.Construct{Type: c.t}
	case ir.WaveMin, ir.WaveMax:
		init = partv
	case ir.WaveBallot, ir.WaveAny:
		init = wgsl.U32Lit(0)
	case ir.WaveAll:
		init = wgsl.U32Lit(1)
	}
	sg := l.entryValue(sgSize)
	var mine wgsl.Expr // the lane's subgroup within its wave
	if own != nil {
		mine = l.let(bin(wgsl.Div, c.lane, sg))
	}
	acc, k := l.temp(), l.temp()
	l.emit(&wgsl.VarDecl{Name: acc, Type: c.t, Init: init})
	l.emit(&wgsl.VarDecl{Name: k, Type: wgsl.U32Type, Init: wgsl.U32Lit(0)})
	var body []wgsl.Stmt
	saved := l.fn.out
	l.fn.out = &body
	first := l.let(bin(wgsl.Mul, wgsl.Id(k), sg)) // subgroup k's first lane in the wave
	l.emit(&wgsl.If{Cond: bin(wgsl.Ge, first, c.width), Then: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Break{}}}})
	v := l.let(l.read(c, first))
	in := bin(wgsl.Lt, bin(wgsl.Add, c.base, first), c.n)
	if mine != nil {
		in = bin(wgsl.LAnd, in, bin(wgsl.Lt, wgsl.Id(k), mine))
	}
	a := wgsl.Id(acc)
	var next wgsl.Expr
	switch op {
	case ir.WaveSum, ir.WavePrefixSum, ir.WaveExclusivePrefixSum:
		next = bin(wgsl.Add, a, v)
	case ir.WaveMin:
		next = wgsl.CallOf("min", a, v)
	case ir.WaveMax:
		next = wgsl.CallOf("max", a, v)
	case ir.WaveBallot:
		next = bin(wgsl.Or, a, bin(wgsl.Shl, v, first))
	case ir.WaveAny:
		next = bin(wgsl.Or, a, v)
	case ir.WaveAll:
		next = bin(wgsl.And, a, v)
	}
	l.emit(&wgsl.If{Cond: in, Then: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Assign{LHS: a, RHS: next}}}})
	l.fn.out = saved
	l.emit(&wgsl.Loop{
		Body:       &wgsl.Block{Stmts: body},
		Continuing: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Assign{LHS: wgsl.Id(k), RHS: bin(wgsl.Add, wgsl.Id(k), wgsl.U32Lit(1))}}},
	})
	switch {
	case own != nil:
		return bin(wgsl.Add, own, a)
	case op == ir.WaveAny || op == ir.WaveAll:
		return bin(wgsl.Ne, a, wgsl.U32Lit(0))
	}
	return a
}

// exchange puts x, as bits, in the lane's slot of the wave exchange array
// between two barriers, so that every lane of the block may read it.
func (l *lowerer) exchange(c *waveCtx, x wgsl.Expr) {
	li := l.entryValue(entryBuiltins[4])
	l.emit(&wgsl.CallStmt{Call: wgsl.CallOf("workgroupBarrier")})
	if !isU32(c.t) {
		x = &wgsl.Bitcast{Type: wgsl.U32Type, X: x}
	}
	l.emit(&wgsl.Assign{LHS: &wgsl.Index{X: l.scratch(), Index: li}, RHS: x})
	l.emit(&wgsl.CallStmt{Call: wgsl.CallOf("workgroupBarrier")})
}
