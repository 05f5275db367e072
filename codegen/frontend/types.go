package frontend

// This file maps Go types to IR types and names the rule a type breaks.

import (
	"fmt"
	"go/types"

	"github.com/goxpu/xpu/codegen/ir"
)

// maxArray bounds the length of an array type and the scalars an array
// (an array of arrays, a shared array) holds.
const maxArray = 1 << 16

// scalars returns how many scalars a value of t holds.
func scalars(t ir.Type) int {
	switch t := t.(type) {
	case *ir.Array:
		return t.Len * scalars(t.Elem)
	case *ir.Struct:
		n := 0
		for _, f := range t.Fields {
			n += scalars(f.Type)
		}
		return n
	}
	return 1
}

// inMemory reports whether t can be an element of a buffer or a shared
// array: a 32-bit scalar, a struct, or an array of those. Its std430
// layout is Go's: every scalar is 4 bytes aligned to 4, so an array's
// stride is its element's size and no field is padded. (A narrow integer
// is a buffer element of its own, checked by narrowPlace.)
func inMemory(t ir.Type) bool {
	switch t := t.(type) {
	case *ir.Basic:
		return t != ir.BoolType
	case *ir.Array:
		return inMemory(t.Elem)
	}
	return true
}

// narrowPlace returns why t, the element of a buffer (buffer true) or of a
// shared array, or the type of a struct field or a uniform, holds a narrow
// integer where the kernel language keeps none, or nil. Only a buffer's
// elements and private values may be narrow: a WGSL buffer packs them
// into words, which a struct's fields and a shared array would need too.
// A 64-bit integer is a private value only, in every one of those places
// ([xpu-wide-memory]): WGSL has no 64-bit scalar to keep in memory.
func narrowPlace(t ir.Type, buffer bool, what string) *typeError {
	leaf := t
	for a, ok := leaf.(*ir.Array); ok; a, ok = leaf.(*ir.Array) {
		leaf = a.Elem
	}
	if ir.IsWide64(leaf) {
		return &typeError{RuleWideMemory, fmt.Sprintf("%s of type %s: 64-bit values are private; store them as two uint32 words", what, t)}
	}
	if !ir.IsNarrow(leaf) || (buffer && leaf == t) {
		return nil
	}
	return &typeError{RuleNarrowPlace, fmt.Sprintf("%s of type %s: 8- and 16-bit integers are buffer elements and private values only", what, t)}
}

// typeError is why a Go type has no IR type.
type typeError struct {
	rule Rule
	msg  string
}

// isXpuNamed reports whether t is the named type xpu.name.
func isXpuNamed(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return n.Obj().Pkg().Path() == xpuPath && n.Obj().Name() == name
}

// isThread reports whether t is xpu.Thread.
func isThread(t types.Type) bool { return isXpuNamed(t, "Thread") }

// sliceElem returns the element type of a slice type, or nil.
func sliceElem(t types.Type) types.Type {
	if s, ok := t.Underlying().(*types.Slice); ok {
		return s.Elem()
	}
	return nil
}

// basicType maps a Go basic type to an IR scalar, or says why not.
func basicType(b *types.Basic) (*ir.Basic, *typeError) {
	switch b.Kind() {
	case types.Bool, types.UntypedBool:
		return ir.BoolType, nil
	case types.Int32, types.UntypedRune:
		return ir.I32Type, nil
	case types.Uint32:
		return ir.U32Type, nil
	case types.Float32:
		return ir.F32Type, nil
	case types.Int8:
		return ir.I8Type, nil
	case types.Uint8:
		return ir.U8Type, nil
	case types.Int16:
		return ir.I16Type, nil
	case types.Uint16:
		return ir.U16Type, nil
	case types.Int64:
		return ir.I64Type, nil
	case types.Uint64:
		return ir.U64Type, nil
	case types.Int, types.Uint, types.Uintptr, types.Float64,
		types.UntypedInt, types.UntypedFloat:
		return nil, &typeError{RuleNo64Bit, fmt.Sprintf("type %s is 64-bit or platform-sized", b)}
	case types.String, types.UntypedString:
		return nil, &typeError{RuleNoString, "strings are not in the kernel language"}
	case types.UnsafePointer, types.UntypedNil:
		return nil, &typeError{RuleNoPointer, "pointers are not in the kernel language"}
	}
	return nil, &typeError{RuleScalarType, fmt.Sprintf("type %s is not a kernel scalar", b)}
}

// irType maps a Go value type to an IR type, registering struct types
// with the kernel.
func (ks *kernelState) irType(t types.Type) (ir.Type, *typeError) {
	t = types.Unalias(ks.targs.subst(t))
	if isThread(t) {
		return nil, &typeError{RuleUnsupported, "the xpu.Thread may only be used for its methods and passed to device functions"}
	}
	if isFloat16(t) {
		return ir.Float16Type, nil
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return basicType(u)
	case *types.Struct:
		return ks.structType(t, u)
	case *types.Array:
		if u.Len() <= 0 || u.Len() > maxArray {
			return nil, &typeError{RuleArraySize, fmt.Sprintf("array length %d is outside 1..%d", u.Len(), maxArray)}
		}
		elem, err := ks.irType(u.Elem())
		if err != nil {
			return nil, err
		}
		a := &ir.Array{Elem: elem, Len: int(u.Len())}
		if n := scalars(a); n > maxArray {
			return nil, &typeError{RuleArraySize, fmt.Sprintf("array type %s holds %d scalars, more than %d", t, n, maxArray)}
		}
		return a, nil
	case *types.Slice:
		return nil, &typeError{RuleBufferVar, "a slice is a buffer or a shared array and is no value"}
	case *types.Map:
		return nil, &typeError{RuleNoMap, "maps are not in the kernel language"}
	case *types.Chan:
		return nil, &typeError{RuleNoChannel, "channels are not in the kernel language"}
	case *types.Signature:
		return nil, &typeError{RuleNoClosure, "function values are not in the kernel language"}
	case *types.Interface:
		return nil, &typeError{RuleNoInterface, fmt.Sprintf("interface type %s is not in the kernel language", t)}
	case *types.Pointer:
		return nil, &typeError{RuleNoPointer, "pointers are not in the kernel language"}
	}
	return nil, &typeError{RuleUnsupported, fmt.Sprintf("type %s is not in the kernel language", t)}
}

// structType maps a named struct of 32-bit scalars and arrays of them.
func (ks *kernelState) structType(t types.Type, s *types.Struct) (ir.Type, *typeError) {
	n, ok := t.(*types.Named)
	if !ok {
		return nil, &typeError{RuleStructLayout, "unnamed struct types are not in the kernel language"}
	}
	if st, ok := ks.structs[n]; ok {
		return st, nil
	}
	if n.Obj().Pkg() != ks.c.pkg {
		return nil, &typeError{RuleStructLayout, fmt.Sprintf("struct type %s is not declared in the kernel's package", t)}
	}
	if n.TypeArgs().Len() > 0 {
		return nil, &typeError{RuleStructLayout, fmt.Sprintf("generic struct type %s is not in the kernel language", t)}
	}
	st := &ir.Struct{Name: n.Obj().Name()}
	for f := range s.Fields() {
		ft, err := ks.fieldType(f.Type())
		if err != nil {
			return nil, &typeError{err.rule, fmt.Sprintf("field %s of %s %s", f.Name(), n.Obj().Name(), err.msg)}
		}
		st.Fields = append(st.Fields, ir.Field{Name: f.Name(), Type: ft})
	}
	if len(st.Fields) == 0 {
		return nil, &typeError{RuleStructLayout, fmt.Sprintf("struct %s has no fields", n.Obj().Name())}
	}
	ks.structs[n] = st
	ks.k.Structs = append(ks.k.Structs, st)
	return st, nil
}

// fieldType maps the type of a struct field: a 32-bit scalar, or an array
// of them (of any depth), whose std430 layout is Go's.
func (ks *kernelState) fieldType(t types.Type) (ir.Type, *typeError) {
	if _, ok := t.Underlying().(*types.Array); ok {
		ft, err := ks.irType(t)
		if err != nil {
			return nil, &typeError{err.rule, "has type " + types.TypeString(t, types.RelativeTo(ks.c.pkg)) + ": " + err.msg}
		}
		leaf := ft
		for a, ok := leaf.(*ir.Array); ok; a, ok = leaf.(*ir.Array) {
			leaf = a.Elem
		}
		if err := narrowPlace(ft, false, "a field"); err != nil {
			return nil, err
		}
		if b, ok := leaf.(*ir.Basic); ok && b != ir.BoolType {
			return ft, nil
		}
	} else if b, ok := t.Underlying().(*types.Basic); ok {
		if ft, _ := basicType(b); ft != nil {
			if err := narrowPlace(ft, false, "a field"); err != nil {
				return nil, err
			}
			if ft != ir.BoolType {
				return ft, nil
			}
		}
	}
	return nil, &typeError{RuleStructLayout, fmt.Sprintf("has type %s, not a 32-bit scalar or an array of them", types.TypeString(t, types.RelativeTo(ks.c.pkg)))}
}
