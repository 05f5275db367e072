package wgsl

// Type is a WGSL type: a *Scalar, *Vec, *Array, *Atomic or *Named.
type Type interface {
	Node
	typeNode()
}

// ScalarKind enumerates the scalar types.
type ScalarKind int

// The scalar types.
const (
	Bool ScalarKind = iota
	I32
	U32
	F32
)

func (k ScalarKind) String() string { return [...]string{"bool", "i32", "u32", "f32"}[k] }

// Scalar is bool, i32, u32 or f32.
type Scalar struct{ Kind ScalarKind }

// The scalar types, ready to use.
var (
	BoolType = &Scalar{Bool}
	I32Type  = &Scalar{I32}
	U32Type  = &Scalar{U32}
	F32Type  = &Scalar{F32}
)

// Vec is vecN<Elem>, N in 2..4.
type Vec struct {
	N    int
	Elem Type
}

// Array is array<Elem, Len>, or the runtime-sized array<Elem> when Len is 0.
type Array struct {
	Elem Type
	Len  int
}

// Atomic is atomic<Elem>, Elem i32 or u32.
type Atomic struct{ Elem Type }

// Named refers to a declared struct by name.
type Named struct{ Name string }

func (*Scalar) typeNode() {}
func (*Vec) typeNode()    {}
func (*Array) typeNode()  {}
func (*Atomic) typeNode() {}
func (*Named) typeNode()  {}

func (*Scalar) node() {}
func (*Vec) node()    {}
func (*Array) node()  {}
func (*Atomic) node() {}
func (*Named) node()  {}
