package llvmgen

// This file inlines device functions at their calls (the IR has no
// recursion). A call in uniform control flow with uniform arguments runs
// the function as the uniformity analysis saw it (relative to uniform
// arguments); one in uniform control flow with some varying arguments as
// the analysis sees it for those (ir.Uniformity.Inlined), so that a loop
// over uniform bounds in a helper stays a plain loop; a call in varying
// control flow runs it all varying, under the mask.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
)

func (g *gen) call(e *ir.Call) value {
	r := g.callSlot(e)
	if r == nil {
		return value{}
	}
	return g.loadSlot(r.ptr, r.lt)
}

// callSlot inlines the call e and returns the slot of its result (nil
// when it has none): an array result is read from there in place.
func (g *gen) callSlot(e *ir.Call) *variable {
	f := e.Func
	if len(e.Args) != len(f.Params) {
		g.fail("a call of %s with %d arguments for %d parameters", f.GoName, len(e.Args), len(f.Params))
	}
	u := g.u
	inFlow := g.simt() || !g.forced && g.flow
	varying := make([]bool, len(e.Args))
	uniform := inFlow
	for i, a := range e.Args {
		varying[i] = !g.simt() && !u.Value[a]
		uniform = uniform && !varying[i]
	}
	type saved struct {
		forced, flow, full bool
		u                  *ir.Uniformity
		loops              []*loopFrame
		ret                *retFrame
		pos                ir.Pos
	}
	s := saved{g.forced, g.flow, g.full, g.u, g.loops, g.ret, g.pos}
	// Arguments are evaluated in the caller's mode.
	vals := make([]value, len(e.Args))
	arrays := make([]*variable, len(e.Args))
	for i, a := range e.Args {
		if _, ok := a.Type().(*ir.Array); ok {
			arrays[i] = g.arrayOf(a)
			continue
		}
		vals[i] = g.expr(a)
	}
	g.forced = !inFlow
	// Varying arguments may make the body diverge (a return under a
	// varying condition): its own analysis then says where all lanes run.
	g.full = g.full && uniform
	g.u = g.k.Uniform
	if inFlow && !uniform {
		g.u = g.k.Uniform.Inlined(f, varying)
		defer g.varyAs(f, g.u)()
	}
	b := g.b
	for i, p := range f.Params {
		if arrays[i] != nil {
			dst := g.newSlot(p, arrays[i].vec || g.varying(p))
			if !dst.vec && arrays[i].vec {
				g.fail("a varying array passed to a uniform parameter")
			}
			g.vars[p] = dst
			g.copyArray(dst, arrays[i], true)
			continue
		}
		if g.assign[p] == 0 && !holdsArray(p.Type) {
			v := vals[i]
			g.vars[p] = &variable{t: p.Type, ssa: &v}
			continue
		}
		dst := g.newSlot(p, g.varying(p) || isVaryingValue(vals[i]))
		g.vars[p] = dst
		g.storeSlot(dst.ptr, dst.lt, vals[i], true)
	}
	fr := &retFrame{exit: b.NewBlock("ret." + f.Name)}
	if !g.simt() {
		fr.retMask = b.Alloca("returned", g.vec(llvm.I1), 1)
		b.Store(g.noLanes(), fr.retMask, 1)
	}
	if f.Result != nil {
		vec := !g.simt() && (g.forced || !u.Value[e])
		lt := g.slotType(f.Result, vec)
		fr.result = &variable{t: f.Result, vec: vec, lt: lt, ptr: b.Alloca("result."+f.Name, lt, 32)}
		b.Store(&llvm.Zero{T: lt}, fr.result.ptr, 32)
	}
	g.loops, g.ret = nil, fr
	g.block(f.Body)
	if !b.Block.Terminated() {
		b.Br(fr.exit)
	}
	b.SetBlock(fr.exit)
	if !g.simt() {
		g.setMask(b.Or(g.mask(), b.Load(g.vec(llvm.I1), fr.retMask, 1)))
	}
	g.forced, g.flow, g.full, g.u, g.loops, g.ret, g.pos = s.forced, s.flow, s.full, s.u, s.loops, s.ret, s.pos
	return fr.result
}

// varyAs marks f's parameters and variables varying as u, an analysis of
// f's body, calls them, and returns what restores their marks.
func (g *gen) varyAs(f *ir.Func, u *ir.Uniformity) (restore func()) {
	vary := map[*ir.Var]bool{}
	g.surveyVarying(f.Body, u, vary)
	vars := append([]*ir.Var(nil), f.Params...)
	ir.WalkStmts(f.Body, func(s ir.Stmt) bool {
		if d, ok := s.(*ir.Decl); ok {
			vars = append(vars, d.Var)
		}
		return true
	})
	old := make([]bool, len(vars))
	for i, v := range vars {
		old[i] = g.varyU[v]
		g.varyU[v] = vary[v]
	}
	return func() {
		for i, v := range vars {
			g.varyU[v] = old[i]
		}
	}
}

// isVaryingValue reports whether x holds lanes.
func isVaryingValue(x value) bool {
	if x.x != nil {
		return isVec(x.x)
	}
	for _, f := range x.fields {
		if isVaryingValue(f) {
			return true
		}
	}
	return false
}
