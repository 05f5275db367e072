package llvmgen

// This file holds variables: a value for one assigned only where it is
// declared, else a stack slot (scalar for a uniform variable, vector for
// a varying one; a private array as an array of vectors, lane i of
// element j at vector j's lane i), which opt's SROA turns into registers.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
)

// variable is a lowered ir.Var.
type variable struct {
	t   ir.Type
	ssa *value     // the value of a variable never assigned after its declaration
	ptr llvm.Value // else its slot
	vec bool       // the slot holds W lanes
	lt  llvm.Type  // the slot's type
}

// memType returns the type of an element of t in memory (a buffer, a
// shared array, a struct field).
func (g *gen) memType(t ir.Type) llvm.Type {
	switch t := t.(type) {
	case *ir.Basic:
		if t.Kind == ir.Bool {
			g.fail("a bool in memory (a buffer, shared array or struct field)")
		}
		return g.basic(t)
	case *ir.Struct:
		fs := make([]llvm.Type, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = g.memType(f.Type)
		}
		return &llvm.StructType{Fields: fs}
	case *ir.Array:
		return &llvm.ArrayType{Len: t.Len, Elem: g.memType(t.Elem)}
	}
	g.fail("an element of type %v in memory", t)
	return nil
}

// slotType returns the type of a variable of t, with W lanes when vec.
func (g *gen) slotType(t ir.Type, vec bool) llvm.Type {
	lane := func(x llvm.Type) llvm.Type {
		if vec {
			return g.vec(x)
		}
		return x
	}
	switch t := t.(type) {
	case *ir.Basic:
		return lane(g.basic(t))
	case *ir.Struct:
		fs := make([]llvm.Type, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = g.slotType(f.Type, vec)
		}
		return &llvm.StructType{Fields: fs}
	case *ir.Array:
		if e, ok := t.Elem.(*ir.Basic); ok && e.Kind == ir.Bool {
			return &llvm.ArrayType{Len: t.Len, Elem: lane(llvm.I8)} // an i1 lane has no address of its own
		}
		return &llvm.ArrayType{Len: t.Len, Elem: g.slotType(t.Elem, vec)}
	}
	g.fail("a variable of type %v", t)
	return nil
}

// newSlot makes a stack slot for v.
func (g *gen) newSlot(v *ir.Var, vec bool) *variable {
	lt := g.slotType(v.Type, vec)
	return &variable{t: v.Type, vec: vec, lt: lt, ptr: g.b.Alloca("v."+v.Name, lt, 32)}
}

// varying reports whether a slot for v holds lanes.
func (g *gen) varying(v *ir.Var) bool { return g.forced || g.varyU[v] }

// declare lowers the declaration of v with initial value init (nil:
// zero).
func (g *gen) declare(v *ir.Var, init ir.Expr) {
	_, isArray := v.Type.(*ir.Array)
	if !holdsArray(v.Type) && g.assign[v] == 0 && !g.cross[v] {
		var x value
		if init != nil {
			x = g.expr(init)
		} else {
			x = g.zero(v.Type)
		}
		g.vars[v] = &variable{t: v.Type, ssa: &x}
		return
	}
	s := g.vars[v]
	if !g.cross[v] {
		s = g.newSlot(v, g.varying(v))
		g.vars[v] = s
	}
	if isArray {
		if init == nil {
			// A slot may be one chunk's of a [chunks x T]: aligned to
			// its scalars (4 bytes, or a bool's 1).
			g.b.Store(&llvm.Zero{T: s.lt}, s.ptr, 1)
			return
		}
		g.copyArray(s, g.arrayOf(init), true)
		return
	}
	x := g.zero(v.Type)
	if init != nil {
		x = g.expr(init)
	}
	g.storeSlot(s.ptr, s.lt, x, true)
}

// holdsArray reports whether t is an array or a struct with an array
// field: a variable of it lives in a slot, which indices address.
func holdsArray(t ir.Type) bool {
	switch t := t.(type) {
	case *ir.Array:
		return true
	case *ir.Struct:
		for _, f := range t.Fields {
			if holdsArray(f.Type) {
				return true
			}
		}
	}
	return false
}

// zero returns the zero value of t.
func (g *gen) zero(t ir.Type) value {
	switch t := t.(type) {
	case *ir.Basic:
		return value{x: &llvm.Zero{T: g.basic(t)}}
	case *ir.Struct:
		fs := make([]value, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = g.zero(f.Type)
		}
		return value{fields: fs}
	case *ir.Array:
		es := make([]value, t.Len)
		for i := range es {
			es[i] = g.zero(t.Elem)
		}
		return value{fields: es}
	}
	g.fail("a zero value of type %v", t)
	return value{}
}

// arrayOf returns the variable an array-valued expression names (a
// call's: its result slot).
func (g *gen) arrayOf(x ir.Expr) *variable {
	switch e := x.(type) {
	case *ir.VarRef:
		return g.lookup(e.Var)
	case *ir.Call:
		return g.callSlot(e)
	case *ir.Index, *ir.FieldOf:
		// A row or field of a variable: its part of the slot, when every
		// lane picks the same one.
		p := g.placeOf(e)
		if p.v != nil && p.v.ptr != nil && len(p.path) > 0 {
			ptr, t, it, lanes := g.elemAddr(p)
			if !lanes {
				return &variable{t: it, vec: p.v.vec, lt: t, ptr: ptr}
			}
		}
		if p.mem != nil {
			// An array in memory: read into a slot of its own.
			v := g.loadMem(p.mem)
			s := &variable{t: x.Type(), vec: isVaryingValue(v)}
			s.lt = g.slotType(s.t, s.vec)
			s.ptr = g.b.Alloca("array", s.lt, 32)
			g.storeSlot(s.ptr, s.lt, v, true)
			return s
		}
	}
	g.fail("an array value that is not a variable or a row of one the lanes share (%T)", x)
	return nil
}

func (g *gen) lookup(v *ir.Var) *variable {
	s := g.vars[v]
	if s == nil {
		g.fail("variable %s used before its declaration", v.Name)
	}
	return s
}

// copyArray copies the array src into dst, lane by lane under the mask
// unless all is set (a declaration: no lane has read dst yet).
func (g *gen) copyArray(dst, src *variable, all bool) {
	if !llvm.SameType(dst.lt, src.lt) {
		if dst.vec && !src.vec && llvm.SameType(dst.lt, g.slotType(src.t, true)) {
			g.copyWiden(dst.ptr, src.ptr, src.lt, all)
			return
		}
		g.fail("an array assignment between %v and %v", dst.t, src.t)
	}
	g.copySlot(dst.ptr, src.ptr, dst.lt, all)
}

// copySlot copies a slot of type t, scalar by scalar (or vector by
// vector).
func (g *gen) copySlot(dst, src llvm.Value, t llvm.Type, all bool) {
	switch t := t.(type) {
	case *llvm.ArrayType:
		for i := range t.Len {
			at := func(p llvm.Value) llvm.Value { return g.b.GEP(t, p, i64(0), i64(int64(i))) }
			g.copySlot(at(dst), at(src), t.Elem, all)
		}
	case *llvm.StructType:
		for i := range t.Fields {
			at := func(p llvm.Value) llvm.Value { return g.b.GEP(t, p, i32(0), i32(int64(i))) }
			g.copySlot(at(dst), at(src), t.Fields[i], all)
		}
	default:
		g.storeSlot(dst, t, value{x: g.b.Load(t, src, llvm.SizeOf(llvm.Elem(t)))}, all)
	}
}

// copyWiden copies a uniform slot of type t into a varying one of the
// same shape, every lane the same.
func (g *gen) copyWiden(dst, src llvm.Value, t llvm.Type, all bool) {
	vt := g.slotTypeOf(t)
	switch t := t.(type) {
	case *llvm.ArrayType:
		for i := range t.Len {
			g.copyWiden(g.b.GEP(vt, dst, i64(0), i64(int64(i))), g.b.GEP(t, src, i64(0), i64(int64(i))), t.Elem, all)
		}
	case *llvm.StructType:
		for i := range t.Fields {
			g.copyWiden(g.b.GEP(vt, dst, i32(0), i32(int64(i))), g.b.GEP(t, src, i32(0), i32(int64(i))), t.Fields[i], all)
		}
	default:
		g.storeSlot(dst, vt, value{x: g.b.Load(t, src, llvm.SizeOf(t))}, all)
	}
}

// slotTypeOf returns the varying slot type of the same shape as the
// uniform one t.
func (g *gen) slotTypeOf(t llvm.Type) llvm.Type {
	switch t := t.(type) {
	case *llvm.ArrayType:
		return &llvm.ArrayType{Len: t.Len, Elem: g.slotTypeOf(t.Elem)}
	case *llvm.StructType:
		fs := make([]llvm.Type, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = g.slotTypeOf(f)
		}
		return &llvm.StructType{Fields: fs}
	}
	return g.vec(t)
}

// load returns the value of a variable.
func (g *gen) load(s *variable) value {
	if s.ssa != nil {
		return *s.ssa
	}
	return g.loadSlot(s.ptr, s.lt)
}

func (g *gen) loadSlot(p llvm.Value, t llvm.Type) value {
	switch st := t.(type) {
	case *llvm.StructType:
		fs := make([]value, len(st.Fields))
		for i, f := range st.Fields {
			fs[i] = g.loadSlot(g.b.GEP(st, p, i32(0), i32(int64(i))), f)
		}
		return value{fields: fs}
	case *llvm.ArrayType:
		es := make([]value, st.Len)
		for i := range es {
			es[i] = g.loadSlot(g.b.GEP(st, p, i64(0), i64(int64(i))), st.Elem)
		}
		return value{fields: es}
	}
	return value{x: g.b.Load(t, p, llvm.SizeOf(llvm.Elem(t)))}
}

// storeSlot stores x to the slot p of type t: a vector slot lane by lane
// under the execution mask unless all is set or the flow is uniform (no
// lane is off but those past the block's end).
func (g *gen) storeSlot(p llvm.Value, t llvm.Type, x value, all bool) {
	switch st := t.(type) {
	case *llvm.StructType:
		if len(x.fields) != len(st.Fields) {
			g.fail("a struct value of the wrong shape")
		}
		for i, f := range st.Fields {
			g.storeSlot(g.b.GEP(st, p, i32(0), i32(int64(i))), f, x.fields[i], all)
		}
		return
	case *llvm.ArrayType:
		if len(x.fields) != st.Len {
			g.fail("an array value of the wrong shape")
		}
		for i := range st.Len {
			g.storeSlot(g.b.GEP(st, p, i64(0), i64(int64(i))), st.Elem, x.fields[i], all)
		}
		return
	}
	v := x.x
	if llvm.Lanes(t) == 0 {
		if isVec(v) {
			g.fail("a varying value stored to a uniform variable (the uniformity analysis and the lowering disagree)")
		}
		g.b.Store(v, p, llvm.SizeOf(t))
		return
	}
	v = g.splat(v)
	a := llvm.SizeOf(llvm.Elem(t))
	if !all && !g.flow {
		old := g.b.Load(t, p, a)
		v = g.b.Select(g.mask(), v, old)
	}
	g.b.Store(v, p, a)
}
