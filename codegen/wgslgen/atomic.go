package wgslgen

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// atomicArray describes the element an atomic or an access to an atomic
// array addresses.
type atomicArray struct {
	name  string       // WGSL name of the array
	array ir.Expr      // the buffer or shared array
	index ir.Expr      // the element's index
	elem  ir.Type      // the element's Go type
	word  ir.BasicKind // the atomic's type on the device: I32 or U32
}

// floatBacked reports whether the array holds float32s as atomic<u32>.
func (a atomicArray) floatBacked() bool { return ir.IsKind(a.elem, ir.F32) }

// atomicPlace reports whether e addresses an element of an atomic array
// (a buffer or shared array that some atomic touches): such an element is
// read and written through atomicLoad and atomicStore. A struct field
// there is refused.
func (l *lowerer) atomicPlace(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.Index:
		_, ok := arrayOf(e.X)
		return ok
	case *ir.FieldOf:
		if l.atomicPlace(e.X) {
			l.fail(ruleAtomicStruct, "atomics on struct fields are not supported; keep the atomic counters in a []int32 or []uint32 of their own")
			return true
		}
	}
	return false
}

// arrayOf returns the access of a buffer or shared array, and whether it
// is atomic.
func arrayOf(e ir.Expr) (schema.Access, bool) {
	switch b := e.(type) {
	case *ir.BufferRef:
		return b.Param.Access, b.Param.Access == schema.AccessAtomic
	case *ir.SharedRef:
		return b.Shared.Access, b.Shared.Access == schema.AccessAtomic
	}
	return schema.AccessNone, false
}

// atomicTarget resolves the pointer operand of an atomic.
func (l *lowerer) atomicTarget(ptr ir.Expr) (atomicArray, bool) {
	if _, ok := ptr.(*ir.FieldOf); ok {
		l.fail(ruleAtomicStruct, "atomics on struct fields are not supported; keep the atomic counters in a []int32 or []uint32 of their own")
		return atomicArray{}, false
	}
	ix, ok := ptr.(*ir.Index)
	if !ok {
		l.fail(ruleIR, "atomic on %T; want an element of a buffer or shared array", ptr)
		return atomicArray{}, false
	}
	var a atomicArray
	var elem ir.Type
	switch b := ix.X.(type) {
	case *ir.BufferRef:
		a = atomicArray{name: mangle(prefixBuffer, b.Param.Name), elem: b.Param.Type}
		elem = b.Param.AtomicElem
		if b.Param.Access != schema.AccessAtomic {
			l.fail(ruleAtomicAccess, "atomic on buffer %s, whose access is %v, not atomic", b.Param.Name, b.Param.Access)
		}
	case *ir.SharedRef:
		a = atomicArray{name: mangle(prefixShared, b.Shared.Name), elem: b.Shared.Elem}
		elem = b.Shared.AtomicElem
		if b.Shared.Access != schema.AccessAtomic {
			l.fail(ruleAtomicAccess, "atomic on shared array %s, whose access is %v, not atomic", b.Shared.Name, b.Shared.Access)
		}
	default:
		l.fail(ruleIR, "atomic on an element of a %T; want a buffer or shared array", ix.X)
		return atomicArray{}, false
	}
	a.array, a.index = ix.X, ix.Index
	a.word = ir.U32
	if elem != nil {
		if b, ok := elem.(*ir.Basic); ok {
			a.word = b.Kind
		}
	} else if ir.IsKind(a.elem, ir.I32) {
		a.word = ir.I32
	}
	return a, true
}

func (a atomicArray) ptr(index wgsl.Expr) wgsl.Expr {
	return wgsl.AddrOfExpr(&wgsl.Index{X: wgsl.Id(a.name), Index: index})
}

// atomicCalls maps the read-modify-write atomics to WGSL's.
var atomicCalls = map[ir.AtomicOp]string{
	ir.AtomicAdd: "atomicAdd", ir.AtomicSub: "atomicSub", ir.AtomicMin: "atomicMin", ir.AtomicMax: "atomicMax",
	ir.AtomicAnd: "atomicAnd", ir.AtomicOr: "atomicOr", ir.AtomicXor: "atomicXor", ir.AtomicExchange: "atomicExchange",
}

// atomic lowers an atomic that yields the element's old value.
func (l *lowerer) atomic(e *ir.Atomic) wgsl.Expr {
	a, ok := l.atomicTarget(e.Ptr)
	if !ok {
		return wgsl.Id("xpu_invalid")
	}
	want := map[ir.AtomicOp]int{ir.AtomicCompareExchange: 2, ir.AtomicLoad: 0}[e.Op]
	if e.Op != ir.AtomicCompareExchange && e.Op != ir.AtomicLoad {
		want = 1
	}
	if len(e.Args) != want {
		l.fail(ruleIR, "%v with %d arguments", e.Op, len(e.Args))
		return wgsl.Id("xpu_invalid")
	}
	ops := l.exprs(append([]ir.Expr{a.index}, e.Args...))
	ops[0] = l.elemIndex(a.array, ops[0])
	switch e.Op {
	case ir.AtomicLoad:
		var v wgsl.Expr = wgsl.CallOf("atomicLoad", a.ptr(ops[0]))
		if a.floatBacked() {
			v = &wgsl.Bitcast{Type: wgsl.F32Type, X: v}
		}
		return v
	case ir.AtomicStore:
		l.fail(ruleIR, "AtomicStore used as a value")
		return wgsl.Id("xpu_invalid")
	case ir.AtomicCompareExchange:
		return l.compareExchange(a, ops)
	case ir.AtomicAddFloat32:
		if !a.floatBacked() {
			l.fail(ruleIR, "AtomicAddFloat32 on a %v element", a.elem)
		}
		return l.addFloat32(a, ops)
	}
	if a.floatBacked() {
		l.fail(ruleIR, "%v on a float32 element", e.Op)
	}
	return wgsl.CallOf(atomicCalls[e.Op], a.ptr(ops[0]), ops[1])
}

// atomicStore lowers AtomicStore, and a plain store to an atomic array.
func (l *lowerer) atomicStore(e *ir.Atomic) {
	a, ok := l.atomicTarget(e.Ptr)
	if !ok || len(e.Args) != 1 {
		l.fail(ruleIR, "malformed AtomicStore")
		return
	}
	ops := l.exprs([]ir.Expr{a.index, e.Args[0]})
	ops[0] = l.elemIndex(a.array, ops[0])
	v := ops[1]
	if a.floatBacked() {
		v = &wgsl.Bitcast{Type: wgsl.U32Type, X: v}
	}
	l.emit(&wgsl.CallStmt{Call: wgsl.CallOf("atomicStore", a.ptr(ops[0]), v)})
}

// compareExchange lowers Go's strong compare-exchange: WGSL has only the
// weak one, which may fail spuriously, so it retries until the exchange
// happens or the element differs from the expected value. The result is
// the old value, as in Go.
//
//	var r: T;
//	loop {
//	    let x = atomicCompareExchangeWeak(&a[i], cmp, new);
//	    if x.exchanged || x.old_value != cmp { r = x.old_value; break; }
//	}
func (l *lowerer) compareExchange(a atomicArray, ops []wgsl.Expr) wgsl.Expr {
	i, cmp, nw := l.let(ops[0]), l.let(ops[1]), l.let(ops[2])
	r, x := l.temp(), l.temp()
	old := &wgsl.Member{X: wgsl.Id(x), Name: "old_value"}
	l.emit(
		&wgsl.VarDecl{Name: r, Type: scalar(a.word)},
		&wgsl.Loop{Body: &wgsl.Block{Stmts: []wgsl.Stmt{
			&wgsl.LetDecl{Name: x, Init: wgsl.CallOf("atomicCompareExchangeWeak", a.ptr(i), cmp, nw)},
			when(bin(wgsl.LOr, &wgsl.Member{X: wgsl.Id(x), Name: "exchanged"}, bin(wgsl.Ne, old, cmp)),
				&wgsl.Assign{LHS: wgsl.Id(r), RHS: old},
				&wgsl.Break{}),
		}}},
	)
	return wgsl.Id(r)
}

// addFloat32 lowers AtomicAddFloat32 on an atomic<u32> holding float32
// bits, as a compare-exchange loop:
//
//	var old = atomicLoad(&a[i]);
//	loop {
//	    let x = atomicCompareExchangeWeak(&a[i], old, bitcast<u32>(bitcast<f32>(old) + v));
//	    if x.exchanged { break; }
//	    old = x.old_value;
//	}
//
// and yields bitcast<f32>(old).
func (l *lowerer) addFloat32(a atomicArray, ops []wgsl.Expr) wgsl.Expr {
	i, v := l.let(ops[0]), l.let(ops[1])
	old, x := l.temp(), l.temp()
	sum := &wgsl.Bitcast{Type: wgsl.U32Type, X: bin(wgsl.Add, &wgsl.Bitcast{Type: wgsl.F32Type, X: wgsl.Id(old)}, v)}
	l.emit(
		&wgsl.VarDecl{Name: old, Init: wgsl.CallOf("atomicLoad", a.ptr(i))},
		&wgsl.Loop{Body: &wgsl.Block{Stmts: []wgsl.Stmt{
			&wgsl.LetDecl{Name: x, Init: wgsl.CallOf("atomicCompareExchangeWeak", a.ptr(i), wgsl.Id(old), sum)},
			when(&wgsl.Member{X: wgsl.Id(x), Name: "exchanged"}, &wgsl.Break{}),
			&wgsl.Assign{LHS: wgsl.Id(old), RHS: &wgsl.Member{X: wgsl.Id(x), Name: "old_value"}},
		}}},
	)
	return &wgsl.Bitcast{Type: wgsl.F32Type, X: wgsl.Id(old)}
}
