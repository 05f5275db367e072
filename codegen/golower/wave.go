package golower

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/ir/fission"
	"github.com/goxpu/xpu/schema"
)

// This file lowers the wave verbs. A statement d := xpu.WaveSum(t, x) is
// a point where the lanes of a wave meet, so the body is split there as
// at a barrier: a loop over the work-items gathers every lane's operands
// into block arrays, then one call of the CPU backend's wave routine
// computes every lane's result into d's per-work-item array. Waves run at
// b.Wave lanes: the declared width, or the processor's lane width.

// wave writes a wave node: the gather loop and the combining call. An
// operand that is a variable kept in a per-work-item array is passed as
// that array, unless the verb writes its result there; when no work-item
// has returned, every lane takes part (allLanes), so the loop gathers only
// what is not such an array, and runs only when something is.
func (g *gen) wave(n *fission.Wave) {
	bn := g.blockCount()
	x, lane, on := fmt.Sprintf("wx%d", n.ID), fmt.Sprintf("wl%d", n.ID), fmt.Sprintf("won%d", n.ID)
	shuffle := n.Verb.Op.IsShuffle()
	direct := func(e ir.Expr) (string, bool) {
		r, ok := e.(*ir.VarRef)
		if !ok || g.done || !g.cross[r.Var] || r.Var == n.Dst {
			return "", false
		}
		if _, ok := laneMajor(r.Var); ok {
			return "", false
		}
		return "a_" + r.Var.Name, true
	}
	xs, xDirect := direct(n.Verb.Args[0])
	ls, lDirect := "", !shuffle
	if shuffle {
		ls, lDirect = direct(n.Verb.Args[1])
	}
	if !xDirect {
		xs = x
		g.line("var %s [%d]%s", x, bn, typeName(n.Verb.Args[0].Type()))
	}
	if !lDirect {
		ls = lane
		g.line("var %s [%d]uint32", lane, bn)
	}
	ons := allLanes
	if g.done {
		ons = on
		g.line("var %s [%d]bool", on, bn)
	}
	var vars []*ir.Var
	for i, a := range n.Verb.Args {
		if i == 0 && xDirect || i == 1 && lDirect {
			continue
		}
		walkExpr(a, func(e ir.Expr) {
			if r, ok := e.(*ir.VarRef); ok && g.cross[r.Var] && !slices.Contains(vars, r.Var) {
				vars = append(vars, r.Var)
			}
		})
	}
	slices.SortFunc(vars, func(a, b *ir.Var) int { return strings.Compare(a.Name, b.Name) })
	if !xDirect || !lDirect || g.done {
		body := g.capture(func() {
			g.loadCross(vars, nil)
			g.loadRemat(g.rematNeeded(nil, n.Verb.Args...))
			if !xDirect {
				g.line("%s[li] = %s", x, g.expr(n.Verb.Args[0]))
			}
			if !lDirect {
				g.line("%s[li] = %s", lane, g.expr(n.Verb.Args[1]))
			}
			if g.done {
				g.line("%s[li] = true", on)
			}
		})
		g.items(body, false)
	}
	out := "a_" + n.Dst.Name + "[:]"
	switch n.Verb.Op {
	case schema.WaveBallot:
		g.line("%s(%s[:], %s[:], b.Wave, %s)", g.call("gpuimpl", "CPUWaveBallot"), xs, ons, out)
	case schema.WaveAny, schema.WaveAll:
		g.line("%s(%v, %s[:], %s[:], b.Wave, %s)", g.call("gpuimpl", "CPUWaveVote"), n.Verb.Op == schema.WaveAll, xs, ons, out)
	default:
		l := "nil"
		if shuffle {
			l = ls + "[:]"
		}
		g.line("%s(%s.%v, %s[:], %s, %s[:], b.Wave, %s)", g.call("gpuimpl", "CPUWave"), g.gpu, n.Verb.Op, xs, l, ons, out)
	}
}

// allLanes is the block function's array of every lane taking part in a
// wave verb, declared when the kernel has a wave verb and no work-item
// returns early.
const allLanes = "wall"

// declareAllLanes declares allLanes where the function needs it.
func (g *gen) declareAllLanes() {
	uses := false
	walkWaves(g.nodes, func(*fission.Wave) { uses = true })
	if !uses || g.done {
		return
	}
	g.line("var %s [%d]bool", allLanes, g.blockCount())
	g.line("for i := range %s {", allLanes)
	g.line("\t%s[i] = true", allLanes)
	g.line("}")
}

// walkWaves calls f for every wave node among nodes.
func walkWaves(nodes []fission.Node, f func(*fission.Wave)) {
	fission.Visit(nodes, func(n fission.Node) {
		if w, ok := n.(*fission.Wave); ok {
			f(w)
		}
	})
}
