package wgslgen

import (
	"slices"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

// typ returns the WGSL type of t, declaring the structs it uses.
func (l *lowerer) typ(t ir.Type) wgsl.Type {
	switch t := t.(type) {
	case *ir.Basic:
		if t.Wide64() {
			return wideType
		}
		return scalar(t.Kind)
	case *ir.Struct:
		return &wgsl.Named{Name: l.structDecl(t).Name}
	case *ir.Array:
		if t.Len <= 0 {
			l.fail(ruleIR, "array type %v has no elements", t)
		}
		if l.vectors && vectorArray(t) {
			return &wgsl.Vec{N: t.Len, Elem: scalar(t.Elem.(*ir.Basic).Kind)}
		}
		return &wgsl.Array{Elem: l.typ(t.Elem), Len: t.Len}
	}
	l.fail(ruleIR, "unknown type %v", t)
	return wgsl.U32Type
}

// vectorArray reports whether t, an array of four 32-bit float32, int32
// or uint32, can be a WGSL vec4: indexed, assigned and stored as the
// array is, and loaded and stored whole in one access, where devices
// load an array<f32, 4> element by element (llvmpipe, at a lane-varying
// address, with a sequence of instructions each).
func vectorArray(t *ir.Array) bool {
	b, ok := t.Elem.(*ir.Basic)
	return ok && t.Len == 4 && (b.Kind == ir.F32 || b.Kind == ir.I32 || b.Kind == ir.U32)
}

// vectorsFit reports whether k's four-element arrays can be vec4s: vec4
// is aligned to 16 bytes where Go aligns the array to 4, which moves the
// fields after it in a struct, so a kernel whose structs hold one keeps
// arrays throughout (a value then passes between a field and a variable
// unchanged). A buffer's or a shared array's elements are 16 bytes apart
// either way.
func vectorsFit(k *ir.Kernel) bool {
	var holds func(t ir.Type) bool
	holds = func(t ir.Type) bool {
		switch t := t.(type) {
		case *ir.Struct:
			return slices.ContainsFunc(t.Fields, func(f ir.Field) bool { return holds(f.Type) })
		case *ir.Array:
			return vectorArray(t) || holds(t.Elem)
		}
		return false
	}
	return !slices.ContainsFunc(k.Structs, func(s *ir.Struct) bool { return holds(s) })
}

// scalar returns the WGSL type of values of kind k: a narrow integer is
// held in the 32-bit integer of its signedness.
func scalar(k ir.BasicKind) *wgsl.Scalar {
	switch (&ir.Basic{Kind: k}).Wide().Kind {
	case ir.Bool:
		return wgsl.BoolType
	case ir.I32:
		return wgsl.I32Type
	case ir.U32:
		return wgsl.U32Type
	}
	return wgsl.F32Type
}

// structDecl declares s (after the structs its fields use) once.
func (l *lowerer) structDecl(s *ir.Struct) *wgsl.Struct {
	if d, ok := l.structs[s]; ok {
		if d == nil {
			l.fail(ruleIR, "struct %s contains itself", s.Name)
			return &wgsl.Struct{Name: mangle(prefixStruct, s.Name)}
		}
		return d
	}
	l.structs[s] = nil
	d := &wgsl.Struct{Name: l.global(mangle(prefixStruct, s.Name), "struct "+s.Name)}
	if len(s.Fields) == 0 {
		l.fail(ruleIR, "struct %s has no fields: WGSL has no empty structs", s.Name)
	}
	for _, f := range s.Fields {
		d.Fields = append(d.Fields, &wgsl.Field{Name: mangle(prefixField, f.Name), Type: l.typ(f.Type)})
	}
	l.structs[s] = d
	l.structOrder = append(l.structOrder, d)
	return d
}

// hostShareable reports whether values of t can live in a buffer or a
// uniform: WGSL has no bool there. Every other type of the IR is made of
// 4-byte scalars aligned to 4, so WGSL's layout is Go's (std430).
func hostShareable(t ir.Type) bool {
	switch t := t.(type) {
	case *ir.Basic:
		return t.Kind != ir.Bool
	case *ir.Struct:
		for _, f := range t.Fields {
			if !hostShareable(f.Type) {
				return false
			}
		}
		return true
	case *ir.Array:
		return hostShareable(t.Elem)
	}
	return false
}

// zero returns the zero value of t.
func (l *lowerer) zero(t ir.Type) wgsl.Expr {
	if b, ok := t.(*ir.Basic); ok {
		return lit(b.Kind, 0)
	}
	return &wgsl.Construct{Type: l.typ(t)}
}

// lit returns the literal of kind k with the bits b.
func lit(k ir.BasicKind, b uint32) *wgsl.Lit {
	return &wgsl.Lit{Kind: scalar(k).Kind, Bits: b}
}
