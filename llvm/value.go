package llvm

// This file defines values: named locals and globals, and constants.

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Value is an operand: a local, a global or a constant.
type Value interface {
	Type() Type
	isValue()
}

// Local is a function's parameter or an instruction's result. Its name is
// unique within the function (the builder sees to that).
type Local struct {
	Name string
	T    Type
}

// GlobalRef is the address of a global or a function, in address space
// Space.
type GlobalRef struct {
	Name  string
	Space int
}

// Int is an integer constant of type T (an IntType); Bits holds its value,
// truncated to the width.
type Int struct {
	T    *IntType
	Bits uint64
}

// FloatConst is a floating-point constant; Value holds it exactly (a
// float's value is a double that converts back without loss).
type FloatConst struct {
	T     *FloatType
	Value float64
}

// VectorConst is <T a, T b, ...> of constants.
type VectorConst struct{ Elems []Value }

// Splat is a vector of Len copies of the constant X.
type Splat struct {
	Len int
	X   Value
}

// Zero is zeroinitializer of T.
type Zero struct{ T Type }

// Poison is the poison value of T.
type Poison struct{ T Type }

func (v *Local) Type() Type       { return v.T }
func (g *GlobalRef) Type() Type   { return PtrIn(g.Space) }
func (c *Int) Type() Type         { return c.T }
func (c *FloatConst) Type() Type  { return c.T }
func (c *VectorConst) Type() Type { return Vec(len(c.Elems), c.Elems[0].Type()) }
func (c *Splat) Type() Type       { return Vec(c.Len, c.X.Type()) }
func (c *Zero) Type() Type        { return c.T }
func (c *Poison) Type() Type      { return c.T }

func (*Local) isValue()       {}
func (*GlobalRef) isValue()   {}
func (*Int) isValue()         {}
func (*FloatConst) isValue()  {}
func (*VectorConst) isValue() {}
func (*Splat) isValue()       {}
func (*Zero) isValue()        {}
func (*Poison) isValue()      {}

// ConstInt returns the constant v of type t, truncated to its width.
func ConstInt(t *IntType, v int64) *Int {
	b := uint64(v)
	if t.Bits < 64 {
		b &= 1<<t.Bits - 1
	}
	return &Int{t, b}
}

// True and False are the i1 constants.
var (
	True  = &Int{I1, 1}
	False = &Int{I1, 0}
)

// ConstF32 returns the float constant f.
func ConstF32(f float32) *FloatConst { return &FloatConst{F32, float64(f)} }

// operand spells v without its type.
func operand(v Value) string {
	switch v := v.(type) {
	case *Local:
		return "%" + ident(v.Name)
	case *GlobalRef:
		return "@" + ident(v.Name)
	case *Int:
		if v.T.Bits == 1 {
			return strconv.FormatBool(v.Bits != 0)
		}
		// Signed decimal, as LLVM prints it.
		s := int64(v.Bits)
		if v.T.Bits < 64 && v.Bits&(1<<(v.T.Bits-1)) != 0 {
			s = int64(v.Bits) - 1<<v.T.Bits
		}
		return strconv.FormatInt(s, 10)
	case *FloatConst:
		// LLVM reads a float constant as the double of the same value,
		// written as its 64 bits in hexadecimal: exact for NaN, infinities
		// and -0 too.
		return fmt.Sprintf("0x%016X", math.Float64bits(v.Value))
	case *VectorConst:
		s := make([]string, len(v.Elems))
		for i, e := range v.Elems {
			s[i] = typed(e)
		}
		return "<" + strings.Join(s, ", ") + ">"
	case *Splat:
		s := make([]string, v.Len)
		for i := range s {
			s[i] = typed(v.X)
		}
		return "<" + strings.Join(s, ", ") + ">"
	case *Zero:
		return "zeroinitializer"
	case *Poison:
		return "poison"
	}
	return "<nil>"
}

// typed spells v with its type in front.
func typed(v Value) string { return v.Type().String() + " " + operand(v) }

// ident quotes a name when LLVM's unquoted form cannot hold it.
func ident(name string) string {
	for i, r := range name {
		ok := r == '_' || r == '.' || r == '$' || r == '-' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9'
		if !ok {
			return strconv.Quote(name)
		}
	}
	if name == "" {
		return `""`
	}
	return name
}
