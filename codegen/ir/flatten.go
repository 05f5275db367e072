package ir

// This file is the flattening pass: it puts every wave verb in a statement
// of its own and inlines the device functions where the work-items meet,
// so that every lowering sees wave verbs and barriers only as statements
// of the kernel body.

import "fmt"

// Flatten rewrites k, analyzed, so that every wave verb is the whole value
// of a Decl (WaveStmt) in the kernel body and no device function reaches a
// barrier or a wave verb: a verb inside an expression is hoisted into a
// temporary before its use, and a function that reaches either is inlined
// at its calls. Go's order of evaluation is kept: the calls, atomics and
// verbs of an expression run left to right, the right operand of && and
// || only when Go evaluates it (an if around it), and a loop condition
// that holds a verb is evaluated before the loop and again at the end of
// each iteration (at the end of its post statement when the body has a
// continue; a post statement that needs flattening ends the body too when
// there is none). Flatten leaves a kernel without such places as it is; run
// Analyze again afterwards.
func Flatten(k *Kernel) error {
	inline := map[*Func]bool{}
	for _, f := range k.Funcs { // callees first
		if f.Barrier || f.Wave != "" {
			inline[f] = true
		}
	}
	fl := &flattener{inline: inline, used: map[string]bool{}}
	for _, p := range k.Params {
		fl.used[p.Name] = true
	}
	for _, s := range k.Shared {
		fl.used[s.Name] = true
	}
	for _, f := range k.Funcs {
		fl.used[f.Name] = true
	}
	WalkStmts(k.Body, func(s Stmt) bool {
		if d, ok := s.(*Decl); ok {
			fl.used[d.Var.Name] = true
		}
		return true
	})
	if len(inline) == 0 && !fl.blockNeeds(k.Body) {
		return nil
	}
	body := &Block{Stmts: fl.stmts(k.Body.Stmts, nil)}
	if fl.err != nil {
		return fl.err
	}
	k.Body = body
	var keep []*Func
	for _, f := range k.Funcs {
		if !inline[f] {
			keep = append(keep, f)
		}
	}
	k.Funcs = called(k.Body, keep)
	return nil
}

// called returns the functions of fs that body calls, directly or
// through one another, in the order of fs.
func called(body *Block, fs []*Func) []*Func {
	reach := map[*Func]bool{}
	var visit func(b *Block)
	visit = func(b *Block) {
		WalkStmts(b, func(s Stmt) bool {
			for _, x := range StmtExprs(s) {
				WalkExpr(x, func(e Expr) bool {
					if c, ok := e.(*Call); ok && !reach[c.Func] {
						reach[c.Func] = true
						visit(c.Func.Body)
					}
					return true
				})
			}
			return true
		})
	}
	visit(body)
	var out []*Func
	for _, f := range fs {
		if reach[f] {
			out = append(out, f)
		}
	}
	return out
}

// flattener is one run of Flatten.
type flattener struct {
	inline map[*Func]bool
	used   map[string]bool // names taken in the kernel body
	err    error           // an expression it does not know
}

// inlining is the body of an inlined function being copied: its
// variables renamed, its returns turned into stores to res.
type inlining struct {
	vars  map[*Var]*Var
	res   *Var // nil for a function without a result
	done  *Var // set by a return; nil when the only return ends the body
	loops int  // loops of the function around the statement
}

// name returns a name based on want that the kernel body does not use.
func (fl *flattener) name(want string) string {
	n := want
	for i := 1; fl.used[n]; i++ {
		n = fmt.Sprintf("%s_%d", want, i)
	}
	fl.used[n] = true
	return n
}

func (fl *flattener) temp(want string, t Type, p Pos) *Var {
	return &Var{Name: fl.name(want), Type: t, Pos: p}
}

// needs reports whether x holds a wave verb or a call to inline.
func (fl *flattener) needs(x Expr) bool {
	found := false
	WalkExpr(x, func(e Expr) bool {
		switch e := e.(type) {
		case *Wave:
			found = true
		case *Call:
			found = found || fl.inline[e.Func]
		}
		return !found
	})
	return found
}

// blockNeeds reports whether a statement of b holds what needs reports.
func (fl *flattener) blockNeeds(b *Block) bool {
	found := false
	WalkStmts(b, func(s Stmt) bool {
		for _, x := range StmtExprs(s) {
			found = found || fl.needs(x)
		}
		return !found
	})
	return found
}

// effects reports whether x holds a call or an atomic, whose order
// against a hoisted verb or call matters.
func effects(x Expr) bool {
	found := false
	WalkExpr(x, func(e Expr) bool {
		switch e.(type) {
		case *Call, *Atomic, *Wave:
			found = true
		}
		return !found
	})
	return found
}

// stmts flattens a list of statements (of an inlined function when in is
// not nil).
func (fl *flattener) stmts(list []Stmt, in *inlining) []Stmt {
	var out []Stmt
	for i, s := range list {
		fl.stmt(s, in, &out)
		if in == nil || in.done == nil || !hasReturn(s) || i == len(list)-1 {
			continue
		}
		// Work-items that returned skip the rest of the function.
		if in.loops > 0 {
			if _, ok := s.(*Loop); ok {
				out = append(out, &If{Cond: &VarRef{in.done}, Then: &Block{Stmts: []Stmt{&Break{}}}})
			}
			continue
		}
		rest := fl.stmts(list[i+1:], in)
		out = append(out, &If{Cond: &Unary{Op: OpNot, X: &VarRef{in.done}, T: BoolType}, Then: &Block{Stmts: rest}})
		break
	}
	return out
}

func hasReturn(s Stmt) bool {
	found := false
	WalkStmts(&Block{Stmts: []Stmt{s}}, func(t Stmt) bool {
		_, ok := t.(*Return)
		found = found || ok
		return !found
	})
	return found
}

func (fl *flattener) block(b *Block, in *inlining) *Block {
	if b == nil {
		return nil
	}
	return &Block{Stmts: fl.stmts(b.Stmts, in)}
}

// stmt appends the flattened s to out.
func (fl *flattener) stmt(s Stmt, in *inlining, out *[]Stmt) {
	if in == nil && !fl.stmtNeeds(s) {
		*out = append(*out, s)
		return
	}
	emit := func(s Stmt) { *out = append(*out, s) }
	switch s := s.(type) {
	case *Block:
		emit(fl.block(s, in))
	case *Decl:
		var init Expr
		if w, ok := s.Init.(*Wave); ok {
			init = fl.waveArgs(w, in, out)
		} else if s.Init != nil {
			init = fl.expr(s.Init, in, out)
		}
		v := s.Var
		if in != nil {
			v = fl.temp(s.Var.Name, s.Var.Type, s.Var.Pos)
			in.vars[s.Var] = v
		}
		emit(&Decl{Var: v, Init: init, Pos: s.Pos})
	case *Assign:
		dst := fl.place(s.Dst, in, out, fl.needs(s.Value))
		var val Expr
		if w, ok := s.Value.(*Wave); ok && isVarRef(dst) {
			val = fl.waveArgs(w, in, out)
		} else {
			val = fl.expr(s.Value, in, out)
		}
		emit(&Assign{Dst: dst, Value: val, Pos: s.Pos})
	case *ExprStmt:
		if x := fl.expr(s.X, in, out); x != nil {
			if _, isVar := x.(*VarRef); !isVar {
				emit(&ExprStmt{X: x, Pos: s.Pos})
			}
		}
	case *If:
		cond := fl.expr(s.Cond, in, out)
		emit(&If{Cond: cond, Then: fl.block(s.Then, in), Else: fl.block(s.Else, in), Pos: s.Pos})
	case *Loop:
		fl.loop(s, in, out)
	case *Return:
		if in == nil {
			emit(&Return{Pos: s.Pos})
			return
		}
		if s.Value != nil {
			emit(&Assign{Dst: &VarRef{in.res}, Value: fl.expr(s.Value, in, out), Pos: s.Pos})
		}
		if in.done != nil {
			emit(&Assign{Dst: &VarRef{in.done}, Value: &Const{T: BoolType, Bits: 1}, Pos: s.Pos})
			if in.loops > 0 {
				emit(&Break{Pos: s.Pos})
			}
		}
	case *Break:
		emit(&Break{Pos: s.Pos})
	case *Continue:
		emit(&Continue{Pos: s.Pos})
	case *Barrier:
		emit(&Barrier{Pos: s.Pos})
	default:
		emit(s)
	}
}

func isVarRef(x Expr) bool {
	_, ok := x.(*VarRef)
	return ok
}

// stmtNeeds reports whether s, nested statements included, needs
// flattening.
func (fl *flattener) stmtNeeds(s Stmt) bool { return fl.blockNeeds(&Block{Stmts: []Stmt{s}}) }

// loop flattens a loop; one whose condition needs flattening tests a
// variable the loop sets before each test.
func (fl *flattener) loop(s *Loop, in *inlining, out *[]Stmt) {
	if in != nil {
		in.loops++
		defer func() { in.loops-- }()
	}
	if s.Cond == nil || !fl.needs(s.Cond) {
		var cond Expr
		if s.Cond != nil {
			cond = fl.expr(s.Cond, in, out)
		}
		l := &Loop{Cond: cond, Body: fl.block(s.Body, in), Post: fl.block(s.Post, in), Pos: s.Pos}
		if s.Post != nil && fl.blockNeeds(s.Post) && !continues(s.Body) {
			// A post statement that meets the other work-items ends the
			// body instead, where the CPU lowerings can split it.
			l.Body.Stmts, l.Post = append(l.Body.Stmts, l.Post.Stmts...), nil
		}
		*out = append(*out, l)
		return
	}
	c := fl.temp("cond", BoolType, s.Pos)
	*out = append(*out, &Decl{Var: c, Init: fl.expr(s.Cond, in, out), Pos: s.Pos})
	body := fl.block(s.Body, in)
	post := fl.block(s.Post, in)
	var again []Stmt
	again = append(again, &Assign{Dst: &VarRef{c}, Value: fl.expr(fl.copyExpr(s.Cond), in, &again), Pos: s.Pos})
	l := &Loop{Cond: &VarRef{c}, Body: body, Pos: s.Pos}
	if continues(s.Body) {
		if post == nil {
			post = &Block{}
		}
		post.Stmts = append(post.Stmts, again...)
		l.Post = post
	} else {
		if post != nil {
			body.Stmts = append(body.Stmts, post.Stmts...)
		}
		body.Stmts = append(body.Stmts, again...)
	}
	*out = append(*out, l)
}

// continues reports whether b holds a continue of the loop it is the
// body of.
func continues(b *Block) bool {
	found := false
	var visit func(list []Stmt)
	visit = func(list []Stmt) {
		for _, s := range list {
			switch s := s.(type) {
			case *Continue:
				found = true
			case *Block:
				visit(s.Stmts)
			case *If:
				visit(s.Then.Stmts)
				if s.Else != nil {
					visit(s.Else.Stmts)
				}
			}
		}
	}
	visit(b.Stmts)
	return found
}

// waveArgs flattens the operands of a verb that is the whole value of a
// statement and returns the verb with them.
func (fl *flattener) waveArgs(w *Wave, in *inlining, out *[]Stmt) *Wave {
	return &Wave{Op: w.Op, Args: fl.operands(w.Args, in, out), T: w.T, Pos: w.Pos}
}

// place flattens the index operands of an assignment's destination; with
// later set, the value holds a hoisted part, so an index with effects is
// hoisted before it.
func (fl *flattener) place(x Expr, in *inlining, out *[]Stmt, later bool) Expr {
	switch e := x.(type) {
	case *Index:
		base := fl.place(e.X, in, out, later || fl.needs(e.Index))
		idx := fl.expr(e.Index, in, out)
		if later && effects(idx) {
			idx = fl.hoist(idx, out)
		}
		return &Index{X: base, Index: idx, T: e.T}
	case *FieldOf:
		return &FieldOf{X: fl.place(e.X, in, out, later), Field: e.Field, T: e.T}
	}
	return fl.expr(x, in, out)
}

// hoist stores x in a new variable and returns a read of it.
func (fl *flattener) hoist(x Expr, out *[]Stmt) Expr {
	v := fl.temp("tmp", x.Type(), Pos{})
	*out = append(*out, &Decl{Var: v, Init: x})
	return &VarRef{v}
}

// operands flattens xs in order; an operand with effects before one that
// needs flattening is hoisted first, so that it runs first.
func (fl *flattener) operands(xs []Expr, in *inlining, out *[]Stmt) []Expr {
	res := make([]Expr, len(xs))
	for i, x := range xs {
		res[i] = fl.expr(x, in, out)
		later := false
		for _, y := range xs[i+1:] {
			later = later || fl.needs(y)
		}
		if later && effects(res[i]) {
			res[i] = fl.hoist(res[i], out)
		}
	}
	return res
}

// expr returns x flattened, appending the statements it hoists to out; a
// call of a function without a result yields nil.
func (fl *flattener) expr(x Expr, in *inlining, out *[]Stmt) Expr {
	if x == nil || in == nil && !fl.needs(x) {
		return x
	}
	switch e := x.(type) {
	case *VarRef:
		if v, ok := in.vars[e.Var]; ok {
			return &VarRef{v}
		}
		return &VarRef{e.Var}
	case *Wave:
		w := fl.waveArgs(e, in, out)
		v := fl.temp("wave", e.T, e.Pos)
		*out = append(*out, &Decl{Var: v, Init: w, Pos: e.Pos})
		return &VarRef{v}
	case *Call:
		args := fl.operands(e.Args, in, out)
		if fl.inline[e.Func] {
			return fl.inlineCall(e, args, out)
		}
		return &Call{Func: e.Func, Args: args, Pos: e.Pos}
	case *Binary:
		if (e.Op == OpLAnd || e.Op == OpLOr) && fl.needs(e.Y) {
			return fl.shortCircuit(e, in, out)
		}
	}
	if y := rebuild(x, fl.operands(Operands(x), in, out)); y != nil {
		return y
	}
	fl.err = fmt.Errorf("%T: an expression the flattening does not know", x)
	return x
}

// shortCircuit flattens x && y or x || y whose y needs it: y's hoisted
// statements run under an if, as Go evaluates y only then. x has a
// variable of its own, so that the if is as uniform as x.
func (fl *flattener) shortCircuit(e *Binary, in *inlining, out *[]Stmt) Expr {
	x := fl.temp("cond", BoolType, Pos{})
	*out = append(*out, &Decl{Var: x, Init: fl.expr(e.X, in, out)})
	v := fl.temp("cond", BoolType, Pos{})
	*out = append(*out, &Decl{Var: v, Init: &Const{T: BoolType, Bits: boolBits(e.Op == OpLOr)}})
	var then []Stmt
	y := fl.expr(e.Y, in, &then)
	then = append(then, &Assign{Dst: &VarRef{v}, Value: y})
	var cond Expr = &VarRef{x}
	if e.Op == OpLOr {
		cond = &Unary{Op: OpNot, X: cond, T: BoolType}
	}
	*out = append(*out, &If{Cond: cond, Then: &Block{Stmts: then}})
	return &VarRef{v}
}

func boolBits(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// inlineCall appends the body of the call c of an inlined function, its
// arguments args already flattened, and returns its result.
func (fl *flattener) inlineCall(c *Call, args []Expr, out *[]Stmt) Expr {
	f := c.Func
	in := &inlining{vars: map[*Var]*Var{}}
	for i, p := range f.Params {
		v := fl.temp(p.Name, p.Type, p.Pos)
		in.vars[p] = v
		*out = append(*out, &Decl{Var: v, Init: args[i], Pos: c.Pos})
	}
	body := f.Body.Stmts
	var last *Return
	if n := len(body); n > 0 {
		last, _ = body[n-1].(*Return)
	}
	if f.Result != nil {
		in.res = fl.temp(f.GoName, f.Result, c.Pos)
	}
	simple := true
	for i, s := range body {
		if hasReturn(s) && !(i == len(body)-1 && last != nil) {
			simple = false
		}
	}
	if simple && last != nil && last.Value != nil {
		*out = append(*out, fl.stmts(body[:len(body)-1], in)...)
		*out = append(*out, &Decl{Var: in.res, Init: fl.expr(last.Value, in, out), Pos: c.Pos})
		return &VarRef{in.res}
	}
	if in.res != nil {
		*out = append(*out, &Decl{Var: in.res, Pos: c.Pos})
	}
	if !simple {
		in.done = fl.temp("returned", BoolType, c.Pos)
		*out = append(*out, &Decl{Var: in.done, Pos: c.Pos})
	}
	*out = append(*out, fl.stmts(body, in)...)
	if in.res == nil {
		return nil
	}
	return &VarRef{in.res}
}

// copyExpr returns a copy of x that shares no node with it.
func (fl *flattener) copyExpr(x Expr) Expr {
	ops := Operands(x)
	cp := make([]Expr, len(ops))
	for i, y := range ops {
		cp[i] = fl.copyExpr(y)
	}
	if y := rebuild(x, cp); y != nil {
		return y
	}
	fl.err = fmt.Errorf("%T: an expression the flattening does not know", x)
	return x
}

// rebuild returns a node like x with the operands ops (in the order of
// Operands); a leaf is copied. It returns nil for a node it does not
// know.
func rebuild(x Expr, ops []Expr) Expr {
	switch e := x.(type) {
	case *Const:
		c := *e
		return &c
	case *VarRef:
		return &VarRef{e.Var}
	case *ScalarRef:
		return &ScalarRef{e.Param}
	case *BufferRef:
		return &BufferRef{e.Param}
	case *SharedRef:
		return &SharedRef{e.Shared}
	case *Len:
		return &Len{e.Buffer}
	case *Index:
		return &Index{X: ops[0], Index: ops[1], T: e.T}
	case *FieldOf:
		return &FieldOf{X: ops[0], Field: e.Field, T: e.T}
	case *Unary:
		return &Unary{Op: e.Op, X: ops[0], T: e.T}
	case *Binary:
		return &Binary{Op: e.Op, X: ops[0], Y: ops[1], T: e.T}
	case *Convert:
		return &Convert{X: ops[0], T: e.T}
	case *Bitcast:
		return &Bitcast{X: ops[0], T: e.T}
	case *CallBuiltin:
		return &CallBuiltin{Fn: e.Fn, Args: ops, T: e.T}
	case *Call:
		return &Call{Func: e.Func, Args: ops, Pos: e.Pos}
	case *Atomic:
		return &Atomic{Op: e.Op, Ptr: ops[0], Args: ops[1:], T: e.T}
	case *Wave:
		return &Wave{Op: e.Op, Args: ops, T: e.T, Pos: e.Pos}
	}
	return nil
}
