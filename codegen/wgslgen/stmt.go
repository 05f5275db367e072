package wgslgen

import (
	"slices"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

// stmts lowers the statements of b into the list being built.
func (l *lowerer) stmts(b *ir.Block) {
	for i, s := range b.Stmts {
		if d, ok := s.(*ir.Decl); ok && usedOnceNext(d.Var, b.Stmts[i+1:]) {
			l.fn.once[d.Var] = true
		}
		l.stmt(s)
	}
}

// usedOnceNext reports whether v is named once in stmts, by one of them
// that is an assignment or a declaration, not inside a nested block.
func usedOnceNext(v *ir.Var, stmts []ir.Stmt) bool {
	n, simple := 0, false
	for _, s := range stmts {
		ir.WalkStmts(&ir.Block{Stmts: []ir.Stmt{s}}, func(s ir.Stmt) bool {
			for _, x := range ir.StmtExprs(s) {
				ir.WalkExpr(x, func(e ir.Expr) bool {
					if r, ok := e.(*ir.VarRef); ok && r.Var == v {
						n++
						switch s.(type) {
						case *ir.Assign, *ir.Decl:
							simple = simple || slices.Contains(stmts, s)
						}
					}
					return true
				})
			}
			return true
		})
	}
	return n == 1 && simple
}

// maxNesting bounds how deep the blocks of a function nest (the bodies of
// if, for and switch, as the lowering spells them). Tint refuses
// statements nested past its limit of 127, counting each level twice, and
// its parser gives up when blocks and expressions together nest about 128
// deep (expressions are bounded by maxExprDepth); no lowering of Go's
// nesting into fewer WGSL blocks keeps Go's semantics in general, so a
// deeper kernel is refused by name. Long else-if chains (switch cases)
// are not nesting: ifChain spells them flat.
const maxNesting = 48

// block lowers b into a new WGSL block, one level deeper.
func (l *lowerer) block(b *ir.Block) *wgsl.Block {
	var out []wgsl.Stmt
	saved := l.fn.out
	l.fn.out = &out
	l.deeper()
	if b != nil {
		l.stmts(b)
	}
	l.fn.depth--
	l.fn.out = saved
	return &wgsl.Block{Stmts: out}
}

// deeper enters a block, refusing one nested past maxNesting; the caller
// leaves it with l.fn.depth--.
func (l *lowerer) deeper() {
	if l.fn.depth++; l.fn.depth == maxNesting+1 {
		l.fail(ruleNesting, "statements nest more than %d deep here (the blocks of if, for and switch): WGSL compilers refuse deeper nesting (Tint beyond about 60); move the inner statements into a device function", maxNesting)
	}
}

func (l *lowerer) stmt(s ir.Stmt) {
	if w, dst := ir.WaveStmt(s); w != nil {
		l.at(w.Pos)
		_, decl := s.(*ir.Decl)
		l.waveStmt(w, dst, decl)
		return
	}
	switch s := s.(type) {
	case *ir.Block:
		if d, loop, ok := forClauses(s); ok {
			if u := l.unrolled(d, loop); u.values != nil {
				l.at(loop.Pos)
				l.unroll(d, loop, u.values)
				return
			}
			l.emit(l.forLoop(d, loop))
			return
		}
		l.emit(l.block(s))
	case *ir.Decl:
		l.at(s.Pos)
		if _, ok := s.Var.Type.(*ir.Array); ok && s.Var.Type.Size() > maxPrivateBytes {
			l.fail(rulePrivateSize, "private array %s of %d bytes: a work-item's own arrays may hold %d bytes here (lavapipe took two minutes to compile 8,000 bytes, and crashed with a cold shader cache); keep large data in a buffer or an xpu.Shared array", s.Var.Name, s.Var.Type.Size(), maxPrivateBytes)
		}
		name := l.local(s.Var)
		if s.Init != nil && !l.assigned[s.Var] && isBasic(s.Var.Type) {
			// Never assigned again: a value, which Tint compiles better
			// than a variable.
			l.letDecl(s.Var, name, l.expr(s.Init))
			return
		}
		var init wgsl.Expr
		if s.Init != nil {
			init = l.expr(s.Init)
		}
		l.emit(declare(name, l.typ(s.Var.Type), init)...)
	case *ir.Assign:
		l.at(s.Pos)
		l.assign(s)
	case *ir.If:
		l.at(s.Pos)
		if chain := elseIfs(s); len(chain) > maxChain {
			l.ifChain(chain)
			return
		}
		l.emit(l.ifStmt(s))
	case *ir.Loop:
		l.at(s.Pos)
		l.loop(s)
	case *ir.Break:
		l.emit(&wgsl.Break{})
	case *ir.Continue:
		l.emit(&wgsl.Continue{})
	case *ir.Return:
		l.at(s.Pos)
		r := &wgsl.Return{}
		if s.Value != nil {
			r.Value = l.expr(s.Value)
		}
		l.emit(r)
	case *ir.Barrier:
		l.at(s.Pos)
		l.barrier(s)
	case *ir.ExprStmt:
		l.at(s.Pos)
		l.exprStmt(s)
	case nil:
		l.fail(ruleIR, "nil statement")
	default:
		l.fail(ruleIR, "unknown statement %T", s)
	}
}

// ifStmt lowers s; an else branch that lowers to a lone if prints as
// else if.
func (l *lowerer) ifStmt(s *ir.If) *wgsl.If {
	w := &wgsl.If{Cond: l.expr(s.Cond), Then: l.block(s.Then)}
	if s.Else != nil {
		e := l.block(s.Else)
		if len(e.Stmts) == 1 {
			if elif, ok := e.Stmts[0].(*wgsl.If); ok {
				w.Else = elif
				return w
			}
		}
		w.Else = e
	}
	return w
}

// maxPrivateBytes bounds a private array: Vulkan drivers turn a
// work-item's array into registers or scratch, and lavapipe's compile
// time grows faster than the square of its length (3 s for 512 floats,
// 15 s for 1,024, two minutes for 2,000).
const maxPrivateBytes = 4096

// maxChain bounds the length of a printed else-if chain: Tint refuses a
// chain of more than about 125, counted with the nesting around it.
const maxChain = 16

// elseIfs returns the if-else-if chain that starts at s: s, then each if
// that is alone in the else branch of the one before.
func elseIfs(s *ir.If) []*ir.If {
	chain := []*ir.If{s}
	for s.Else != nil && len(s.Else.Stmts) == 1 {
		next, ok := s.Else.Stmts[0].(*ir.If)
		if !ok {
			break
		}
		chain = append(chain, next)
		s = next
	}
	return chain
}

// ifChain lowers a long else-if chain (a switch with many cases) to a
// sequence of ifs at one level, guarded by a flag that records that a
// branch was taken:
//
//	var taken: bool; taken = false;
//	if c0 { taken = true; T0 }
//	if !taken && c1 { taken = true; T1 }  // or if !taken { pre1; if c1 {...} }
//	if !taken { Else }
//
// A condition is evaluated only when no branch before it was taken, as
// in the chain, and a branch that leaves the chain (break, continue,
// return) leaves the sequence the same way.
func (l *lowerer) ifChain(chain []*ir.If) {
	taken := l.temp()
	l.emit(declare(taken, wgsl.BoolType, wgsl.BoolLit(false))...)
	notTaken := &wgsl.Unary{Op: wgsl.Not, X: wgsl.Id(taken)}
	for i, s := range chain {
		l.at(s.Pos)
		var pre []wgsl.Stmt
		saved := l.fn.out
		l.fn.out = &pre
		c := l.expr(s.Cond)
		l.fn.out = saved
		then := l.block(s.Then)
		then.Stmts = append([]wgsl.Stmt{&wgsl.Assign{LHS: wgsl.Id(taken), RHS: wgsl.BoolLit(true)}}, then.Stmts...)
		branch := &wgsl.If{Cond: c, Then: then}
		switch {
		case i == 0:
			l.emit(pre...)
			l.emit(branch)
		case len(pre) == 0:
			branch.Cond = &wgsl.Binary{Op: wgsl.LAnd, X: notTaken, Y: c}
			l.emit(branch)
		default:
			l.emit(&wgsl.If{Cond: notTaken, Then: &wgsl.Block{Stmts: append(pre, branch)}})
		}
	}
	if last := chain[len(chain)-1]; last.Else != nil {
		l.emit(&wgsl.If{Cond: notTaken, Then: l.block(last.Else)})
	}
}

// loop lowers Go's for: loop { if !(cond) { break; } body continuing { post } }.
// WGSL's continue runs the continuing block, as Go's runs the post
// statement.
func (l *lowerer) loop(s *ir.Loop) {
	var body []wgsl.Stmt
	saved := l.fn.out
	l.fn.out = &body
	l.deeper()
	defer func() { l.fn.depth-- }()
	if s.Cond != nil {
		c := l.expr(s.Cond)
		l.emit(&wgsl.If{Cond: &wgsl.Unary{Op: wgsl.Not, X: c}, Then: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Break{}}}})
	}
	if s.Body != nil {
		l.stmts(s.Body)
	}
	l.fn.out = saved
	w := &wgsl.Loop{Body: &wgsl.Block{Stmts: body}}
	if s.Post != nil && len(s.Post.Stmts) > 0 {
		w.Continuing = l.block(s.Post)
	}
	l.emit(w)
}

// barrier lowers Thread.Barrier. Go's barrier orders writes to shared
// arrays and to buffers, so a barrier that orders accesses to a written
// buffer fences storage too (storageFences). WGSL requires uniform
// control flow; the IR's analysis says whether the barrier is in it.
func (l *lowerer) barrier(s *ir.Barrier) {
	if u := l.k.Uniform; u != nil {
		if uniform, ok := u.Flow[s]; ok && !uniform {
			l.fail(ruleBarrier, "Barrier in non-uniform control flow: every work-item of a block must reach it; move it out of conditions and loops that depend on per-thread values")
		}
	}
	if l.storage && (!l.fn.main || l.fences[s]) {
		l.emit(&wgsl.CallStmt{Call: wgsl.CallOf("storageBarrier")})
	}
	l.emit(&wgsl.CallStmt{Call: wgsl.CallOf("workgroupBarrier")})
}

// exprStmt lowers an expression evaluated for its effect.
func (l *lowerer) exprStmt(s *ir.ExprStmt) {
	if a, ok := s.X.(*ir.Atomic); ok && a.Op == ir.AtomicStore {
		l.atomicStore(a)
		return
	}
	x := l.expr(s.X)
	if c, ok := x.(*wgsl.Call); ok && isEffectCall(c) {
		l.emit(&wgsl.CallStmt{Call: c})
		return
	}
	if !mayHaveEffect(x) {
		return // nothing left to evaluate: its effects were hoisted, or it had none
	}
	l.emit(&wgsl.Assign{RHS: x})
}

// isEffectCall reports whether c is a call WGSL allows as a statement and
// that may have an effect: a declared function or an atomic.
func isEffectCall(c *wgsl.Call) bool {
	n := c.Fn
	return len(n) > 2 && n[:2] == prefixFunc || len(n) > 6 && n[:6] == "atomic"
}

// assign lowers Dst = Value. Go evaluates the index operands of the
// destination before the value, so an index with an effect is evaluated
// into a let first.
func (l *lowerer) assign(s *ir.Assign) {
	if l.atomicPlace(s.Dst) {
		l.atomicStore(&ir.Atomic{Op: ir.AtomicStore, Ptr: s.Dst, Args: []ir.Expr{s.Value}})
		return
	}
	if ix, ok := s.Dst.(*ir.Index); ok && narrowElem(ix.X) != nil {
		l.narrowAssign(narrowElem(ix.X), ix, s.Value)
		return
	}
	dst := l.place(s.Dst)
	l.emit(&wgsl.Assign{LHS: dst, RHS: l.expr(s.Value)})
}

// place lowers a destination: a VarRef, or an Index or FieldOf chain
// rooted at a Var, buffer or shared array.
func (l *lowerer) place(e ir.Expr) wgsl.Expr {
	switch e := e.(type) {
	case *ir.VarRef:
		return wgsl.Id(l.local(e.Var))
	case *ir.BufferRef:
		return wgsl.Id(mangle(prefixBuffer, e.Param.Name))
	case *ir.SharedRef:
		return wgsl.Id(mangle(prefixShared, e.Shared.Name))
	case *ir.Index:
		x := l.place(e.X)
		return &wgsl.Index{X: x, Index: l.elemIndex(e.X, l.hoistEffects(e.Index))}
	case *ir.FieldOf:
		return &wgsl.Member{X: l.place(e.X), Name: l.fieldName(e)}
	}
	l.fail(ruleIR, "cannot assign to %T", e)
	return wgsl.Id("xpu_invalid")
}

// hoistEffects lowers e, evaluating it into a let first when it has an
// effect, so that it runs before what is lowered next.
func (l *lowerer) hoistEffects(e ir.Expr) wgsl.Expr {
	x := l.expr(e)
	if !hasEffects(e) {
		return x
	}
	return l.let(x)
}

// declare declares the function variable name of type typ, then assigns
// it init, or Go's zero value when init is nil. The assignment is what
// zeroes the variable each time the declaration runs: naga zeroes a
// variable declared without an initializer once, on entry to the
// function, so inside a loop it kept the last iteration's value where Go
// starts afresh (LoopLocalZero). A variable declared with an initializer
// is initialized each time, by naga as by the specification
// (LogicalInLoop checks the short-circuit's flag, declared so).
func declare(name string, typ wgsl.Type, init wgsl.Expr) []wgsl.Stmt {
	if init == nil {
		init = &wgsl.Construct{Type: typ}
	}
	return []wgsl.Stmt{&wgsl.VarDecl{Name: name, Type: typ}, &wgsl.Assign{LHS: wgsl.Id(name), RHS: init}}
}

// letDecl declares v, never assigned after its declaration, as the value
// x: as a let, or, when x is another such value's name, as that name,
// which every later use of v then spells (one name stands for one value
// of the function, so it is in scope wherever v is). A literal stays a
// let: spelled in place it would be a constant expression, which WGSL
// checks when it creates the shader (a constant index or shift count out
// of range is refused there, where Go faults at run time).
func (l *lowerer) letDecl(v *ir.Var, name string, x wgsl.Expr) {
	if id, ok := x.(*wgsl.Ident); ok && l.fn.lets[id.Name] {
		l.fn.alias[v] = id
		return
	}
	if l.fn.once[v] && l.stable(x) && names(x) {
		// Named once, by one of the next statements of its own block:
		// the value is spelled there instead, as the front end's
		// temporaries of a tuple assignment are.
		l.fn.alias[v] = x
		return
	}
	l.fn.lets[name] = true
	l.emit(&wgsl.LetDecl{Name: name, Type: l.typ(v.Type), Init: x})
}

// stable reports whether x has one value wherever the function's values
// it reads are in scope: arithmetic on literals, lets of never-assigned
// variables, the entry point's builtins and the uniforms, with no call
// and no load.
func (l *lowerer) stable(x wgsl.Expr) bool {
	switch x := x.(type) {
	case *wgsl.Lit:
		return true
	case *wgsl.Ident:
		if l.fn.lets[x.Name] || x.Name == uniformVar {
			return true
		}
		return l.fn.main && slices.ContainsFunc(entryBuiltins, func(b entryBuiltin) bool { return b.param == x.Name })
	case *wgsl.Member:
		return l.stable(x.X)
	case *wgsl.Unary:
		return l.stable(x.X)
	case *wgsl.Binary:
		return l.stable(x.X) && l.stable(x.Y)
	}
	return false
}

// names reports whether x reads a name: spelled in place, an expression
// of literals only would be a constant expression (see letDecl).
func names(x wgsl.Expr) bool {
	switch x := x.(type) {
	case *wgsl.Ident:
		return true
	case *wgsl.Member:
		return names(x.X)
	case *wgsl.Unary:
		return names(x.X)
	case *wgsl.Binary:
		return names(x.X) || names(x.Y)
	}
	return false
}

// let evaluates x into a new let and returns its name; identifiers and
// literals come back as they are.
func (l *lowerer) let(x wgsl.Expr) wgsl.Expr {
	switch x.(type) {
	case *wgsl.Ident, *wgsl.Lit:
		return x
	}
	t := l.temp()
	l.emit(&wgsl.LetDecl{Name: t, Init: x})
	return wgsl.Id(t)
}

// mayHaveEffect reports whether the lowered expression x calls a
// declared function or an atomic.
func mayHaveEffect(x wgsl.Expr) bool {
	switch x := x.(type) {
	case *wgsl.Call:
		if isEffectCall(x) {
			return true
		}
		return slices.ContainsFunc(x.Args, mayHaveEffect)
	case *wgsl.Construct:
		return slices.ContainsFunc(x.Args, mayHaveEffect)
	case *wgsl.Unary:
		return mayHaveEffect(x.X)
	case *wgsl.Binary:
		return mayHaveEffect(x.X) || mayHaveEffect(x.Y)
	case *wgsl.Bitcast:
		return mayHaveEffect(x.X)
	case *wgsl.Index:
		return mayHaveEffect(x.X) || mayHaveEffect(x.Index)
	case *wgsl.Member:
		return mayHaveEffect(x.X)
	}
	return false
}
