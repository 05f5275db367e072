package wgslgen

// This file lowers the reductions, scans and votes of the folded tier
// (subgroups of S lanes, S < W): each subgroup first reduces its own lanes
// with a subgroup builtin, then the lanes of a wave combine the W/S
// subgroup results through workgroup memory. A subgroup's lanes are
// consecutive local indices, its first lane at a multiple of S, as the
// native tier assumes too.

import (
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// foldedBody lowers the body of a folded-tier helper of family f.
func (l *lowerer) foldedBody(h *waveHelperCtx, f waveFamily) wgsl.Expr {
	x := h.x
	part, own := wgsl.Id(l.temp()), wgsl.Id(l.temp()) // the subgroup's result; a scan's lane value within its subgroup
	set := func(v *wgsl.Ident, e wgsl.Expr) []wgsl.Stmt { return []wgsl.Stmt{&wgsl.Assign{LHS: v, RHS: e}} }
	l.emit(&wgsl.VarDecl{Name: part.Name, Type: h.t})
	if f == familyVote {
		p := bin(wgsl.Ne, x, wgsl.U32Lit(0))
		l.choose(h,
			opCase{opsOf(schema.WaveBallot), set(part, &wgsl.Member{X: wgsl.CallOf("subgroupBallot", p), Name: "x"})},
			opCase{opsOf(schema.WaveAny), set(part, wgsl.CallOf("select", wgsl.U32Lit(0), wgsl.U32Lit(1), wgsl.CallOf("subgroupAny", p)))},
			opCase{opsOf(schema.WaveAll), set(part, wgsl.CallOf("select", wgsl.U32Lit(0), wgsl.U32Lit(1), wgsl.CallOf("subgroupAll", p)))},
		)
	} else {
		l.choose(h,
			opCase{opsOf(schema.WaveMin), set(part, wgsl.CallOf("subgroupMin", x))},
			opCase{opsOf(schema.WaveMax), set(part, wgsl.CallOf("subgroupMax", x))},
			opCase{addOps, set(part, wgsl.CallOf("subgroupAdd", x))},
		)
	}
	scans := h.ops&scanOps != 0
	if scans {
		l.emit(&wgsl.VarDecl{Name: own.Name, Type: h.t, Init: &wgsl.Construct{Type: h.t}})
		l.choose(h,
			opCase{opsOf(schema.WavePrefixSum), set(own, wgsl.CallOf("subgroupInclusiveAdd", x))},
			opCase{opsOf(schema.WaveExclusivePrefixSum), set(own, wgsl.CallOf("subgroupExclusiveAdd", x))},
		)
	}
	l.exchange(h, part)

	sg := l.entryValue(sgSize)
	var mine wgsl.Expr // the lane's subgroup within its wave
	if scans {
		mine = l.let(bin(wgsl.Div, h.lane, sg))
	}
	acc, k := wgsl.Id(l.temp()), wgsl.Id(l.temp())
	l.emit(&wgsl.VarDecl{Name: acc.Name, Type: h.t, Init: h.accInit(f, part)})
	l.emit(&wgsl.VarDecl{Name: k.Name, Type: wgsl.U32Type, Init: wgsl.U32Lit(0)})
	l.laneLoop(k, func() {
		first := l.let(bin(wgsl.Mul, k, sg)) // subgroup k's first lane in the wave
		l.emit(&wgsl.If{Cond: bin(wgsl.Ge, first, h.width), Then: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Break{}}}})
		v := l.let(l.read(h, first))
		var in wgsl.Expr = bin(wgsl.Lt, bin(wgsl.Add, h.base, first), h.n)
		if scans {
			in = and(in, h.unless(scanOps, bin(wgsl.Lt, k, mine)))
		}
		l.ifThen(in, func() { l.choose(h, combine(h, f, acc, v, first)...) })
	})
	if scans {
		return h.pick(scanOps, bin(wgsl.Add, own, acc), acc)
	}
	return acc
}
