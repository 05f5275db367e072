package llvm

// This file defines instructions.

// Inst is an instruction of a basic block.
type Inst interface{ isInst() }

// BinOp enumerates the binary operators.
type BinOp int

const (
	Add BinOp = iota
	Sub
	Mul
	UDiv
	SDiv
	URem
	SRem
	Shl
	LShr
	AShr
	And
	Or
	Xor
	FAdd
	FSub
	FMul
	FDiv
	FRem
)

var binOpNames = [...]string{"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor", "fadd", "fsub", "fmul", "fdiv", "frem"}

func (o BinOp) String() string { return binOpNames[o] }

// Flags are the poison-generating flags of a binary operator.
type Flags struct {
	NUW, NSW, Exact, Disjoint bool
}

// Binary is Res = Op X, Y.
type Binary struct {
	Res   *Local
	Op    BinOp
	Flags Flags
	X, Y  Value
}

// FNeg is Res = fneg X.
type FNeg struct {
	Res *Local
	X   Value
}

// Pred is a comparison predicate of icmp ("eq", "slt", ...) or fcmp
// ("oeq", "olt", "une", ...); the printer checks it.
type Pred string

// The predicates.
const (
	EQ  Pred = "eq"
	NE  Pred = "ne"
	ULT Pred = "ult"
	ULE Pred = "ule"
	UGT Pred = "ugt"
	UGE Pred = "uge"
	SLT Pred = "slt"
	SLE Pred = "sle"
	SGT Pred = "sgt"
	SGE Pred = "sge"

	OEQ Pred = "oeq"
	ONE Pred = "one"
	OLT Pred = "olt"
	OLE Pred = "ole"
	OGT Pred = "ogt"
	OGE Pred = "oge"
	UNE Pred = "une"
	UNO Pred = "uno"
	ORD Pred = "ord"
)

// ICmp is Res = icmp Pred X, Y.
type ICmp struct {
	Res  *Local
	Pred Pred
	X, Y Value
}

// FCmp is Res = fcmp Pred X, Y.
type FCmp struct {
	Res  *Local
	Pred Pred
	X, Y Value
}

// Select is Res = select Cond, X, Y.
type Select struct {
	Res        *Local
	Cond, X, Y Value
}

// Incoming is one arm of a phi.
type Incoming struct {
	X    Value
	From *Block
}

// Phi is Res = phi [X, From]...
type Phi struct {
	Res *Local
	In  []Incoming
}

// Br is br label Dest.
type Br struct{ Dest *Block }

// CondBr is br i1 Cond, label Then, label Else.
type CondBr struct {
	Cond       Value
	Then, Else *Block
}

// Ret is ret X, or ret void when X is nil.
type Ret struct{ X Value }

// Unreachable is unreachable.
type Unreachable struct{}

// Call is Res = call RetType Callee(Args) (Res nil for void).
type Call struct {
	Res     *Local
	RetType Type
	Callee  string // a global name
	Args    []Value
	Attrs   []string // function attributes after the argument list, e.g. "nounwind"
}

// Alloca is Res = alloca T, align Align.
type Alloca struct {
	Res   *Local
	T     Type
	Align int
	Space int // the address space (the data layout's alloca space)
}

// Ordering is an atomic memory ordering ("" for a plain access).
type Ordering string

// The orderings.
const (
	NotAtomic Ordering = ""
	Unordered Ordering = "unordered"
	Monotonic Ordering = "monotonic"
	Acquire   Ordering = "acquire"
	Release   Ordering = "release"
	AcqRel    Ordering = "acq_rel"
	SeqCst    Ordering = "seq_cst"
)

// Load is Res = load T, ptr Ptr [atomic Order], align Align.
type Load struct {
	Res   *Local
	Ptr   Value
	Order Ordering
	Align int
}

// Store is store X, ptr Ptr [atomic Order], align Align.
type Store struct {
	X, Ptr Value
	Order  Ordering
	Align  int
}

// RMWOp is an atomicrmw operation.
type RMWOp string

// The atomicrmw operations.
const (
	RMWXchg RMWOp = "xchg"
	RMWAdd  RMWOp = "add"
	RMWSub  RMWOp = "sub"
	RMWAnd  RMWOp = "and"
	RMWOr   RMWOp = "or"
	RMWXor  RMWOp = "xor"
	RMWMax  RMWOp = "max"
	RMWMin  RMWOp = "min"
	RMWUMax RMWOp = "umax"
	RMWUMin RMWOp = "umin"
	RMWFAdd RMWOp = "fadd"
)

// AtomicRMW is Res = atomicrmw Op ptr Ptr, X Order.
type AtomicRMW struct {
	Res   *Local
	Op    RMWOp
	Ptr   Value
	X     Value
	Order Ordering
	Align int
}

// CmpXchg is Res = cmpxchg ptr Ptr, Cmp, New Success Failure; Res is a
// { T, i1 }.
type CmpXchg struct {
	Res              *Local
	Ptr, Cmp, New    Value
	Success, Failure Ordering
	Align            int
}

// Fence is fence [syncscope(Scope)] Order.
type Fence struct {
	Order Ordering
	Scope string // "" for the system; "workgroup", "agent", ... a target's
}

// GEP is Res = getelementptr [inbounds] Elem, ptr Base, Indices.
type GEP struct {
	Res      *Local
	Elem     Type
	Base     Value
	Indices  []Value
	InBounds bool
}

// CastOp is a conversion.
type CastOp string

// The conversions.
const (
	Trunc    CastOp = "trunc"
	ZExt     CastOp = "zext"
	SExt     CastOp = "sext"
	FPTrunc  CastOp = "fptrunc"
	FPExt    CastOp = "fpext"
	FPToUI   CastOp = "fptoui"
	FPToSI   CastOp = "fptosi"
	UIToFP   CastOp = "uitofp"
	SIToFP   CastOp = "sitofp"
	PtrToInt CastOp = "ptrtoint"
	IntToPtr CastOp = "inttoptr"
	Bitcast  CastOp = "bitcast"
	// AddrSpaceCast converts a pointer between address spaces.
	AddrSpaceCast CastOp = "addrspacecast"
)

// Cast is Res = Op X to Res.T.
type Cast struct {
	Res *Local
	Op  CastOp
	X   Value
}

// ExtractElement is Res = extractelement Vec, Index.
type ExtractElement struct {
	Res        *Local
	Vec, Index Value
}

// InsertElement is Res = insertelement Vec, X, Index.
type InsertElement struct {
	Res           *Local
	Vec, X, Index Value
}

// ShuffleVector is Res = shufflevector X, Y, Mask (a constant vector of
// i32, -1 for poison).
type ShuffleVector struct {
	Res  *Local
	X, Y Value
	Mask []int
}

// ExtractValue is Res = extractvalue Agg, Index.
type ExtractValue struct {
	Res   *Local
	Agg   Value
	Index int
}

// Freeze is Res = freeze X.
type Freeze struct {
	Res *Local
	X   Value
}

func (*Binary) isInst()         {}
func (*FNeg) isInst()           {}
func (*ICmp) isInst()           {}
func (*FCmp) isInst()           {}
func (*Select) isInst()         {}
func (*Phi) isInst()            {}
func (*Br) isInst()             {}
func (*CondBr) isInst()         {}
func (*Ret) isInst()            {}
func (*Unreachable) isInst()    {}
func (*Call) isInst()           {}
func (*Alloca) isInst()         {}
func (*Load) isInst()           {}
func (*Store) isInst()          {}
func (*AtomicRMW) isInst()      {}
func (*CmpXchg) isInst()        {}
func (*Fence) isInst()          {}
func (*GEP) isInst()            {}
func (*Cast) isInst()           {}
func (*ExtractElement) isInst() {}
func (*InsertElement) isInst()  {}
func (*ShuffleVector) isInst()  {}
func (*ExtractValue) isInst()   {}
func (*Freeze) isInst()         {}

// terminates reports whether in ends a block.
func terminates(in Inst) bool {
	switch in.(type) {
	case *Br, *CondBr, *Ret, *Unreachable:
		return true
	}
	return false
}
