package frontend

// This file instantiates generic kernels and device functions: the type
// arguments of an //xpu:instance line or of a call (go/types' Instances),
// the check that a constraint ranges over kernel scalars only, and the
// substitution of type arguments for type parameters in a body's types.

import (
	"errors"
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// typeArgs maps the type parameters of the function being lowered to
// their type arguments, which are concrete: a call's arguments are
// substituted by the caller's map before they enter the callee's.
type typeArgs map[*types.TypeParam]types.Type

// subst replaces the type parameters in t by their arguments.
func (m typeArgs) subst(t types.Type) types.Type {
	if len(m) == 0 || t == nil {
		return t
	}
	switch u := types.Unalias(t).(type) {
	case *types.TypeParam:
		if a, ok := m[u]; ok {
			return a
		}
	case *types.Array:
		return types.NewArray(m.subst(u.Elem()), u.Len())
	case *types.Slice:
		return types.NewSlice(m.subst(u.Elem()))
	case *types.Pointer:
		return types.NewPointer(m.subst(u.Elem()))
	}
	return t
}

// key spells the arguments of tps for a specialization key and for the
// generated file, in the package of the kernels: "[float32]".
func (m typeArgs) key(tps *types.TypeParamList, pkg *types.Package) string {
	if tps.Len() == 0 {
		return ""
	}
	qual := types.RelativeTo(pkg)
	var b strings.Builder
	b.WriteByte('[')
	for i := range tps.Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(types.TypeString(m[tps.At(i)], qual))
	}
	b.WriteByte(']')
	return b.String()
}

// bind checks the concrete type arguments targs against fn's type
// parameters, whose constraints must range over kernel scalars, and
// returns the map. what names the instance or the call for messages.
func (c *checker) bindTypeArgs(fn *types.Func, targs []types.Type, what string) (typeArgs, error) {
	sig := fn.Type().(*types.Signature)
	tps := sig.TypeParams()
	if len(targs) != tps.Len() {
		return nil, fmt.Errorf("%s: %s has %d type parameters, got %d type arguments", what, fn.Name(), tps.Len(), len(targs))
	}
	m := make(typeArgs, tps.Len())
	for i := range tps.Len() {
		tp := tps.At(i)
		if err := scalarConstraint(tp, types.RelativeTo(c.pkg)); err != nil {
			return nil, fmt.Errorf("%s: type parameter %s of %s: %v", what, tp.Obj().Name(), fn.Name(), err)
		}
		m[tp] = targs[i]
	}
	if _, err := types.Instantiate(nil, sig, targs, true); err != nil {
		return nil, fmt.Errorf("%s: %s%s: %v", what, fn.Name(), m.key(tps, c.pkg), err)
	}
	return m, nil
}

// scalarConstraint says why the type set of tp's constraint is not a set
// of kernel scalars: a constraint with methods, or without a type list
// (any, comparable), admits types the devices have no form for.
func scalarConstraint(tp *types.TypeParam, qual types.Qualifier) error {
	terms, bounded, methods := typeSet(tp.Constraint())
	constraint := types.TypeString(tp.Constraint(), qual)
	switch {
	case methods:
		return fmt.Errorf("constraint %s has methods; device code calls no methods", constraint)
	case !bounded:
		return fmt.Errorf("constraint %s admits every type", constraint)
	}
	for _, t := range terms {
		term := types.TypeString(t.Type(), qual)
		if t.Tilde() {
			term = "~" + term
		}
		b, ok := t.Type().Underlying().(*types.Basic)
		if !ok {
			return fmt.Errorf("constraint %s admits %s, which is no scalar", constraint, term)
		}
		if _, err := basicType(b); err != nil {
			return fmt.Errorf("constraint %s admits %s (%s)", constraint, term, err.msg)
		}
	}
	return nil
}

// typeSet returns the terms of the type set of the constraint t; bounded
// is false when the set is every type (no type list), methods true when
// the constraint has methods.
func typeSet(t types.Type) (terms []*types.Term, bounded, methods bool) {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return []*types.Term{types.NewTerm(false, t)}, true, false
	}
	if iface.NumMethods() > 0 {
		return nil, false, true
	}
	for i := range iface.NumEmbeddeds() {
		var elem []*types.Term
		elemBounded := true
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := range e.Len() {
				sub, b, m := typeSet(e.Term(j).Type())
				if m {
					return nil, false, true
				}
				if e.Term(j).Tilde() {
					sub = []*types.Term{e.Term(j)}
				}
				elem = append(elem, sub...)
				elemBounded = elemBounded && b
			}
		default:
			sub, b, m := typeSet(e)
			if m {
				return nil, false, true
			}
			elem, elemBounded = sub, b
		}
		switch {
		case !elemBounded: // comparable, any: no narrower
		case !bounded:
			terms, bounded = elem, true
		default:
			terms = intersect(terms, elem)
		}
	}
	return terms, bounded, false
}

// intersect returns the terms of a that lie in b and those of b that lie
// in a.
func intersect(a, b []*types.Term) []*types.Term {
	var out []*types.Term
	within := func(x *types.Term, ys []*types.Term) bool {
		for _, y := range ys {
			if y.Tilde() && types.Identical(x.Type().Underlying(), y.Type()) ||
				!x.Tilde() && !y.Tilde() && types.Identical(x.Type(), y.Type()) {
				return true
			}
		}
		return false
	}
	for _, x := range a {
		if within(x, b) {
			out = append(out, x)
		}
	}
	for _, y := range b {
		if within(y, a) && !within(y, out) {
			out = append(out, y)
		}
	}
	return out
}

// instanceTypeArgs evaluates the type arguments of an //xpu:instance
// line in the package's scope and binds them to fn's type parameters.
func (c *checker) instanceTypeArgs(in *instanceDirective, fn *types.Func) (typeArgs, bool) {
	what := "instance " + in.name
	targs := make([]types.Type, len(in.targs))
	for i, x := range in.targs {
		tv, err := types.Eval(c.fset, c.pkg, in.pos, types.ExprString(x))
		if te, ok := err.(types.Error); ok {
			err = errors.New(te.Msg) // without Eval's own position
		}
		if err == nil && !tv.IsType() {
			err = fmt.Errorf("%s is not a type", types.ExprString(x))
		}
		if err != nil {
			c.errorf(at(in.targsBase, x.Pos()), RuleTypeParam, "%s: type argument %s: %v", what, types.ExprString(x), err)
			return nil, false
		}
		targs[i] = tv.Type
	}
	m, err := c.bindTypeArgs(fn, targs, what)
	if err != nil {
		p := in.targsBase
		if len(in.targs) > 0 {
			p = at(in.targsBase, in.targs[0].Pos())
		}
		c.errorf(p, RuleTypeParam, "%v", err)
		return nil, false
	}
	return m, true
}

// callTypeArgs returns the type arguments of the call e of the generic
// device function fn, as go/types inferred or read them, with the
// caller's own type parameters replaced by their arguments.
func (f *fnState) callTypeArgs(e *ast.CallExpr, fn *types.Func) (typeArgs, bool) {
	id := calleeIdent(e.Fun)
	inst, ok := f.c.info.Instances[id]
	if id == nil || !ok {
		f.c.errorf(e.Pos(), RuleTypeParam, "call of %s: go/types recorded no instance", fn.Name())
		return nil, false
	}
	targs := make([]types.Type, inst.TypeArgs.Len())
	for i := range targs {
		targs[i] = f.ks.targs.subst(inst.TypeArgs.At(i))
	}
	m, err := f.c.bindTypeArgs(fn, targs, "call of "+fn.Name())
	if err != nil {
		f.c.errorf(e.Pos(), RuleTypeParam, "%v", err)
		return nil, false
	}
	return m, true
}

// calleeIdent returns the identifier that names the function of a call,
// f, pkg.f, f[T] or f[T, U].
func calleeIdent(fun ast.Expr) *ast.Ident {
	switch e := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return e
	case *ast.SelectorExpr:
		return e.Sel
	case *ast.IndexExpr:
		return calleeIdent(e.X)
	case *ast.IndexListExpr:
		return calleeIdent(e.X)
	}
	return nil
}

// withTypeArgs lowers with m as the type arguments in force, as the body
// of a generic function is lowered.
func (ks *kernelState) withTypeArgs(m typeArgs, do func()) {
	saved := ks.targs
	ks.targs = m
	do()
	ks.targs = saved
}
