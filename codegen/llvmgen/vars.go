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
		e, ok := t.Elem.(*ir.Basic)
		if !ok {
			g.fail("a private array of %v (only of scalars)", t.Elem)
		}
		et := g.basic(e)
		if e.Kind == ir.Bool {
			et = llvm.I8 // an i1 lane has no address of its own
		}
		return &llvm.ArrayType{Len: t.Len, Elem: lane(et)}
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
	if !isArray && g.assign[v] == 0 && !g.cross[v] {
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
			// its scalars only.
			g.b.Store(&llvm.Zero{T: s.lt}, s.ptr, llvm.SizeOf(llvm.Elem(s.lt.(*llvm.ArrayType).Elem)))
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

// zero returns the zero value of t (scalars).
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
	}
	g.fail("a zero value of type %v", t)
	return value{}
}

// arrayOf returns the variable an array-valued expression names.
func (g *gen) arrayOf(x ir.Expr) *variable {
	r, ok := x.(*ir.VarRef)
	if !ok {
		g.fail("an array value that is not a variable (%T)", x)
	}
	return g.lookup(r.Var)
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
	at, ok := dst.lt.(*llvm.ArrayType)
	if st, same := src.lt.(*llvm.ArrayType); !ok || !same || st.Len != at.Len {
		g.fail("an array assignment between %v and %v", dst.t, src.t)
	}
	for i := range at.Len {
		p := g.b.GEP(src.lt, src.ptr, i64(0), i64(int64(i)))
		et := src.lt.(*llvm.ArrayType).Elem
		x := g.b.Load(et, p, llvm.SizeOf(llvm.Elem(et)))
		q := g.b.GEP(dst.lt, dst.ptr, i64(0), i64(int64(i)))
		g.storeSlot(q, at.Elem, value{x: x}, all)
	}
}

// load returns the value of a variable.
func (g *gen) load(s *variable) value {
	if s.ssa != nil {
		return *s.ssa
	}
	return g.loadSlot(s.ptr, s.lt)
}

func (g *gen) loadSlot(p llvm.Value, t llvm.Type) value {
	if st, ok := t.(*llvm.StructType); ok {
		fs := make([]value, len(st.Fields))
		for i, f := range st.Fields {
			fs[i] = g.loadSlot(g.b.GEP(st, p, i32(0), i32(int64(i))), f)
		}
		return value{fields: fs}
	}
	return value{x: g.b.Load(t, p, llvm.SizeOf(llvm.Elem(t)))}
}

// storeSlot stores x to the slot p of type t: a vector slot lane by lane
// under the execution mask unless all is set or the flow is uniform (no
// lane is off but those past the block's end).
func (g *gen) storeSlot(p llvm.Value, t llvm.Type, x value, all bool) {
	if st, ok := t.(*llvm.StructType); ok {
		if len(x.fields) != len(st.Fields) {
			g.fail("a struct value of the wrong shape")
		}
		for i, f := range st.Fields {
			g.storeSlot(g.b.GEP(st, p, i32(0), i32(int64(i))), f, x.fields[i], all)
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
