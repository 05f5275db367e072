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
// arguments.

// flowState is one analysis of one function body.
type flowState struct {
	res       *Uniformity
	argsU     bool           // parameters of the function are uniform
	params    map[*Var]bool  // the function's parameters
	nonU      map[*Var]bool  // variables found non-uniform
	tainted   map[*Loop]bool // loops found tainted
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
	res := &Uniformity{Value: make(map[Expr]bool), Flow: make(map[Stmt]bool)}
	summaries := make(map[*Func]*funcSummary)
	var errs BarrierErrors
	for _, f := range k.Funcs {
		a := runFlow(f.Body, f.Params, true, res, summaries)
		errs = append(errs, a.sites...)
		sum := &funcSummary{resultUniform: !a.resultNU}
		if (f.Barrier || f.Wave != "") && len(a.sites) == 0 {
			scratch := &Uniformity{Value: make(map[Expr]bool), Flow: make(map[Stmt]bool)}
			b := runFlow(f.Body, f.Params, false, scratch, summaries)
			sum.needsUniform = len(b.sites) > 0
		}
		summaries[f] = sum
	}
	a := runFlow(k.Body, nil, true, res, summaries)
	errs = append(errs, a.sites...)
	k.Uniform = res
	return errs
}

// runFlow analyzes one body to its fixed point.
func runFlow(body *Block, params []*Var, argsU bool, res *Uniformity, summaries map[*Func]*funcSummary) *flowState {
	a := &flowState{
		res: res, argsU: argsU, params: make(map[*Var]bool),
		nonU: make(map[*Var]bool), tainted: make(map[*Loop]bool), summaries: summaries,
	}
	for _, p := range params {
		a.params[p] = true
		if !argsU {
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

// taint records that a loop's body runs in non-uniform control flow.
func (a *flowState) taint(l *Loop) {
	if l != nil && !a.tainted[l] {
		a.tainted[l] = true
		a.changed = true
	}
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
			a.sites = append(a.sites, &BarrierError{Pos: s.Pos})
		}
	case *Return:
		if s.Value != nil && !a.expr(s.Value, flow) {
			a.resultNU = true
		}
		if !flow {
			a.resultNU = true
		}
	case *Break, *Continue:
		if !flow {
			a.taint(a.innermost())
		}
	case *If:
		cu := a.expr(s.Cond, flow)
		inner := flow && cu
		t := a.block(s.Then, inner)
		e := a.block(s.Else, inner)
		if cu {
			return t && e
		}
		if escapes(s.Then, true) || escapes(s.Else, true) {
			// Some work-items may have left: what follows is not uniform.
			if l := a.innermost(); l != nil {
				a.taint(l)
			}
			return false
		}
		return flow
	case *Loop:
		return a.loop(s, flow)
	}
	return flow
}

// loop analyzes a loop; see block.
func (a *flowState) loop(s *Loop, flow bool) bool {
	enter := flow && !a.tainted[s]
	cu := true
	if s.Cond != nil {
		cu = a.expr(s.Cond, enter)
		if enter && !cu {
			// After the first test only the work-items still in the
			// loop test it again: a verb or barrier in it is reached in
			// non-uniform control flow.
			a.expr(s.Cond, false)
		}
	}
	body := enter && cu
	a.loops = append(a.loops, s)
	out := a.block(s.Body, body)
	a.block(s.Post, body)
	a.loops = a.loops[:len(a.loops)-1]
	if body && !out {
		a.taint(s)
	}
	if flow && (!cu || a.tainted[s]) && returns(s.Body) {
		return false
	}
	return flow
}

// escapes reports whether b may leave its enclosing statement early: a
// return, or a break or continue of a loop outside b (inLoop false inside
// a nested loop, whose own breaks stay inside).
func escapes(b *Block, outer bool) bool {
	found := false
	var visit func(b *Block, outer bool)
	visit = func(b *Block, outer bool) {
		if b == nil {
			return
		}
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *Return:
				found = true
			case *Break, *Continue:
				if outer {
					found = true
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

// returns reports whether b holds a return.
func returns(b *Block) bool {
	found := false
	WalkStmts(b, func(s Stmt) bool {
		if _, ok := s.(*Return); ok {
			found = true
		}
		return !found
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
			yflow = flow && xu
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
			a.sites = append(a.sites, &BarrierError{Pos: e.Pos, Func: e.Func.GoName, Verb: e.Func.Wave})
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
			a.sites = append(a.sites, &BarrierError{Pos: e.Pos, Verb: e.Op.String()})
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
