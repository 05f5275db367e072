package frontend

// This file holds the state of lowering one function body (a kernel's or
// a device function's) and the specialization of device functions per
// argument tuple.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
)

// bindKind says what a Go object stands for in device code.
type bindKind int

const (
	bindVar      bindKind = iota // a local variable or value parameter
	bindThread                   // the xpu.Thread
	bindBuffer                   // a buffer parameter of the kernel
	bindScalar                   // a uniform parameter of the kernel
	bindShared                   // a shared array
	bindComptime                 // the comptime parameter of a template
	bindBad                      // refused already; uses report nothing more
)

// binding is what a Go object stands for.
type binding struct {
	kind   bindKind
	v      *ir.Var
	param  *ir.Param
	shared *ir.Shared
	ct     *comptime
}

// fnState is the state of lowering one function body.
type fnState struct {
	ks       *kernelState
	c        *checker
	kernel   bool    // the kernel's own body
	result   ir.Type // the device function's result type
	binds    map[types.Object]*binding
	names    map[string]bool
	assigned map[types.Object]bool    // objects assigned somewhere in the body
	out      *ir.Block                // the block statements go to
	depth    int                      // nesting below the body's top level
	targets  []bool                   // break targets, innermost last: true for a switch
	forInit  bool                     // lowering the init of a for statement
	silent   int                      // uses of refused objects, which report nothing
	consts   map[ast.Expr]constAnswer // constValue's answers, each found once
}

// trouble counts the errors and silent failures so far: a construct
// reports an error of its own only when its operands caused none.
func (f *fnState) trouble() int { return len(f.c.errs) + f.silent }

// newFunc starts lowering a body.
func (ks *kernelState) newFunc(kernel bool, result ir.Type) *fnState {
	f := &fnState{
		ks: ks, c: ks.c, kernel: kernel, result: result,
		binds: make(map[types.Object]*binding),
		names: make(map[string]bool),
	}
	for n := range ks.global {
		f.names[n] = true
	}
	return f
}

// bind records what obj stands for.
func (f *fnState) bind(obj types.Object, b *binding) {
	if obj != nil {
		f.binds[obj] = b
	}
}

// name returns a name based on want that is unused in the function.
func (f *fnState) name(want string) string {
	if want == "" || want == "_" {
		want = "tmp"
	}
	n := want
	for i := 1; f.names[n]; i++ {
		n = fmt.Sprintf("%s_%d", want, i)
	}
	f.names[n] = true
	return n
}

// newVar declares a local variable for obj (nil for a temporary).
func (f *fnState) newVar(obj types.Object, name string, t ir.Type, p token.Pos) *ir.Var {
	v := &ir.Var{Name: f.name(name), Type: t, Pos: f.c.pos(p)}
	f.bind(obj, &binding{kind: bindVar, v: v})
	return v
}

// emit appends s to the current block.
func (f *fnState) emit(s ir.Stmt) { f.out.Stmts = append(f.out.Stmts, s) }

// temp evaluates x into a new temporary and returns a reference to it.
func (f *fnState) temp(x ir.Expr, p token.Pos) ir.Expr {
	if _, ok := x.(*ir.Const); ok {
		return x
	}
	v := f.newVar(nil, "tmp", x.Type(), p)
	f.emit(&ir.Decl{Var: v, Init: x, Pos: f.c.pos(p)})
	return &ir.VarRef{Var: v}
}

// into lowers with statements going to b.
func (f *fnState) into(b *ir.Block, do func()) {
	saved := f.out
	f.out = b
	f.depth++
	do()
	f.depth--
	f.out = saved
}

// kernelBody lowers the body of a kernel.
func (f *fnState) kernelBody(body *ast.BlockStmt) *ir.Block {
	f.assigned = assignedObjects(f.c.info, body)
	b := &ir.Block{}
	f.out = b
	// A uniform parameter the body assigns to becomes a local copy.
	for obj, bd := range f.binds {
		if bd.kind == bindScalar && f.assigned[obj] {
			v := f.newVar(obj, obj.Name(), bd.param.Type, obj.Pos())
			f.emit(&ir.Decl{Var: v, Init: &ir.ScalarRef{Param: bd.param}, Pos: v.Pos})
		}
	}
	f.stmts(body.List)
	return b
}

// assignedObjects returns the objects assigned to in body.
func assignedObjects(info *types.Info, body ast.Node) map[types.Object]bool {
	m := make(map[types.Object]bool)
	mark := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if obj := info.Uses[id]; obj != nil {
				m[obj] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				mark(l)
			}
		case *ast.IncDecStmt:
			mark(n.X)
		case *ast.RangeStmt:
			if n.Key != nil {
				mark(n.Key)
			}
		}
		return true
	})
	return m
}

// deviceCall lowers a call of the device function fn of the package.
func (f *fnState) deviceCall(e *ast.CallExpr, fn *types.Func) ir.Expr {
	c := f.c
	fd := c.decls[fn]
	sig := fn.Type().(*types.Signature)
	if fd == nil {
		c.errorf(e.Pos(), RuleUnsupported, "function %s has no Go body to translate", fn.Name())
		return f.bad()
	}
	if !f.ks.funcSignatureOK(fd, sig) {
		return f.bad()
	}
	if len(e.Args) != sig.Params().Len() || e.Ellipsis.IsValid() {
		c.errorf(e.Pos(), RuleFuncSignature, "call of %s with a multi-value argument", fn.Name())
		return f.bad()
	}
	for _, s := range f.ks.stack {
		if s == fn {
			c.errorf(e.Pos(), RuleNoRecursion, "call of %s recurses", fn.Name())
			return f.bad()
		}
	}
	var key strings.Builder
	key.WriteString(fn.FullName())
	var targs typeArgs
	if sig.TypeParams().Len() > 0 {
		m, ok := f.callTypeArgs(e, fn)
		if !ok {
			return f.bad()
		}
		targs = m
		key.WriteString(targs.key(sig.TypeParams(), c.pkg))
	}
	binds := make([]*binding, sig.Params().Len())
	var args []ir.Expr
	nerr := f.trouble()
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		a := e.Args[i]
		pt := types.Unalias(p.Type())
		switch {
		case isThread(pt):
			binds[i] = &binding{kind: bindThread}
		case sliceElem(pt) != nil:
			b := f.objBinding(a)
			switch {
			case b != nil && b.kind == bindBuffer:
				fmt.Fprintf(&key, "|b%p", b.param)
			case b != nil && b.kind == bindShared:
				fmt.Fprintf(&key, "|s%p", b.shared)
			case b != nil && b.kind == bindBad:
				f.silent++
			default:
				if nerr := f.trouble(); b == nil {
					if f.expr(a); f.trouble() > nerr {
						break
					}
				}
				c.errorf(a.Pos(), RuleBufferVar, "argument %s of %s is not a buffer parameter or a shared array", types.ExprString(a), fn.Name())
			}
			binds[i] = b
		case f.isComptime(a):
			b := f.objBinding(a)
			fmt.Fprintf(&key, "|c%v", b.ct.vals)
			binds[i] = b
		default:
			args = append(args, f.exprHint(a, nil))
			key.WriteString("|v")
		}
	}
	if f.trouble() > nerr {
		return f.bad()
	}
	spec, done := f.ks.specs[key.String()]
	if !done {
		f.ks.withTypeArgs(targs, func() { spec = f.ks.specialize(fd, fn, sig, binds) })
		f.ks.specs[key.String()] = spec // nil records a refusal, reported once
	}
	if spec == nil {
		f.silent++
		return f.bad()
	}
	return &ir.Call{Func: spec, Args: args, Pos: c.pos(e.Pos())}
}

// isComptime reports whether e names a comptime parameter.
func (f *fnState) isComptime(e ast.Expr) bool {
	b := f.objBinding(e)
	return b != nil && b.kind == bindComptime && b.ct != nil
}

// objBinding returns the binding of an identifier expression, or nil.
func (f *fnState) objBinding(e ast.Expr) *binding {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	return f.binds[f.c.info.Uses[id]]
}

// funcSignatureOK checks the signature of a device function.
func (ks *kernelState) funcSignatureOK(fd *ast.FuncDecl, sig *types.Signature) bool {
	c := ks.c
	switch {
	case sig.Variadic():
		c.errorf(fd.Type.Params.Pos(), RuleFuncSignature, "device function %s is variadic", fd.Name.Name)
	case sig.Results().Len() > 1:
		c.errorf(fd.Type.Results.Pos(), RuleFuncSignature, "device function %s has %d results", fd.Name.Name, sig.Results().Len())
	case sig.Results().Len() == 1 && sig.Results().At(0).Name() != "":
		c.errorf(fd.Type.Results.Pos(), RuleFuncSignature, "device function %s has a named result", fd.Name.Name)
	default:
		return true
	}
	return false
}

// specialize lowers the device function fd for one tuple of buffer,
// shared and comptime arguments (binds, nil for value parameters) and,
// when fd is generic, the type arguments in force.
func (ks *kernelState) specialize(fd *ast.FuncDecl, fn *types.Func, sig *types.Signature, binds []*binding) *ir.Func {
	c := ks.c
	nerr := len(c.errs)
	var result ir.Type
	if sig.Results().Len() == 1 {
		t, err := ks.irType(sig.Results().At(0).Type())
		if err != nil {
			c.errorf(fd.Type.Results.Pos(), err.rule, "result of %s: %s", fn.Name(), err.msg)
			return nil
		}
		result = t
	}
	f := ks.newFunc(false, result)
	irf := &ir.Func{Name: c.funcName(fn.Name()), GoName: fn.Name(), Result: result, Pos: c.pos(fd.Name.Pos())}
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		if binds[i] != nil {
			f.bind(p, binds[i])
			continue
		}
		t, err := ks.irType(p.Type())
		if err != nil {
			c.errorf(p.Pos(), err.rule, "parameter %s of %s: %s", p.Name(), fn.Name(), err.msg)
			f.bind(p, &binding{kind: bindBad})
			continue
		}
		irf.Params = append(irf.Params, f.newVar(p, p.Name(), t, p.Pos()))
	}
	ks.stack = append(ks.stack, fn)
	f.assigned = assignedObjects(c.info, fd.Body)
	irf.Body = &ir.Block{}
	f.out = irf.Body
	f.stmts(fd.Body.List)
	ks.stack = ks.stack[:len(ks.stack)-1]
	if len(c.errs) > nerr {
		return nil
	}
	ks.k.Funcs = append(ks.k.Funcs, irf)
	return irf
}

// funcName returns a device function name unique in the module.
func (c *checker) funcName(goName string) string {
	n := goName
	for i := 1; c.funcNames[n]; i++ {
		n = fmt.Sprintf("%s_%d", goName, i)
	}
	c.funcNames[n] = true
	return n
}
