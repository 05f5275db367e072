package wgsl

import "math"

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

// Lit is a typed literal: Bits holds the value's 32-bit pattern (for F32
// math.Float32bits, for Bool 0 or 1). Every finite value prints exactly;
// see the package doc.
type Lit struct {
	Kind ScalarKind
	Bits uint32
}

// AbstractInt is an untyped integer literal, as in attribute arguments and
// array lengths.
type AbstractInt struct{ Value int64 }

// Ident is a name: a variable, constant, parameter or builtin value name.
type Ident struct{ Name string }

// UnaryOp is a prefix operator.
type UnaryOp int

// The prefix operators.
const (
	Neg    UnaryOp = iota // -
	Not                   // !
	Compl                 // ~
	AddrOf                // &
	Deref                 // *
)

func (o UnaryOp) String() string { return [...]string{"-", "!", "~", "&", "*"}[o] }

// Unary is Op X.
type Unary struct {
	Op UnaryOp
	X  Expr
}

// BinaryOp is an infix operator.
type BinaryOp int

// The infix operators. LAnd and LOr short-circuit.
const (
	Add BinaryOp = iota
	Sub
	Mul
	Div
	Rem
	And
	Or
	Xor
	Shl
	Shr
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	LAnd
	LOr
)

func (o BinaryOp) String() string {
	return [...]string{"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}[o]
}

// Binary is X Op Y. The printer parenthesizes a Binary that is an operand
// of another expression.
type Binary struct {
	Op   BinaryOp
	X, Y Expr
}

// Call is Fn(Args...): a builtin function or a declared function.
type Call struct {
	Fn   string
	Args []Expr
}

// Construct is a value constructor or conversion: Type(Args...), e.g.
// f32(x), array<f32, 4>(), S(a, b).
type Construct struct {
	Type Type
	Args []Expr
}

// Bitcast is bitcast<Type>(X).
type Bitcast struct {
	Type Type
	X    Expr
}

// Index is X[Index].
type Index struct {
	X, Index Expr
}

// Member is X.Name.
type Member struct {
	X    Expr
	Name string
}

// BoolLit returns the literal true or false.
func BoolLit(v bool) *Lit {
	if v {
		return &Lit{Kind: Bool, Bits: 1}
	}
	return &Lit{Kind: Bool}
}

// I32Lit returns the i32 literal v.
func I32Lit(v int32) *Lit { return &Lit{Kind: I32, Bits: uint32(v)} }

// U32Lit returns the u32 literal v.
func U32Lit(v uint32) *Lit { return &Lit{Kind: U32, Bits: v} }

// F32Lit returns the f32 literal v. The printer refuses a non-finite v
// (see [LitText]): a lowering builds infinities and NaNs at run time.
func F32Lit(v float32) *Lit { return &Lit{Kind: F32, Bits: math.Float32bits(v)} }

// IntLit returns the abstract integer literal v.
func IntLit(v int) *AbstractInt { return &AbstractInt{Value: int64(v)} }

// CallOf returns the call fn(args...).
func CallOf(fn string, args ...Expr) *Call { return &Call{Fn: fn, Args: args} }

// Id returns the identifier name.
func Id(name string) *Ident { return &Ident{Name: name} }

// AddrOfExpr returns &x.
func AddrOfExpr(x Expr) *Unary { return &Unary{Op: AddrOf, X: x} }

func (*Lit) node()         {}
func (*AbstractInt) node() {}
func (*Ident) node()       {}
func (*Unary) node()       {}
func (*Binary) node()      {}
func (*Call) node()        {}
func (*Construct) node()   {}
func (*Bitcast) node()     {}
func (*Index) node()       {}
func (*Member) node()      {}

func (*Lit) exprNode()         {}
func (*AbstractInt) exprNode() {}
func (*Ident) exprNode()       {}
func (*Unary) exprNode()       {}
func (*Binary) exprNode()      {}
func (*Call) exprNode()        {}
func (*Construct) exprNode()   {}
func (*Bitcast) exprNode()     {}
func (*Index) exprNode()       {}
func (*Member) exprNode()      {}
