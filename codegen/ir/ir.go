// Package ir is the typed, structured kernel IR that the codegen front end
// produces and every lowering (WGSL, the Go CPU lowering, LLVM IR)
// consumes, together with the analyses they share: uniformity, buffer
// access modes and footprint.
//
// Layering: this package knows no go/ast and no output language. Positions
// are plain file:line:col values; names are the kernel's own Go names.
//
// The IR is a tree: a Kernel owns a body Block of statements whose
// expressions are trees of typed nodes. Control flow is structured (If,
// Loop, Break, Continue, Return), so each lowering prints it directly.
// Device functions are Funcs; a function that takes buffers or shared
// arrays is specialized by the front end per distinct argument tuple, so
// that inside a Func every buffer and shared array is a module-level
// object, as WGSL requires.
package ir

import (
	"fmt"

	"github.com/goxpu/xpu/schema"
)

// Pos is a source position of the kernel's Go code.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.File == "" {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Module is one kernel package's worth of IR: its kernels (template
// members already instantiated), the device functions they call and the
// struct types their buffers hold.
type Module struct {
	Package string // import path
	Name    string // package name
	Kernels []*Kernel
	Refused []*Refusal // kernels and template members whose requires clause failed
	// Templates are the module's templates; each member is one of
	// Kernels or of Refused.
	Templates []*Template
	// Scope maps each package-level name the package declares (its
	// generated file aside) to its declaration, so that the generated
	// file can declare names of its own that are free.
	Scope map[string]Pos
}

// Refusal records a kernel that is deliberately not built, with the reason
// a launch of it reports.
type Refusal struct {
	Name     string // the member's kernel name, e.g. "ScaleBad"
	Reason   string // e.g. `[xpu-requires] member ScaleBad: requires c.Factor > 0 is false`
	Comptime string // a member's comptime value as Go source in the kernel's package; "" for a plain kernel
	Pos      Pos
}

// Template is a kernel with a comptime parameter, whose members are
// kernels of their own.
type Template struct {
	Name    string   // the Go function, e.g. "Scale"
	Members []string // the members' kernel names, in the order of the //xpu:instance lines
	Pos     Pos

	// The comptime parameter, which the template's launcher takes where
	// the Go function does: its name, its type (a named struct of the
	// kernel's package) and its index among the parameters after the
	// Thread.
	Param, ParamType string
	ParamAt          int
}

// Kernel is one compiled entry point.
type Kernel struct {
	Name     string    // exported launcher name: the Go function name, or the template member name
	Func     string    // the Go function it comes from
	Instance string    // template member name, "" for a plain kernel
	Comptime string    // a member's comptime value as Go source in the kernel's package
	TypeArgs string    // a generic kernel's type arguments as Go source in the kernel's package, "[float32]"; "" when not generic
	Block    [3]uint32 // pinned workgroup size
	Wave     uint32    // declared wave width, 0 when width-agnostic
	Params   []*Param  // in Go order, without the Thread and the comptime struct
	Shared   []*Shared
	Funcs    []*Func   // device functions reachable from Body, callees first
	Structs  []*Struct // struct types used, dependencies first
	Body     *Block
	Pos      Pos

	// Filled by Analyze.
	Uniform *Uniformity
}

// ParamKind tells a buffer parameter from a uniform scalar.
type ParamKind int

const (
	BufferParam ParamKind = iota // a slice: a storage buffer
	ScalarParam                  // a scalar: a field of the uniform block
)

// Param is a kernel parameter after the Thread.
type Param struct {
	Name string
	Kind ParamKind
	Type Type // element type for buffers, scalar type for scalars
	Pos  Pos

	// For buffers, filled by Analyze.
	Access schema.Access
	// AtomicElem is the element type the device sees when Access is
	// AccessAtomic: I32 or U32 (a float32 buffer touched by
	// AtomicAddFloat32 is an atomic U32 array, read through bitcasts).
	AtomicElem Type
	Binding    int // storage binding index (buffers, in order), or uniform offset in bytes (scalars)
	// MinLen, for a buffer, names the U32 or I32 scalar parameters whose
	// product is the fewest elements the buffer must hold (the kernel
	// directive's len(buffer)=a*b); nil when none is declared.
	MinLen []string
}

// Shared is a workgroup array requested by xpu.Shared.
type Shared struct {
	Name       string
	Elem       Type
	Len        int
	Pos        Pos
	Access     schema.Access // filled by Analyze
	AtomicElem Type          // as in Param
}

// Func is a device function, specialized per buffer/shared argument tuple.
type Func struct {
	Name    string // unique within the module (specializations get a suffix)
	GoName  string
	Params  []*Var // scalar and array parameters only
	Result  Type   // nil when the function returns nothing
	Body    *Block
	Pos     Pos
	Barrier bool   // calls Barrier, directly or through a callee
	Wave    string // the first wave verb it reaches, directly or through a callee ("" for none)
}

// Var is a local variable or a parameter of a Func (not of a Kernel).
type Var struct {
	Name string // unique within its function
	Type Type
	Pos  Pos
}

// ---- types ----

// Type is a type of the IR: a *Basic, *Struct or *Array.
type Type interface {
	String() string
	Size() int // bytes in std430 layout
}

// BasicKind enumerates the scalar types.
type BasicKind int

const (
	Bool BasicKind = iota
	I32
	U32
	F32
	// The narrow integers are values and buffer elements. Their
	// arithmetic never reaches a lowering: Widen rewrites it into 32-bit
	// arithmetic whose result is converted back, so a lowering sees a
	// narrow type only in a variable, a constant, a buffer element, a
	// device function's parameter or result, and a Convert whose other
	// side is I32 or U32.
	I8
	U8
	I16
	U16
	// The wide integers are private values only (no buffer element,
	// shared element, field or uniform): index math and hashing. A
	// Const of one holds its low word in Bits and its high word in Hi.
	I64
	U64
)

// basicFacts holds what each kind is: one place for names, sizes and
// signedness.
var basicFacts = [...]struct {
	name    string
	size    int // bytes in memory
	signed  bool
	integer bool
}{
	Bool: {"bool", 4, false, false},
	I32:  {"int32", 4, true, true},
	U32:  {"uint32", 4, false, true},
	F32:  {"float32", 4, true, false},
	I8:   {"int8", 1, true, true},
	U8:   {"uint8", 1, false, true},
	I16:  {"int16", 2, true, true},
	U16:  {"uint16", 2, false, true},
	I64:  {"int64", 8, true, true},
	U64:  {"uint64", 8, false, true},
}

// Basic is a scalar type.
type Basic struct {
	Kind BasicKind
	// Named is the defined type a value of the kind stands for, as its
	// package's import path, a dot and its name, or "" for the
	// predeclared type: Float16Type is a U16 named xpu.Float16. Only
	// the generated launchers and the manifest spell it; the lowerings
	// go by the kind.
	Named string
}

// The scalar types.
var (
	BoolType = &Basic{Kind: Bool}
	I32Type  = &Basic{Kind: I32}
	U32Type  = &Basic{Kind: U32}
	F32Type  = &Basic{Kind: F32}
	I8Type   = &Basic{Kind: I8}
	U8Type   = &Basic{Kind: U8}
	I16Type  = &Basic{Kind: I16}
	U16Type  = &Basic{Kind: U16}
	I64Type  = &Basic{Kind: I64}
	U64Type  = &Basic{Kind: U64}
	// Float16Type is xpu.Float16, binary16 bits held as a U16: a buffer
	// element and a value that only the conversion functions
	// (Float16ToFloat32, Float32ToFloat16) compute with.
	Float16Type = &Basic{Kind: U16, Named: "github.com/goxpu/xpu.Float16"}
)

func (b *Basic) String() string { return basicFacts[b.Kind].name }
func (b *Basic) Size() int      { return basicFacts[b.Kind].size }

// Signed reports whether b is a signed integer or a float.
func (b *Basic) Signed() bool { return basicFacts[b.Kind].signed }

// Narrow reports whether b is an 8- or 16-bit integer.
func (b *Basic) Narrow() bool { return basicFacts[b.Kind].integer && b.Size() < 4 }

// Wide returns the 32-bit integer type a narrow integer computes in: I32
// for a signed one, U32 for an unsigned one; other types are their own.
func (b *Basic) Wide() *Basic {
	switch {
	case !b.Narrow():
		return b
	case b.Signed():
		return I32Type
	}
	return U32Type
}

// IsInteger reports whether t is I32 or U32.
func IsInteger(t Type) bool {
	b, ok := t.(*Basic)
	return ok && (b.Kind == I32 || b.Kind == U32)
}

// Wide64 reports whether b is a 64-bit integer.
func (b *Basic) Wide64() bool { return basicFacts[b.Kind].integer && b.Size() == 8 }

// IsWide64 reports whether t is int64 or uint64.
func IsWide64(t Type) bool {
	b, ok := t.(*Basic)
	return ok && b.Wide64()
}

// IsNarrow reports whether t is an 8- or 16-bit integer.
func IsNarrow(t Type) bool {
	b, ok := t.(*Basic)
	return ok && b.Narrow()
}

// IsKind reports whether t is the scalar type of kind k.
func IsKind(t Type, k BasicKind) bool {
	b, ok := t.(*Basic)
	return ok && b.Kind == k
}

// Struct is a struct of 32-bit scalars: a buffer element. Its std430
// layout equals Go's layout (every field 4 bytes, aligned to 4).
type Struct struct {
	Name   string // Go type name
	Fields []Field
}

// Field is a struct field.
type Field struct {
	Name string
	Type Type
}

func (s *Struct) String() string { return s.Name }
func (s *Struct) Size() int {
	n := 0
	for _, f := range s.Fields {
		n += f.Type.Size()
	}
	return n
}

// Array is a private (per work-item) array of constant length.
type Array struct {
	Elem Type
	Len  int
}

func (a *Array) String() string { return fmt.Sprintf("[%d]%v", a.Len, a.Elem) }
func (a *Array) Size() int      { return a.Len * a.Elem.Size() }

// ---- statements ----

// Stmt is a statement.
type Stmt interface{ stmt() }

// Block is a list of statements in one scope.
type Block struct{ Stmts []Stmt }

// Decl declares Var, initialized to Init or to its zero value when Init is nil.
type Decl struct {
	Var  *Var
	Init Expr
	Pos  Pos
}

// Assign stores Value in the place Dst (a VarRef, Index or FieldOf chain
// rooted at a Var, a BufferRef or a SharedRef).
type Assign struct {
	Dst   Expr
	Value Expr
	Pos   Pos
}

// If runs Then when Cond holds, else Else (which may be nil).
type If struct {
	Cond       Expr
	Then, Else *Block
	Pos        Pos
}

// Loop is Go's for statement: Cond (nil means true) is tested before each
// iteration, Post runs after Body and after a Continue. Initialization is
// a preceding statement in an enclosing Block.
type Loop struct {
	Cond Expr
	Post *Block // may be nil
	Body *Block
	Pos  Pos
}

// Break leaves the innermost Loop.
type Break struct{ Pos Pos }

// Continue goes to the Post of the innermost Loop.
type Continue struct{ Pos Pos }

// Return leaves the function (or the kernel: the work-item is done).
type Return struct {
	Value Expr // nil in kernels and functions without a result
	Pos   Pos
}

// Barrier is Thread.Barrier: a workgroup control and memory barrier.
type Barrier struct{ Pos Pos }

// ExprStmt evaluates X for its effect (a call or an atomic).
type ExprStmt struct {
	X   Expr
	Pos Pos
}

func (*Block) stmt()    {}
func (*Decl) stmt()     {}
func (*Assign) stmt()   {}
func (*If) stmt()       {}
func (*Loop) stmt()     {}
func (*Break) stmt()    {}
func (*Continue) stmt() {}
func (*Return) stmt()   {}
func (*Barrier) stmt()  {}
func (*ExprStmt) stmt() {}

// ---- expressions ----

// Expr is a typed expression.
type Expr interface{ Type() Type }

// Const is a constant of a scalar type. Bits holds the value: for I32 and
// U32 the 32-bit pattern, for a narrow integer the 32-bit pattern of its
// value as I32 or U32 (sign- or zero-extended), for F32 math.Float32bits, for Bool 0 or 1.
type Const struct {
	T    *Basic
	Bits uint32
	Hi   uint32 // the high word of an I64 or U64; 0 for every other type
}

// Bits64 returns a wide constant's 64 bits.
func (c *Const) Bits64() uint64 { return uint64(c.Hi)<<32 | uint64(c.Bits) }

// VarRef reads (or, as an Assign's Dst, names) a Var.
type VarRef struct{ Var *Var }

// ScalarRef reads a uniform scalar parameter of the kernel.
type ScalarRef struct{ Param *Param }

// BufferRef names a buffer parameter; it appears only as the X of an Index
// or the argument of Len.
type BufferRef struct{ Param *Param }

// SharedRef names a shared array; it appears only as the X of an Index.
type SharedRef struct{ Shared *Shared }

// StaticLen returns the length of x, the X of an Index, when generation
// knows it (a shared array, an array value), and false for a buffer, whose
// length is known only when the kernel runs.
func StaticLen(x Expr) (int, bool) {
	switch x := x.(type) {
	case *BufferRef:
		return 0, false
	case *SharedRef:
		return x.Shared.Len, true
	}
	if a, ok := x.Type().(*Array); ok {
		return a.Len, true
	}
	return 0, false
}

// Index is X[Index] for X a BufferRef, SharedRef or array-typed Expr. The
// index is U32 or I32; out-of-range indices are the kernel's bug, as in
// Go, and are not checked on devices.
type Index struct {
	X, Index Expr
	T        Type
}

// FieldOf is X.Field for X of struct type.
type FieldOf struct {
	X     Expr
	Field int // index into the struct's Fields
	T     Type
}

// Op is an operator.
type Op int

// The operators. Arithmetic follows Go: integer arithmetic wraps,
// division truncates, shifts by at least the width give 0 (or -1 for a
// negative signed value shifted right).
const (
	OpAdd Op = iota
	OpSub
	OpMul
	OpDiv
	OpRem
	OpAnd
	OpOr
	OpXor
	OpAndNot
	OpShl
	OpShr
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpLAnd // &&, short-circuit
	OpLOr  // ||, short-circuit
	OpNeg  // unary -
	OpNot  // unary !
	OpCompl
	// unary ^ (bitwise complement)
)

var opNames = [...]string{"+", "-", "*", "/", "%", "&", "|", "^", "&^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "-", "!", "^"}

func (o Op) String() string { return opNames[o] }

// Unary is Op X.
type Unary struct {
	Op Op
	X  Expr
	T  Type
}

// Binary is X Op Y. For shifts Y is the count, a uint32 or an int32 (a
// negative int32 count is a run-time fault, as Go's panic); otherwise X
// and Y have the same type.
type Binary struct {
	Op   Op
	X, Y Expr
	T    Type
}

// Convert is a numeric conversion T(X) with Go's rules (float to integer
// truncates toward zero; out of range is implementation-defined in Go and
// saturates on devices).
type Convert struct {
	X Expr
	T *Basic
}

// Bitcast reinterprets the 32 bits of X as T (xpu.Float32Bits and
// xpu.Float32FromBits).
type Bitcast struct {
	X Expr
	T *Basic
}

// Builtin names a thread query or a math function.
type Builtin int

// The builtins. Thread queries take no arguments; math functions take
// float32 arguments unless noted (Abs, Min, Max, Clamp also take integers).
// The bit functions, from OnesCount32 on, take and yield uint32 as
// package math/bits defines them (counts as uint32; RotateLeft32's count
// is an int32 or uint32 taken modulo 32; MulHi32 is the high word of
// bits.Mul32).
const (
	GlobalX Builtin = iota
	GlobalY
	GlobalZ
	LocalX
	LocalY
	LocalZ
	GroupX
	GroupY
	GroupZ
	NumGroupsX
	NumGroupsY
	NumGroupsZ
	BlockX
	BlockY
	BlockZ
	LocalIndex
	WaveWidth
	LaneIndex

	Sqrt
	Exp
	Exp2
	Log
	Log2
	Pow
	Sin
	Cos
	Tan
	Tanh
	Abs
	Floor
	Ceil
	Round
	Trunc
	Min
	Max
	Fma
	Clamp
	Rsqrt

	OnesCount32
	LeadingZeros32
	TrailingZeros32
	Len32
	Reverse32
	ReverseBytes32
	RotateLeft32
	MulHi32
	numBuiltins
)

var builtinNames = [numBuiltins]string{
	"GlobalX", "GlobalY", "GlobalZ", "LocalX", "LocalY", "LocalZ", "GroupX", "GroupY", "GroupZ",
	"NumGroupsX", "NumGroupsY", "NumGroupsZ", "BlockX", "BlockY", "BlockZ", "LocalIndex",
	"WaveWidth", "LaneIndex",
	"Sqrt", "Exp", "Exp2", "Log", "Log2", "Pow", "Sin", "Cos", "Tan", "Tanh", "Abs", "Floor",
	"Ceil", "Round", "Trunc", "Min", "Max", "Fma", "Clamp", "Rsqrt",
	"OnesCount32", "LeadingZeros32", "TrailingZeros32", "Len32", "Reverse32", "ReverseBytes32",
	"RotateLeft32", "MulHi32",
}

func (b Builtin) String() string { return builtinNames[b] }

// IsThreadQuery reports whether b is a coordinate or size query.
func (b Builtin) IsThreadQuery() bool { return b <= LaneIndex }

// IsBits reports whether b is one of the bit functions of math/bits.
func (b Builtin) IsBits() bool { return b >= OnesCount32 && b < numBuiltins }

// Arity returns the number of arguments b takes.
func (b Builtin) Arity() int {
	switch {
	case b.IsThreadQuery():
		return 0
	case b == Pow || b == Min || b == Max || b == RotateLeft32 || b == MulHi32:
		return 2
	case b == Fma || b == Clamp:
		return 3
	}
	return 1
}

// CallBuiltin calls a builtin.
type CallBuiltin struct {
	Fn   Builtin
	Args []Expr
	T    Type
}

// Call calls a device function. Args match Func.Params.
type Call struct {
	Func *Func
	Args []Expr
	Pos  Pos // of the call, for diagnostics
}

// Len is len(buf) of a buffer parameter, as U32 (Go's int result is
// converted by the front end where needed).
type Len struct{ Buffer *Param }

// AtomicOp enumerates atomics.
type AtomicOp int

const (
	AtomicAdd AtomicOp = iota
	AtomicSub
	AtomicMin
	AtomicMax
	AtomicAnd
	AtomicOr
	AtomicXor
	AtomicExchange
	AtomicCompareExchange // Args: compare, new; result: old value
	AtomicAddFloat32      // on an F32 element, lowered where no native one exists
	AtomicLoad
	AtomicStore // result type is nil
)

var atomicNames = [...]string{"Add", "Sub", "Min", "Max", "And", "Or", "Xor", "Exchange", "CompareExchange", "AddFloat32", "Load", "Store"}

func (a AtomicOp) String() string { return "Atomic" + atomicNames[a] }

// Atomic applies Op to the element Ptr (an Index of a BufferRef or
// SharedRef, possibly with a FieldOf) and yields the old value.
type Atomic struct {
	Op   AtomicOp
	Ptr  Expr
	Args []Expr
	T    Type // element type; nil for AtomicStore
}

func (c *Const) Type() Type       { return c.T }
func (v *VarRef) Type() Type      { return v.Var.Type }
func (s *ScalarRef) Type() Type   { return s.Param.Type }
func (b *BufferRef) Type() Type   { return b.Param.Type }
func (s *SharedRef) Type() Type   { return s.Shared.Elem }
func (x *Index) Type() Type       { return x.T }
func (f *FieldOf) Type() Type     { return f.T }
func (u *Unary) Type() Type       { return u.T }
func (b *Binary) Type() Type      { return b.T }
func (c *Convert) Type() Type     { return c.T }
func (b *Bitcast) Type() Type     { return b.T }
func (c *CallBuiltin) Type() Type { return c.T }
func (c *Call) Type() Type        { return c.Func.Result }
func (*Len) Type() Type           { return U32Type }
func (a *Atomic) Type() Type      { return a.T }

// UniformSize is the size of k's uniform block: the end of its last
// scalar, rounded up to 16 bytes (std140). The code's launch words, where
// it reads some (schema.Word), follow it.
func UniformSize(k *Kernel) int {
	end := 0
	for _, p := range k.Params {
		if p.Kind == ScalarParam {
			end = max(end, p.Binding+p.Type.Size())
		}
	}
	return (end + 15) &^ 15
}
