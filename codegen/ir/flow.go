package ir

// This file is the uniformity analysis (see Uniformity and DESIGN.md).
//
// A variable is uniform when every assignment to it stores a uniform
// value in uniform control flow; the analysis starts from "all uniform"
// and marks variables and loops non-uniform until nothing changes. A loop
// is tainted when a break, continue or return under a non-uniform
// condition leaves part of its body: its body then runs in non-uniform
// control flow on every iteration. After a loop whose exit condition is
// not uniform the work-items reconverge, so what follows it is uniform
// unless one of them may have returned. Device functions are analyzed
// once with uniform arguments (the result recorded in Kernel.Uniform,
// relative to the function's entry) and once with non-uniform ones, to
// learn whether a barrier or wave verb in them depends on their
// arguments; Uniformity.Inlined analyzes one again for a call whose
// arguments are in part varying.

// flowState is one analysis of one function body.
type flowState struct {
	res       *Uniformity
	params    map[*Var]bool  // the function's parameters
	nonU      map[*Var]bool  // variables found non-uniform
	tainted   map[*Loop]bool // loops found tainted
	taintWhy  map[*Loop]*Cause
	why       *Cause // what made the control flow non-uniform, when it is
	summaries map[*Func]*funcSummary
	changed   bool
	loops     []*Loop
	// Per pass:
	sites    BarrierErrors
	resultNU bool // a returned value or a return is non-uniform
}

// funcSummary is what a caller needs to know about a device function.
type funcSummary struct {
	resultUniform bool // the result is uniform given uniform arguments
	needsUniform  bool // its barriers and wave verbs need uniform arguments
}

// uniformity fills k.Uniform and returns the barrier sites in
// non-uniform control flow.
func uniformity(k *Kernel) BarrierErrors {
	summaries := make(map[*Func]*funcSummary)
	res := &Uniformity{Value: make(map[Expr]bool), Flow: make(map[Stmt]bool), summaries: summaries}
	var errs BarrierErrors
	for _, f := range k.Funcs {
		a := runFlow(f.Body, f.Params, nil, res, summaries)
		errs = append(errs, a.sites...)
		sum := &funcSummary{resultUniform: !a.resultNU}
		if (f.Barrier || f.Wave != "") && len(a.sites) == 0 {
			scratch := &Uniformity{Value: make(map[Expr]bool), Flow: make(map[Stmt]bool)}
			all := make([]bool, len(f.Params))
			for i := range all {
				all[i] = true
			}
			b := runFlow(f.Body, f.Params, all, scratch, summaries)
			sum.needsUniform = len(b.sites) > 0
		}
		summaries[f] = sum
	}
	a := runFlow(k.Body, nil, nil, res, summaries)
	errs = append(errs, a.sites...)
	k.Uniform = res
	return errs
}

// runFlow analyzes one body to its fixed point, its parameters marked in
// varying (nil: none) holding varying values.
func runFlow(body *Block, params []*Var, varying []bool, res *Uniformity, summaries map[*Func]*funcSummary) *flowState {
	a := &flowState{
		res: res, params: make(map[*Var]bool),
		nonU: make(map[*Var]bool), tainted: make(map[*Loop]bool), taintWhy: make(map[*Loop]*Cause),
		summaries: summaries,
	}
	for i, p := range params {
		a.params[p] = true
		if i < len(varying) && varying[i] {
			a.nonU[p] = true
		}
	}
	for {
		a.changed = false
		a.sites = nil
		a.resultNU = false
		a.block(body, true)
		if !a.changed {
			return a
		}
	}
}

// markVar records that v may hold a non-uniform value.
func (a *flowState) markVar(v *Var) {
	if v != nil && !a.nonU[v] {
		a.nonU[v] = true
		a.changed = true
	}
}

// taint records that a loop's body runs in non-uniform control flow,
// because of why.
func (a *flowState) taint(l *Loop, why *Cause) {
	if l != nil && !a.tainted[l] {
		a.tainted[l] = true
		a.taintWhy[l] = why
		a.changed = true
	}
}

// becomes records why control flow that was uniform (flow) stops being
// so (to); it returns to.
func (a *flowState) becomes(flow, to bool, why *Cause) bool {
	if flow && !to {
		a.why = why
	}
	return to
}

// site records a barrier or verb reached in non-uniform control flow,
// once: a loop's condition is analyzed for its first test and again for
// the later ones, and the first finding is the one reported.
func (a *flowState) site(e *BarrierError) {
	for _, o := range a.sites {
		if o.Pos == e.Pos && o.Func == e.Func && o.Verb == e.Verb {
			return
		}
	}
	a.sites = append(a.sites, e)
}

// innermost returns the innermost enclosing loop, or nil.
func (a *flowState) innermost() *Loop {
	if len(a.loops) == 0 {
		return nil
	}
	return a.loops[len(a.loops)-1]
}

// block analyzes b entered with control flow uniformity flow and returns
// the uniformity of the control flow after it.
func (a *flowState) block(b *Block, flow bool) bool {
	if b == nil {
		return flow
	}
	for _, s := range b.Stmts {
		flow = a.stmt(s, flow)
	}
	return flow
}

// stmt analyzes one statement; see block.
func (a *flowState) stmt(s Stmt, flow bool) bool {
	a.res.Flow[s] = flow
	switch s := s.(type) {
	case *Block:
		return a.block(s, flow)
	case *Decl:
		u := true
		if s.Init != nil {
			u = a.expr(s.Init, flow)
		}
		if !u || !flow {
			a.markVar(s.Var)
		}
	case *Assign:
		dstU := a.place(s.Dst, flow)
		u := a.expr(s.Value, flow)
		if !u || !flow || !dstU {
			if r, ok := placeRoot(s.Dst).(*VarRef); ok {
				a.markVar(r.Var)
			}
		}
	case *ExprStmt:
		a.expr(s.X, flow)
	case *Barrier:
		if !flow {
			a.site(&BarrierError{Pos: s.Pos, Cause: a.why})
		}
	case *Return:
		if s.Value != nil && !a.expr(s.Value, flow) {
			a.resultNU = true
		}
		if !flow {
			a.resultNU = true
		}
	case *Break:
		if !flow {
			a.taint(a.innermost(), &Cause{Pos: s.Pos, What: CauseBreak})
		}
	case *Continue:
		if !flow {
			a.taint(a.innermost(), &Cause{Pos: s.Pos, What: CauseContinue})
		}
	case *If:
		cu := a.expr(s.Cond, flow)
		inner := a.becomes(flow, flow && cu, &Cause{Pos: s.Pos, What: CauseCondition})
		t := a.block(s.Then, inner)
		thenWhy := a.why
		e := a.block(s.Else, inner)
		if cu {
			if !t {
				a.why = thenWhy
			}
			return t && e
		}
		esc := escape(s.Then, true)
		if esc == nil {
			esc = escape(s.Else, true)
		}
		if esc != nil {
			// Some work-items may have left: what follows is not uniform.
			if l := a.innermost(); l != nil {
				a.taint(l, esc)
			}
			return a.becomes(flow, false, esc)
		}
		return flow
	case *Loop:
		return a.loop(s, flow)
	}
	return flow
}

// loop analyzes a loop; see block.
func (a *flowState) loop(s *Loop, flow bool) bool {
	enter := a.becomes(flow, flow && !a.tainted[s], a.taintWhy[s])
	cu := true
	if s.Cond != nil {
		cu = a.expr(s.Cond, enter)
		if enter && !cu {
			// After the first test only the work-items still in the
			// loop test it again: a verb or barrier in it is reached in
			// non-uniform control flow.
			why := a.why
			a.why = &Cause{Pos: s.Pos, What: CauseLoopCondition}
			a.expr(s.Cond, false)
			a.why = why
		}
	}
	body := a.becomes(enter, enter && cu, &Cause{Pos: s.Pos, What: CauseLoopCondition})
	a.loops = append(a.loops, s)
	out := a.block(s.Body, body)
	a.block(s.Post, body)
	a.loops = a.loops[:len(a.loops)-1]
	if body && !out {
		a.taint(s, a.why)
	}
	if r := firstReturn(s.Body); flow && (!cu || a.tainted[s]) && r != nil {
		return a.becomes(flow, false, &Cause{Pos: r.Pos, What: CauseReturn})
	}
	return flow
}

// escape returns the first statement by which b may leave its
// enclosing statement early, as a Cause: a return, or a break or continue
// of a loop outside b (outer false inside a nested loop, whose own breaks
// stay inside). It returns nil when there is none.
func escape(b *Block, outer bool) *Cause {
	var found *Cause
	var visit func(b *Block, outer bool)
	visit = func(b *Block, outer bool) {
		if b == nil || found != nil {
			return
		}
		for _, s := range b.Stmts {
			if found != nil {
				return
			}
			switch s := s.(type) {
			case *Return:
				found = &Cause{Pos: s.Pos, What: CauseReturn}
			case *Break:
				if outer {
					found = &Cause{Pos: s.Pos, What: CauseBreak}
				}
			case *Continue:
				if outer {
					found = &Cause{Pos: s.Pos, What: CauseContinue}
				}
			case *Block:
				visit(s, outer)
			case *If:
				visit(s.Then, outer)
				visit(s.Else, outer)
			case *Loop:
				visit(s.Body, false)
				visit(s.Post, false)
			}
		}
	}
	visit(b, outer)
	return found
}

// firstReturn returns the first return in b, or nil.
func firstReturn(b *Block) *Return {
	var found *Return
	WalkStmts(b, func(s Stmt) bool {
		if r, ok := s.(*Return); ok {
			found = r
		}
		return found == nil
	})
	return found
}

// place analyzes the operands of an assignment's destination and reports
// whether the element it names is chosen uniformly.
func (a *flowState) place(x Expr, flow bool) bool {
	u := true
	for {
		switch e := x.(type) {
		case *Index:
			if !a.expr(e.Index, flow) {
				u = false
			}
			x = e.X
		case *FieldOf:
			x = e.X
		default:
			a.res.Value[x] = a.value(x)
			return u
		}
	}
}

// expr analyzes x evaluated in control flow flow, records the uniformity
// of x and its operands, checks the barriers of the calls in it, and
// returns whether x is uniform.
func (a *flowState) expr(x Expr, flow bool) bool {
	var u bool
	switch e := x.(type) {
	case *Binary:
		xu := a.expr(e.X, flow)
		yflow := flow
		if e.Op == OpLAnd || e.Op == OpLOr {
			yflow = a.becomes(flow, flow && xu, &Cause{What: CauseOperand})
		}
		yu := a.expr(e.Y, yflow)
		u = xu && yu
	case *Call:
		u = true
		for _, arg := range e.Args {
			if !a.expr(arg, flow) {
				u = false
			}
		}
		sum := a.summaries[e.Func]
		meets := e.Func.Barrier || e.Func.Wave != ""
		if meets && (!flow || sum != nil && sum.needsUniform && !u) {
			why := a.why
			if flow {
				why = &Cause{Pos: e.Pos, What: CauseArguments}
			}
			a.site(&BarrierError{Pos: e.Pos, Func: e.Func.GoName, Verb: e.Func.Wave, Cause: why})
		}
		u = u && (sum == nil || sum.resultUniform)
	case *Atomic:
		for _, y := range Operands(e) {
			a.expr(y, flow)
		}
		u = false
	case *Wave:
		for _, y := range Operands(e) {
			a.expr(y, flow)
		}
		if !flow {
			a.site(&BarrierError{Pos: e.Pos, Verb: e.Op.String(), Cause: a.why})
		}
		u = false
	default:
		u = true
		for _, y := range Operands(x) {
			if !a.expr(y, flow) {
				u = false
			}
		}
		u = u && a.value(x)
	}
	a.res.Value[x] = u
	return u
}

// value reports whether a leaf (or the node itself, apart from its
// operands) is uniform.
func (a *flowState) value(x Expr) bool {
	switch e := x.(type) {
	case *VarRef:
		return !a.nonU[e.Var]
	case *Index:
		switch e.X.(type) {
		case *BufferRef, *SharedRef:
			return false // a load from memory
		}
	case *CallBuiltin:
		switch e.Fn {
		case GlobalX, GlobalY, GlobalZ, LocalX, LocalY, LocalZ, LocalIndex, LaneIndex:
			return false
		}
	}
	return true
}
