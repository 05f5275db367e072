package frontend

// This file checks a kernel's signature, instantiates its template
// members and lowers each to an ir.Kernel.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/goxpu/xpu/codegen/ir"
)

// kernelState is the state of lowering one kernel (one template member).
type kernelState struct {
	c       *checker
	k       *ir.Kernel
	structs map[*types.Named]*ir.Struct
	specs   map[string]*ir.Func // device function specializations by key; nil when refused
	stack   []*types.Func       // device functions being lowered, for recursion
	global  map[string]bool     // names a local variable must not take
	targs   typeArgs            // the type arguments of the body being lowered
}

// signature is a kernel's checked signature.
type signature struct {
	thread   *types.Var
	params   []*types.Var // after the Thread, the comptime parameter included
	comptime *types.Var   // nil for a plain kernel
	ctType   *types.Named
	fn       *types.Func
	generic  bool // the kernel has type parameters
}

// kernel checks and lowers the kernel fd: one ir.Kernel, or one per
// template member.
func (c *checker) kernel(fd *ast.FuncDecl) {
	d, ok := c.directives(fd.Doc)
	sig := c.kernelSignature(fd)
	if sig == nil {
		return
	}
	if sig.comptime == nil && !sig.generic {
		if len(d.instances) > 0 {
			c.errorf(d.instances[0].pos, RuleDirective, "//xpu:instance on %s, which has no comptime struct parameter", fd.Name.Name)
			return
		}
		if c.requiresHold(fd.Name.Name, d, nil, "", fd.Name.Pos()) && ok {
			if block, wave, ok := c.shape(fd.Name.Name, d, nil, ""); ok {
				c.lowerKernel(fd, d, sig, fd.Name.Name, "", nil, block, wave, nil)
			}
		}
		return
	}
	if len(d.instances) == 0 && ok {
		if sig.generic {
			c.errorf(d.pos, RuleDirective, "generic kernel %s has no //xpu:instance lines", fd.Name.Name)
		} else {
			c.errorf(sig.comptime.Pos(), RuleStructUniform, "kernel %s takes the struct %s by value, but a struct parameter is a template's comptime parameter, not a uniform, and %s has no //xpu:instance lines", fd.Name.Name, sig.comptime.Name(), fd.Name.Name)
		}
		return
	}
	tmpl := &ir.Template{Name: fd.Name.Name, Pos: c.pos(fd.Name.Pos())}
	if sig.comptime != nil {
		tmpl.Param, tmpl.ParamType = sig.comptime.Name(), sig.ctType.Obj().Name()
		tmpl.ParamAt = slices.Index(sig.params, sig.comptime)
	}
	if !sig.generic {
		// A generic kernel's members differ in their buffers' types,
		// so they are kernels of their own, not one family to tune.
		c.mod.Templates = append(c.mod.Templates, tmpl)
	}
	for _, in := range d.instances {
		tmpl.Members = append(tmpl.Members, in.name)
		targs, ok := c.memberTypeArgs(in, fd, sig)
		if !ok {
			continue
		}
		var ct *comptime
		param := ""
		if sig.comptime != nil {
			vals, ok := c.instanceValues(in, sig.ctType)
			if !ok {
				continue
			}
			ct = &comptime{typ: sig.ctType, vals: vals, lit: in.text}
			param = sig.comptime.Name()
		}
		if !c.requiresHold(in.name, d, ct, param, in.pos) || !ok {
			continue
		}
		// The shape is evaluated after the requires clauses, so that
		// a clause can keep out the members whose shape is no shape.
		block, wave, shapeOK := c.shape(in.name, d, ct, param)
		if shapeOK {
			c.lowerKernel(fd, d, sig, in.name, in.name, ct, block, wave, targs)
		}
	}
}

// memberTypeArgs checks that the instance line in gives type arguments
// exactly when the kernel is generic, and a comptime value exactly when
// it has a comptime parameter, and binds the type arguments.
func (c *checker) memberTypeArgs(in *instanceDirective, fd *ast.FuncDecl, sig *signature) (typeArgs, bool) {
	switch {
	case sig.generic && in.fun == nil:
		c.errorFix(in.pos, RuleDirective, fixes[RuleTypeParam], "instance %s of the generic kernel %s names no type arguments", in.name, fd.Name.Name)
	case !sig.generic && in.fun != nil:
		c.errorf(in.targsBase, RuleDirective, "instance %s: %s has no type parameters", in.name, fd.Name.Name)
	case in.fun != nil && in.fun.Name != fd.Name.Name:
		c.errorf(in.targsBase, RuleDirective, "instance %s instantiates %s, not the kernel %s", in.name, in.fun.Name, fd.Name.Name)
	case sig.comptime != nil && in.lit == nil:
		c.errorf(in.pos, RuleDirective, "instance %s names no value of the comptime parameter %s", in.name, sig.comptime.Name())
	case sig.comptime == nil && in.lit != nil:
		c.errorf(in.base, RuleDirective, "instance %s: %s has no comptime struct parameter", in.name, fd.Name.Name)
	case !sig.generic:
		return nil, true
	default:
		return c.instanceTypeArgs(in, sig.fn)
	}
	return nil, false
}

// kernelSignature checks fd's signature and classifies its parameters.
func (c *checker) kernelSignature(fd *ast.FuncDecl) *signature {
	obj, _ := c.info.Defs[fd.Name].(*types.Func)
	if obj == nil {
		return nil
	}
	ts := obj.Type().(*types.Signature)
	bad := func(p token.Pos, msg string, args ...any) *signature {
		c.errorf(p, RuleKernelSignature, msg, args...)
		return nil
	}
	switch {
	case fd.Recv != nil:
		return bad(fd.Name.Pos(), "kernel %s is a method", fd.Name.Name)
	case ts.Results().Len() > 0:
		return bad(fd.Type.Results.Pos(), "kernel %s has results", fd.Name.Name)
	case ts.Variadic():
		return bad(ts.Params().At(ts.Params().Len()-1).Pos(), "kernel %s is variadic", fd.Name.Name)
	case ts.Params().Len() == 0:
		return bad(fd.Type.Params.Pos(), "kernel %s has no parameters; the first is an xpu.Thread", fd.Name.Name)
	case !isThread(ts.Params().At(0).Type()):
		return bad(ts.Params().At(0).Pos(), "the first parameter of kernel %s is not an xpu.Thread", fd.Name.Name)
	}
	sig := &signature{thread: ts.Params().At(0), fn: obj, generic: ts.TypeParams().Len() > 0}
	ok := true
	for i := 1; i < ts.Params().Len(); i++ {
		p := ts.Params().At(i)
		sig.params = append(sig.params, p)
		t := types.Unalias(p.Type())
		if _, isStruct := t.Underlying().(*types.Struct); !isStruct || isThread(t) {
			continue
		}
		n, named := t.(*types.Named)
		switch {
		case sig.comptime != nil:
			c.errorf(p.Pos(), RuleKernelSignature, "kernel %s has a second comptime struct parameter %s", fd.Name.Name, p.Name())
			ok = false
		case !named || n.Obj().Pkg() != c.pkg:
			c.errorf(p.Pos(), RuleStructLayout, "comptime parameter %s must have a named struct type of the kernel's package", p.Name())
			ok = false
		default:
			sig.comptime, sig.ctType = p, n
		}
	}
	if !ok {
		return nil
	}
	return sig
}

// lowerKernel lowers one kernel or template member named name, with the
// block and wave width shape gave it.
func (c *checker) lowerKernel(fd *ast.FuncDecl, d *directives, sig *signature, name, instance string, ct *comptime, block [3]uint32, wave uint32, targs typeArgs) {
	if c.kernelNames == nil {
		c.kernelNames = make(map[string]bool)
	}
	if c.kernelNames[name] {
		c.errorf(fd.Name.Pos(), RuleDirective, "a second kernel is named %s", name)
		return
	}
	c.kernelNames[name] = true
	nerr := len(c.errs)
	ks := &kernelState{
		c: c,
		k: &ir.Kernel{
			Name: name, Func: fd.Name.Name, Instance: instance,
			Block: block, Wave: wave, Pos: c.pos(fd.Name.Pos()),
		},
		structs: make(map[*types.Named]*ir.Struct),
		specs:   make(map[string]*ir.Func),
		global:  make(map[string]bool),
		targs:   targs,
	}
	if sig.generic {
		ks.k.TypeArgs = targs.key(sig.fn.Type().(*types.Signature).TypeParams(), c.pkg)
	}
	if ct != nil {
		ks.k.Comptime = ct.lit
	}
	f := ks.newFunc(true, nil)
	f.bind(sig.thread, &binding{kind: bindThread})
	nbuf, nscalar := 0, 0
	for _, p := range sig.params {
		if p == sig.comptime {
			f.bind(p, &binding{kind: bindComptime, ct: ct})
			continue
		}
		ip := ks.kernelParam(p)
		if ip == nil {
			f.bind(p, &binding{kind: bindBad})
			continue
		}
		if ip.Kind == ir.BufferParam {
			ip.Binding = nbuf
			nbuf++
			f.bind(p, &binding{kind: bindBuffer, param: ip})
		} else {
			ip.Binding = 4 * nscalar
			nscalar++
			f.bind(p, &binding{kind: bindScalar, param: ip})
		}
		ks.k.Params = append(ks.k.Params, ip)
		ks.global[p.Name()] = true
	}
	c.minLens(ks.k, d.minLen)
	for n := range ks.global {
		f.names[n] = true
	}
	ks.reserveTopLevel(fd.Body)
	ks.k.Body = f.kernelBody(fd.Body)
	ir.Widen(ks.k)
	c.analyze(ks.k)
	if len(c.errs) > nerr {
		return
	}
	if c.flatten(ks.k); len(c.errs) > nerr {
		return
	}
	c.mod.Kernels = append(c.mod.Kernels, ks.k)
}

// kernelParam classifies a kernel parameter as a buffer or a uniform.
func (ks *kernelState) kernelParam(p *types.Var) *ir.Param {
	ip := &ir.Param{Name: p.Name(), Pos: ks.c.pos(p.Pos())}
	t := p.Type()
	if elem := sliceElem(t); elem != nil {
		et, err := ks.irType(elem)
		if err == nil && !inMemory(et) {
			err = &typeError{RuleKernelSignature, "buffer elements are int32, uint32, float32, structs of those, or arrays of them"}
		}
		if err == nil {
			err = narrowPlace(et, true, "elements")
		}
		if err != nil {
			ks.c.errorf(p.Pos(), err.rule, "buffer %s: %s", p.Name(), err.msg)
			return nil
		}
		ip.Kind, ip.Type = ir.BufferParam, et
		return ip
	}
	st, err := ks.irType(t)
	if err == nil {
		err = narrowPlace(st, false, "a uniform")
	}
	if err == nil {
		if b, ok := st.(*ir.Basic); !ok || b == ir.BoolType {
			err = &typeError{RuleKernelSignature, "uniform parameters are int32, uint32 or float32"}
		}
	}
	if err != nil {
		ks.c.errorf(p.Pos(), err.rule, "parameter %s: %s", p.Name(), err.msg)
		return nil
	}
	ip.Kind, ip.Type = ir.ScalarParam, st
	return ip
}

// reserveTopLevel reserves the names of the variables declared at the top
// level of the kernel body (shared arrays among them), so that no local
// variable of a device function hides them.
func (ks *kernelState) reserveTopLevel(body *ast.BlockStmt) {
	for _, s := range body.List {
		switch s := s.(type) {
		case *ast.AssignStmt:
			for _, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					ks.global[id.Name] = true
				}
			}
		case *ast.DeclStmt:
			if g, ok := s.Decl.(*ast.GenDecl); ok {
				for _, sp := range g.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						for _, id := range vs.Names {
							if id.Name != "_" {
								ks.global[id.Name] = true
							}
						}
					}
				}
			}
		}
	}
}

// comptime is the value of a template member's comptime parameter.
type comptime struct {
	typ  *types.Named
	vals map[string]constant.Value
	lit  string // the member's value as Go source in the kernel's package
}

// field returns the value and type of the comptime field name.
func (ct *comptime) field(name string) (constant.Value, types.Type, bool) {
	st, _ := ct.typ.Underlying().(*types.Struct)
	if st == nil {
		return nil, nil, false
	}
	for f := range st.Fields() {
		if f.Name() == name {
			return ct.vals[name], f.Type(), true
		}
	}
	return nil, nil, false
}
