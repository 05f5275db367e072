package llvm

// This file defines the types of the IR.

import (
	"fmt"
	"strings"
)

// Type is an LLVM type. String spells it as LLVM does.
type Type interface {
	String() string
	isType()
}

// IntType is iN.
type IntType struct{ Bits int }

// FloatKind tells float from double.
type FloatKind int

const (
	Float  FloatKind = iota // IEEE binary32
	Double                  // IEEE binary64
)

// FloatType is float or double.
type FloatType struct{ Kind FloatKind }

// VoidType is void.
type VoidType struct{}

// PtrType is an opaque pointer in address space Space (0: the generic
// one; a GPU's global, shared or private memory has a number of its
// own).
type PtrType struct{ Space int }

// VectorType is <N x Elem>.
type VectorType struct {
	Len  int
	Elem Type
}

// ArrayType is [N x Elem].
type ArrayType struct {
	Len  int
	Elem Type
}

// StructType is a literal struct {T, ...}.
type StructType struct{ Fields []Type }

// The types the lowering uses most.
var (
	Void = &VoidType{}
	I1   = &IntType{1}
	I8   = &IntType{8}
	I16  = &IntType{16}
	I32  = &IntType{32}
	I64  = &IntType{64}
	F32  = &FloatType{Float}
	F64  = &FloatType{Double}
	Ptr  = &PtrType{}
)

// PtrIn returns the pointer type of address space space.
func PtrIn(space int) *PtrType {
	if space == 0 {
		return Ptr
	}
	return &PtrType{Space: space}
}

// Vec returns <n x elem>.
func Vec(n int, elem Type) *VectorType { return &VectorType{n, elem} }

func (t *IntType) String() string { return fmt.Sprintf("i%d", t.Bits) }
func (t *FloatType) String() string {
	if t.Kind == Double {
		return "double"
	}
	return "float"
}
func (*VoidType) String() string { return "void" }
func (t *PtrType) String() string {
	if t.Space != 0 {
		return fmt.Sprintf("ptr addrspace(%d)", t.Space)
	}
	return "ptr"
}
func (t *VectorType) String() string { return fmt.Sprintf("<%d x %v>", t.Len, t.Elem) }
func (t *ArrayType) String() string  { return fmt.Sprintf("[%d x %v]", t.Len, t.Elem) }
func (t *StructType) String() string {
	s := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		s[i] = f.String()
	}
	return "{ " + strings.Join(s, ", ") + " }"
}

func (*IntType) isType()    {}
func (*FloatType) isType()  {}
func (*VoidType) isType()   {}
func (*PtrType) isType()    {}
func (*VectorType) isType() {}
func (*ArrayType) isType()  {}
func (*StructType) isType() {}

// SameType reports whether a and b spell the same type.
func SameType(a, b Type) bool { return a.String() == b.String() }

// Elem returns the element type of a vector, or t itself.
func Elem(t Type) Type {
	if v, ok := t.(*VectorType); ok {
		return v.Elem
	}
	return t
}

// Lanes returns the length of a vector type, or 0 for a scalar.
func Lanes(t Type) int {
	if v, ok := t.(*VectorType); ok {
		return v.Len
	}
	return 0
}

// Like returns elem shaped as t: a vector of t's length, or elem.
func Like(t, elem Type) Type {
	if n := Lanes(t); n > 0 {
		return Vec(n, elem)
	}
	return elem
}

// SizeOf returns the bytes a value of t occupies in memory under the
// x86-64 data layout (vectors and arrays packed, structs naturally
// aligned).
func SizeOf(t Type) int {
	switch t := t.(type) {
	case *IntType:
		switch {
		case t.Bits <= 8:
			return 1
		case t.Bits <= 16:
			return 2
		case t.Bits <= 32:
			return 4
		}
		return 8
	case *FloatType:
		if t.Kind == Double {
			return 8
		}
		return 4
	case *PtrType:
		return 8
	case *VectorType:
		if ti, ok := t.Elem.(*IntType); ok && ti.Bits == 1 {
			return (t.Len + 7) / 8
		}
		return t.Len * SizeOf(t.Elem)
	case *ArrayType:
		return t.Len * SizeOf(t.Elem)
	case *StructType:
		n, a := 0, 1
		for _, f := range t.Fields {
			fa := alignOf(f)
			n = (n + fa - 1) / fa * fa
			n += SizeOf(f)
			a = max(a, fa)
		}
		return (n + a - 1) / a * a
	}
	return 0
}

func alignOf(t Type) int {
	switch t := t.(type) {
	case *ArrayType:
		return alignOf(t.Elem)
	case *StructType:
		a := 1
		for _, f := range t.Fields {
			a = max(a, alignOf(f))
		}
		return a
	}
	return max(1, SizeOf(t))
}
