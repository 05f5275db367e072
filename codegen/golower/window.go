package golower

import (
	"fmt"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
)

// This file hoists the bounds checks of a segment's buffer accesses out
// of the work-item loop. In a block of one row, an access whose index is
// lx plus a value every work-item of the block shares (y[i] with i :=
// t.GlobalX()) reaches the block's window of lanes of its buffer. When
// every such window lies inside its buffer, checked once per block, the
// work-item loop reads and writes through array pointers to the windows,
// indexed by lx, and the Go compiler proves the rest; otherwise the loop
// runs as written and faults where the kernel would.

// window is the block's window of lanes of one buffer access.
type window struct {
	name  string    // the array pointer's variable
	place string    // the access as written
	index *ir.Index // the access
}

// windowed writes the work-item loop of the segment stmts with its
// accesses through windows, or over the lanes that pass its guard
// (guard.go), or both, when it has any, with write writing the loop's
// body, and reports whether it did.
func (g *gen) windowed(stmts []ir.Stmt, write func()) bool {
	if g.size[1] != 1 || g.size[2] != 1 {
		return false
	}
	ws := g.windows(stmts)
	gd := g.laneGuard(stmts)
	if len(ws) == 0 && gd == nil {
		return false
	}
	n := g.size[0]
	label := g.segLabel // the loops' labels differ
	var fast, slow, written string
	if len(ws) > 0 {
		g.window = map[string]string{}
		for _, w := range ws {
			g.window[w.place] = w.name + "[lx]"
		}
		g.segLabel = label + "w"
		g.guarded = gd
		fast = g.capture(write)
		g.window = nil
	}
	if gd != nil {
		g.segLabel = label + "g"
		g.guarded = gd
		slow = g.capture(write)
		g.guarded = nil
	}
	g.segLabel = label
	written = g.capture(write)
	g.line("{")
	g.nest(func() {
		g.line("lx := uint32(0)")
		g.line("li := uint32(0)")
		g.line("_, _ = lx, li")
		var exprs []ir.Expr
		for _, w := range ws {
			exprs = append(exprs, w.index)
		}
		if gd != nil {
			exprs = append(exprs, gd.e, gd.u)
		}
		g.loadRemat(g.rematNeeded(nil, exprs...))
		if gd != nil {
			g.guardRange(gd)
		}
		var ok []string
		for _, w := range ws {
			buf := g.expr(w.index.X)
			g.line("var %s *[%d]%s", w.name, n, typeName(w.index.T))
			g.line("if o := %s; o <= %d && uint64(o)+%d <= uint64(len(%s)) {", g.expr(w.index.Index), uint32(1<<32-int64(n)), n, buf)
			g.line("\t%s = (*[%d]%s)(%s[o : uint64(o)+%d])", w.name, n, typeName(w.index.T), buf, n)
			g.line("}")
			ok = append(ok, w.name+" != nil")
		}
		used := g.usedLabel
		switch {
		case gd == nil:
			g.line("if %s {", strings.Join(ok, " && "))
			g.segLabel = label + "w"
			g.nest(func() { g.items(fast, used) })
		case len(ws) == 0:
			g.line("if gok {")
			g.segLabel = label + "g"
			g.nest(func() { g.itemsIn(slow, used, "lo", "hi") })
		default:
			// hi <= n always holds; said here, it lets the Go compiler
			// prove the windows' indexes below hi.
			g.line("if gok && %s && hi <= %d {", strings.Join(ok, " && "), n)
			g.segLabel = label + "w"
			g.nest(func() { g.itemsIn(fast, used, "lo", "hi") })
			g.line("} else if gok {")
			g.segLabel = label + "g"
			g.nest(func() { g.itemsIn(slow, used, "lo", "hi") })
		}
		g.segLabel = label
		g.line("} else {")
		g.nest(func() { g.items(written, used) })
		g.line("}")
	})
	g.line("}")
	return true
}

// windows returns the buffer accesses of stmts whose index is lx plus a
// value the block's work-items share, one per spelling.
func (g *gen) windows(stmts []ir.Stmt) []window {
	var ws []window
	seen := map[string]bool{}
	for _, s := range stmts {
		walkStmt(s, func(_ ir.Stmt, e ir.Expr) {
			ix, ok := e.(*ir.Index)
			if !ok || atomicElement(ix) || !isU32(ix.Index.Type()) {
				return
			}
			if _, ok := ix.X.(*ir.BufferRef); !ok {
				return
			}
			if c, ok := g.laneStep(ix.Index, nil); !ok || c != 1 {
				return
			}
			p := g.place(ix)
			if !seen[p] {
				seen[p] = true
				ws = append(ws, window{name: fmt.Sprintf("w%d", len(ws)), place: p, index: ix})
			}
		})
	}
	return ws
}
