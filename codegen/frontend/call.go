package frontend

// This file lowers calls: conversions, Go builtins, the xpu vocabulary
// (thread queries, math, atomics) and device functions.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// threadQueries maps the Thread's query methods to builtins.
var threadQueries = map[string]ir.Builtin{
	"GlobalX": ir.GlobalX, "GlobalY": ir.GlobalY, "GlobalZ": ir.GlobalZ,
	"LocalX": ir.LocalX, "LocalY": ir.LocalY, "LocalZ": ir.LocalZ,
	"GroupX": ir.GroupX, "GroupY": ir.GroupY, "GroupZ": ir.GroupZ,
	"NumGroupsX": ir.NumGroupsX, "NumGroupsY": ir.NumGroupsY, "NumGroupsZ": ir.NumGroupsZ,
	"BlockX": ir.BlockX, "BlockY": ir.BlockY, "BlockZ": ir.BlockZ,
	"LocalIndex": ir.LocalIndex, "WaveWidth": ir.WaveWidth, "LaneIndex": ir.LaneIndex,
}

// atomicFuncs maps xpu's atomics to IR atomics.
var atomicFuncs = map[string]ir.AtomicOp{
	"AtomicAdd": ir.AtomicAdd, "AtomicSub": ir.AtomicSub, "AtomicMin": ir.AtomicMin,
	"AtomicMax": ir.AtomicMax, "AtomicAnd": ir.AtomicAnd, "AtomicOr": ir.AtomicOr,
	"AtomicXor": ir.AtomicXor, "AtomicExchange": ir.AtomicExchange,
	"AtomicCompareExchange": ir.AtomicCompareExchange, "AtomicAddFloat32": ir.AtomicAddFloat32,
	"AtomicLoad": ir.AtomicLoad, "AtomicStore": ir.AtomicStore,
}

// floatAtomics are the atomics that take a float32 element.
var floatAtomics = map[ir.AtomicOp]bool{ir.AtomicAddFloat32: true, ir.AtomicLoad: true, ir.AtomicStore: true}

// callee returns the function a call expression names, if any.
func (f *fnState) callee(fun ast.Expr) types.Object {
	switch e := ast.Unparen(fun).(type) {
	case *ast.Ident:
		return f.c.info.Uses[e]
	case *ast.SelectorExpr:
		if sel := f.c.info.Selections[e]; sel != nil {
			return sel.Obj()
		}
		return f.c.info.Uses[e.Sel]
	case *ast.IndexExpr:
		return f.callee(e.X)
	case *ast.IndexListExpr:
		return f.callee(e.X)
	}
	return nil
}

// isSharedCall reports whether e is a call of xpu.Shared.
func (f *fnState) isSharedCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := f.callee(call.Fun).(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() == xpuPath && fn.Name() == "Shared"
}

// call lowers a call expression that yields a value (or, for a device
// function without result, is a statement).
func (f *fnState) call(e *ast.CallExpr) ir.Expr {
	c := f.c
	if tv, ok := c.info.Types[e.Fun]; ok && tv.IsType() {
		return f.conversion(e, tv.Type)
	}
	obj := f.callee(e.Fun)
	switch obj := obj.(type) {
	case *types.Builtin:
		return f.builtin(e, obj.Name())
	case *types.Func:
		sig, _ := obj.Type().(*types.Signature)
		if sig != nil && sig.Recv() != nil {
			return f.method(e, obj, sig)
		}
		switch {
		case obj.Pkg() == nil:
		case obj.Pkg().Path() == xpuPath:
			return f.vocabulary(e, obj)
		case isLibraryPackage(obj.Pkg().Path()):
			return f.libraryCall(e, obj, nil)
		case obj.Pkg() == c.pkg:
			return f.deviceCall(e, obj)
		default:
			c.errorf(e.Pos(), RuleImport, "call of %s.%s", obj.Pkg().Path(), obj.Name())
			return f.bad()
		}
	}
	if _, isLit := ast.Unparen(e.Fun).(*ast.FuncLit); isLit {
		c.errorf(e.Fun.Pos(), RuleNoClosure, "call of a function literal")
	} else if obj == nil {
		f.undefined(e.Fun)
	} else {
		c.errorf(e.Pos(), RuleNoClosure, "call of the function value %s", types.ExprString(e.Fun))
	}
	return f.bad()
}

// method lowers a method call: only the Thread's queries.
func (f *fnState) method(e *ast.CallExpr, fn *types.Func, sig *types.Signature) ir.Expr {
	c := f.c
	if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && isFloat16(sig.Recv().Type()) && fn.Name() == "Float32" {
		return f.float16Method(e, sel)
	}
	if !isThread(sig.Recv().Type()) {
		c.errorf(e.Pos(), RuleUnsupported, "method call %s; write device functions as plain functions", types.ExprString(e.Fun))
		return f.bad()
	}
	sel, _ := ast.Unparen(e.Fun).(*ast.SelectorExpr)
	if b := f.threadOf(sel); b == nil || b.kind != bindThread {
		c.errorf(e.Pos(), RuleUnsupported, "method of a thread other than the kernel's parameter")
		return f.bad()
	}
	q, ok := threadQueries[fn.Name()]
	if !ok {
		// Barrier yields no value; it is handled as a statement.
		c.errorf(e.Pos(), RuleUnsupported, "thread method %s in an expression", fn.Name())
		return f.bad()
	}
	return &ir.CallBuiltin{Fn: q, T: ir.U32Type}
}

// threadOf returns the binding of the receiver of a Thread method call.
func (f *fnState) threadOf(sel *ast.SelectorExpr) *binding {
	if sel == nil {
		return nil
	}
	return f.objBinding(sel.X)
}

// vocabulary lowers a call of a function of package xpu.
func (f *fnState) vocabulary(e *ast.CallExpr, fn *types.Func) ir.Expr {
	c := f.c
	name := fn.Name()
	if name == "Shared" {
		c.errorf(e.Pos(), RuleSharedPlacement, "xpu.Shared outside a variable declaration at the top level of the kernel body")
		return f.bad()
	}
	if _, ok := library[xpuPath+"."+name]; ok {
		return f.libraryCall(e, fn, nil)
	}
	if name == "Float16From" {
		return f.float16From(e)
	}
	if op, ok := atomicFuncs[name]; ok {
		return f.atomic(e, op)
	}
	if op, ok := schema.WaveOpNamed(name); ok {
		return f.wave(e, op)
	}
	c.errorf(e.Pos(), RuleImport, "xpu.%s is not in the kernel vocabulary", name)
	return f.bad()
}

// atomic lowers an atomic on &buf[i] or &shared[i] (possibly .Field).
func (f *fnState) atomic(e *ast.CallExpr, op ir.AtomicOp) ir.Expr {
	c := f.c
	if len(e.Args) == 0 {
		return f.bad()
	}
	u, ok := ast.Unparen(e.Args[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		c.errorf(e.Args[0].Pos(), RuleNoPointer, "the target of %s is not &buf[i] or &shared[i]", op)
		return f.bad()
	}
	nerr := f.trouble()
	ptr := f.place(u.X, false)
	if f.trouble() > nerr {
		return f.bad()
	}
	if !rootedInMemory(ptr) {
		c.errorf(u.X.Pos(), RuleNoPointer, "the target of %s is not an element of a buffer or shared array", op)
		return f.bad()
	}
	elem := ptr.Type()
	if ir.IsKind(elem, ir.F32) && !floatAtomics[op] {
		fix := "use xpu.AtomicAddFloat32(&buf[i], v)"
		if op != ir.AtomicAdd {
			fix = "atomics on float32 are xpu.AtomicAddFloat32, AtomicLoad and AtomicStore; keep the value's bits in a uint32 (math.Float32bits) for the others"
		}
		c.errorFix(e.Pos(), RuleUnsupported, fix, "xpu.%v on a float32", op)
		return f.bad()
	}
	if b, ok := elem.(*ir.Basic); ok && b.Narrow() {
		// Devices have atomics on 32-bit words only, and WebGPU packs
		// narrow elements four or two to a word.
		name := b.String()
		if b.Named != "" {
			name = "xpu" + b.Named[strings.LastIndexByte(b.Named, '.'):]
		}
		c.errorFix(e.Pos(), RuleNarrowPlace, "keep the values an atomic touches in a []uint32 or []int32", "xpu.%v on %s elements: atomics act on 32-bit words", op, name)
		return f.bad()
	}
	args := make([]ir.Expr, 0, len(e.Args)-1)
	for _, a := range e.Args[1:] {
		args = append(args, f.exprHint(a, elem))
	}
	var t ir.Type = elem
	if op == ir.AtomicStore {
		t = nil
	}
	return &ir.Atomic{Op: op, Ptr: ptr, Args: args, T: t}
}

// rootedInMemory reports whether a place is an element of a buffer or a
// shared array.
func rootedInMemory(x ir.Expr) bool {
	for {
		switch e := x.(type) {
		case *ir.Index:
			switch e.X.(type) {
			case *ir.BufferRef, *ir.SharedRef:
				return true
			}
			return false
		case *ir.FieldOf:
			x = e.X
		default:
			return false
		}
	}
}

// builtin lowers a call of a Go builtin function.
func (f *fnState) builtin(e *ast.CallExpr, name string) ir.Expr {
	c := f.c
	switch name {
	case "min", "max":
		nerr := f.trouble()
		t := f.irTypeOf(e, nerr)
		if t == nil || len(e.Args) == 0 {
			return f.bad()
		}
		fn := ir.Min
		if name == "max" {
			fn = ir.Max
		}
		acc := f.exprHint(e.Args[0], t)
		for _, a := range e.Args[1:] {
			acc = &ir.CallBuiltin{Fn: fn, Args: []ir.Expr{acc, f.exprHint(a, t)}, T: t}
		}
		return acc
	case "len":
		c.errorFix(e.Pos(), RuleNo64Bit, "convert it: uint32(len(buf)) or int32(len(buf))", "len yields an int")
	case "make", "new", "append":
		c.errorf(e.Pos(), RuleNoAlloc, "call of %s", name)
	case "panic", "recover", "print", "println":
		c.errorf(e.Pos(), RuleNoPanic, "call of %s", name)
	case "close":
		c.errorf(e.Pos(), RuleNoChannel, "call of close")
	case "delete":
		c.errorf(e.Pos(), RuleNoMap, "call of delete")
	default:
		c.errorf(e.Pos(), RuleUnsupported, "call of builtin %s", name)
	}
	return f.bad()
}

// conversion lowers T(x).
func (f *fnState) conversion(e *ast.CallExpr, to types.Type) ir.Expr {
	c := f.c
	if len(e.Args) != 1 {
		return f.bad()
	}
	if f.float16Conversion(e, to) {
		return f.bad()
	}
	nerr := f.trouble()
	t, terr := f.ks.irType(to)
	if terr != nil {
		fix := fixes[terr.rule]
		c.errorFix(e.Pos(), terr.rule, fix, "conversion to %s: %s", to, terr.msg)
		return f.bad()
	}
	arg := ast.Unparen(e.Args[0])
	var x ir.Expr
	if call, ok := arg.(*ast.CallExpr); ok {
		switch fn := f.callee(call.Fun).(type) {
		case *types.Builtin:
			if fn.Name() == "len" && len(call.Args) == 1 && ir.IsInteger(t) {
				return f.length(call, t)
			}
		case *types.Func:
			if fn.Pkg() != nil && isLibraryPackage(fn.Pkg().Path()) && wideResult(fn) != "" {
				x = f.libraryCall(call, fn, t)
			}
		}
	}
	if x == nil {
		x = f.exprHint(arg, t)
	}
	if f.trouble() > nerr {
		return f.bad()
	}
	bt, ok := t.(*ir.Basic)
	if x.Type() == t || !ok {
		if x.Type() != t {
			c.errorf(e.Pos(), RuleUnsupported, "conversion of %v to %v", x.Type(), t)
			return f.bad()
		}
		return x
	}
	if _, ok := x.Type().(*ir.Basic); !ok {
		c.errorf(e.Pos(), RuleUnsupported, "conversion of %v to %v", x.Type(), t)
		return f.bad()
	}
	return &ir.Convert{X: x, T: bt}
}

// length lowers uint32(len(buf)) and int32(len(buf)).
func (f *fnState) length(call *ast.CallExpr, t ir.Type) ir.Expr {
	b := f.objBinding(call.Args[0])
	switch {
	case b != nil && b.kind == bindBuffer:
		var x ir.Expr = &ir.Len{Buffer: b.param}
		if t != ir.U32Type {
			x = &ir.Convert{X: x, T: t.(*ir.Basic)}
		}
		return x
	case b != nil && b.kind == bindShared:
		return &ir.Const{T: t.(*ir.Basic), Bits: uint32(b.shared.Len)}
	case b != nil && b.kind == bindBad:
		return f.bad()
	}
	f.c.errorf(call.Args[0].Pos(), RuleUnsupported, "len of %s; len applies to buffers, shared arrays and arrays", types.ExprString(call.Args[0]))
	return f.bad()
}
