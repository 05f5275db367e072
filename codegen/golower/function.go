package golower

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/ir/fission"
)

// This file writes the block function: its prologue (buffer views,
// uniforms, shared and per-work-item arrays, device functions) and the
// nodes of the split body.

func (g *gen) function() {
	k := g.k
	g.line("// %s runs one block of the kernel %s on the CPU.", g.fn, k.Name)
	g.line("func %s(b *%s.CPUBlock) {", g.fn, g.gpu)
	g.indent++
	var names []string
	for _, p := range k.Params {
		name := "p_" + p.Name
		names = append(names, name)
		if p.Kind == ir.BufferParam {
			g.line("%s := %s.CPUView[%s](b.Buffers[%d])", name, g.gpu, typeName(p.Type), p.Binding)
		} else {
			g.line("%s := %s.CPUUniform[%s](b.Uniforms, %d)", name, g.gpu, typeName(p.Type), p.Binding)
		}
	}
	for _, s := range k.Shared {
		g.line("var s_%s [%d]%s", s.Name, s.Len, typeName(s.Elem))
	}
	bn := g.blockCount()
	for _, v := range g.crossVars() {
		if a, ok := laneMajor(v); ok {
			g.line("var a_%s [%d]%s", v.Name, int(bn)*a.Len, typeName(a.Elem))
			continue
		}
		g.line("var a_%s [%d]%s", v.Name, bn, typeName(v.Type))
	}
	for _, v := range g.scalarVars() {
		g.line("var %s %s", varName(v), typeName(v.Type))
		names = append(names, varName(v))
	}
	if g.done {
		g.line("var done [%d]bool", bn)
	}
	g.declareAllLanes()
	for i, axis := range []string{"X", "Y", "Z"} {
		g.line("g%s0 := b.Group.%s*%d", "xyz"[i:i+1], axis, g.size[i])
		names = append(names, "g"+"xyz"[i:i+1]+"0")
	}
	for i, axis := range []string{"ly", "lz"} {
		if g.size[i+1] == 1 {
			g.line("var %s uint32", axis)
			names = append(names, axis)
		}
	}
	g.line("stop := b.Stopping()")
	names = append(names, "stop")
	for _, n := range names {
		g.line("_ = %s", n)
	}
	for _, f := range k.Funcs {
		g.deviceFunc(f)
	}
	g.nodes2(g.nodes)
	g.indent--
	g.line("}")
}

// crossVars returns the variables live across a barrier, by name.
func (g *gen) crossVars() []*ir.Var {
	vs := make([]*ir.Var, 0, len(g.cross))
	for v := range g.cross {
		vs = append(vs, v)
	}
	slices.SortFunc(vs, func(a, b *ir.Var) int { return strings.Compare(a.Name, b.Name) })
	return vs
}

// scalarVars returns the block scalars, by name.
func (g *gen) scalarVars() []*ir.Var {
	vs := make([]*ir.Var, 0, len(g.store.scalar))
	for v := range g.store.scalar {
		vs = append(vs, v)
	}
	slices.SortFunc(vs, func(a, b *ir.Var) int { return strings.Compare(a.Name, b.Name) })
	return vs
}

// deviceFunc writes a device function as a closure of the block function:
// it sees the buffers and shared arrays, and takes the work-item's local
// coordinates before its own parameters.
func (g *gen) deviceFunc(f *ir.Func) {
	params := []string{"lx, ly, lz uint32"}
	for _, p := range f.Params {
		params = append(params, varName(p)+" "+typeName(p.Type))
	}
	result := ""
	if f.Result != nil {
		result = " " + typeName(f.Result)
	}
	g.line("f_%s := func(%s)%s {", f.Name, strings.Join(params, ", "), result)
	g.nest(func() {
		g.inFunc = true
		g.stmts(f.Body.Stmts)
		if n := len(f.Body.Stmts); f.Result != nil && (n == 0 || !isReturn(f.Body.Stmts[n-1])) {
			g.line("panic(%q)", "xpu: device function "+f.GoName+" ended without a return")
		}
		g.inFunc = false
	})
	g.line("}")
	g.line("_ = f_%s", f.Name)
}

func isReturn(s ir.Stmt) bool {
	_, ok := s.(*ir.Return)
	return ok
}

func (g *gen) nodes2(nodes []fission.Node) {
	for _, n := range nodes {
		switch n := n.(type) {
		case *fission.Segment:
			g.segment(n)
		case *fission.Wave:
			g.wave(n)
		case *fission.If:
			c := g.uniformCondition(n.ID, n.Cond)
			g.line("if %s {", c)
			g.nest(func() { g.nodes2(n.Then) })
			if len(n.Else) > 0 {
				g.line("} else {")
				g.nest(func() { g.nodes2(n.Else) })
			}
			g.line("}")
		case *fission.Loop:
			g.line("for {")
			g.nest(func() {
				g.poll()
				if n.Cond != nil {
					c := g.uniformCondition(n.ID, n.Cond)
					g.line("if !%s {", c)
					g.line("\tbreak")
					g.line("}")
				}
				g.nodes2(n.Body)
				g.nodes2(n.Post)
			})
			g.line("}")
		}
	}
}

// segment writes the segment's uniform statements once and a loop over
// the block's work-items that runs the rest for each.
func (g *gen) segment(s *fission.Segment) {
	stmts := s.Stmts
	for len(stmts) > 0 && g.store.hoist[stmts[0]] {
		g.stmt(stmts[0])
		stmts = stmts[1:]
	}
	if len(stmts) == 0 {
		return
	}
	g.segLabel = fmt.Sprintf("items%d", s.ID)
	g.usedLabel = false
	vars := g.segmentVars(stmts)
	write := func() {
		g.loadCross(vars, stmts)
		g.loadRemat(g.rematNeeded(stmts))
		g.stmts(stmts)
		for _, v := range vars {
			if written(stmts, v) {
				g.storeCross(v)
			}
		}
	}
	body := g.capture(write)
	if g.strip(stmts, body) || g.rows(stmts) || g.windowed(stmts, write) {
		return
	}
	g.items(body, g.usedLabel)
}

// items writes the work-item loops around body: z, then y, then x
// innermost, with li the linear local index.
func (g *gen) items(body string, label bool) {
	g.itemsIn(body, label, "uint32(0)", fmt.Sprint(g.size[0]))
}

// itemsIn is items with x running from lo to below hi.
func (g *gen) itemsIn(body string, label bool, lo, hi string) {
	open := 0
	for i, axis := range []string{"lz", "ly"} {
		if n := g.size[2-i]; n > 1 {
			g.line("for %s := uint32(0); %s < %d; %s++ {", axis, axis, n, axis)
			g.indent++
			open++
		}
	}
	if label {
		g.line("%s:", g.segLabel)
	}
	g.line("for lx := %s; lx < %s; lx++ {", lo, hi)
	g.nest(func() {
		if g.size[1] == 1 && g.size[2] == 1 {
			g.line("li := lx")
		} else {
			g.line("li := lx + %d*ly + %d*lz", g.size[0], g.size[0]*g.size[1])
		}
		g.line("_ = li")
		if g.done {
			g.line("if done[li] {")
			g.line("\tcontinue")
			g.line("}")
		}
	})
	g.out.WriteString(body)
	g.line("}")
	for range open {
		g.indent--
		g.line("}")
	}
}

// loadCross declares the work-item's copies of the variables live across
// barriers that a segment uses; one that the segment's statements stmts
// set before any use (sets) starts as its zero value.
func (g *gen) loadCross(vars []*ir.Var, stmts []ir.Stmt) {
	for _, v := range vars {
		if sets(stmts, v) {
			g.line("var %s %s", varName(v), typeName(v.Type))
			continue
		}
		if _, ok := laneMajor(v); ok {
			g.line("var %s %s", varName(v), typeName(v.Type))
			g.line("for e := range %s {", varName(v))
			g.line("\t%s[e] = a_%s[e*%d+int(li)]", varName(v), v.Name, g.blockCount())
			g.line("}")
			continue
		}
		g.line("%s := a_%s[li]", varName(v), v.Name)
		g.line("_ = %s", varName(v))
	}
}

// sets reports whether stmts set v before they read it: they declare it
// (a variable live across barriers is declared in its segment's own
// block), or the first of them that names v assigns the whole of it a
// value that does not read it.
func sets(stmts []ir.Stmt, v *ir.Var) bool {
	declared := false
	for _, s := range stmts {
		walkStmt(s, func(s ir.Stmt, _ ir.Expr) {
			if d, ok := s.(*ir.Decl); ok && d.Var == v {
				declared = true
			}
		})
	}
	if declared {
		return true
	}
	names := func(s ir.Stmt) bool {
		found := false
		walkStmt(s, func(_ ir.Stmt, e ir.Expr) {
			if r, ok := e.(*ir.VarRef); ok && r.Var == v {
				found = true
			}
		})
		return found
	}
	for _, s := range stmts {
		if !names(s) {
			continue
		}
		a, ok := s.(*ir.Assign)
		if !ok {
			return false
		}
		r, ok := a.Dst.(*ir.VarRef)
		return ok && r.Var == v && !names(&ir.ExprStmt{X: a.Value})
	}
	return false
}

// storeCross stores the work-item's copy of a variable live across
// barriers.
func (g *gen) storeCross(v *ir.Var) {
	if _, ok := laneMajor(v); ok {
		g.line("for e := range %s {", varName(v))
		g.line("\ta_%s[e*%d+int(li)] = %s[e]", v.Name, g.blockCount(), varName(v))
		g.line("}")
		return
	}
	g.line("a_%s[li] = %s", v.Name, varName(v))
}

// laneMajor reports a private array live across barriers whose copies
// are kept element by element, the work-items of the block side by side
// (element e of work-item li at e*blockCount+li), so that the lanes of
// one element are consecutive; an array of arrays is kept whole per
// work-item.
func laneMajor(v *ir.Var) (*ir.Array, bool) {
	a, ok := v.Type.(*ir.Array)
	if !ok {
		return nil, false
	}
	_, nested := a.Elem.(*ir.Array)
	return a, !nested
}

// uniformCondition evaluates a uniform condition for every live
// work-item, checks that they agree, and returns the variable holding it.
func (g *gen) uniformCondition(id int, cond ir.Expr) string {
	c := fmt.Sprintf("c%d", id)
	if !g.done && pureExpr(cond, func(v *ir.Var) bool { return g.store.scalar[v] }, false) {
		g.line("%s := %s", c, g.expr(cond))
		return c
	}
	var vars []*ir.Var
	walkExpr(cond, func(e ir.Expr) {
		if r, ok := e.(*ir.VarRef); ok && g.cross[r.Var] && !slices.Contains(vars, r.Var) {
			vars = append(vars, r.Var)
		}
	})
	slices.SortFunc(vars, func(a, b *ir.Var) int { return strings.Compare(a.Name, b.Name) })
	g.line("%s, first%d := false, true", c, id)
	body := g.capture(func() {
		g.loadCross(vars, nil)
		g.loadRemat(g.rematNeeded(nil, cond))
		g.line("if v := %s; first%d {", g.expr(cond), id)
		g.line("\t%s, first%d = v, false", c, id)
		g.line("} else if v != %s {", c)
		g.line("\tpanic(%q)", "xpu: kernel "+g.k.Name+": work-items disagree on the condition around a barrier")
		g.line("}")
	})
	g.items(body, false)
	return c
}

// segmentVars returns the variables live across barriers that stmts use.
func (g *gen) segmentVars(stmts []ir.Stmt) []*ir.Var {
	var vars []*ir.Var
	add := func(v *ir.Var) {
		if g.cross[v] && !slices.Contains(vars, v) {
			vars = append(vars, v)
		}
	}
	for _, s := range stmts {
		walkStmt(s, func(s ir.Stmt, e ir.Expr) {
			if d, ok := s.(*ir.Decl); ok {
				add(d.Var)
			}
			if r, ok := e.(*ir.VarRef); ok {
				add(r.Var)
			}
		})
	}
	slices.SortFunc(vars, func(a, b *ir.Var) int { return strings.Compare(a.Name, b.Name) })
	return vars
}

// written reports whether stmts declare or assign v (or a part of it).
func written(stmts []ir.Stmt, v *ir.Var) bool {
	w := false
	for _, s := range stmts {
		walkStmt(s, func(s ir.Stmt, e ir.Expr) {
			switch s := s.(type) {
			case *ir.Decl:
				w = w || s.Var == v
			case *ir.Assign:
				w = w || rootVar(s.Dst) == v
			}
			if a, ok := e.(*ir.Atomic); ok {
				w = w || rootVar(a.Ptr) == v
			}
		})
	}
	return w
}

// rootVar returns the variable a place is part of, or nil.
func rootVar(e ir.Expr) *ir.Var {
	for {
		switch x := e.(type) {
		case *ir.Index:
			e = x.X
		case *ir.FieldOf:
			e = x.X
		case *ir.VarRef:
			return x.Var
		default:
			return nil
		}
	}
}
