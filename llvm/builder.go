package llvm

// This file is the builder: it appends instructions to a function's
// current block and names their results.

import "fmt"

// Builder appends instructions to the blocks of one function.
type Builder struct {
	F     *Func
	Block *Block // the block instructions go to
	// allocas collects the function's allocas, which the builder puts at
	// the front of the entry block, where SROA wants them.
	entry *Block
	nallo int
	// AllocaSpace is the address space of the target's stack (an AMD
	// GPU's private memory: 5). Alloca casts a slot in another space
	// than 0 to a generic pointer, so that callers see ptr alone.
	AllocaSpace int
}

// NewBuilder returns a builder for f positioned at a new entry block.
func NewBuilder(f *Func) *Builder {
	b := &Builder{F: f}
	b.entry = f.NewBlock("entry")
	b.Block = b.entry
	return b
}

// SetBlock makes blk the block instructions go to.
func (b *Builder) SetBlock(blk *Block) { b.Block = blk }

// NewBlock adds a block to the function (it does not move to it).
func (b *Builder) NewBlock(hint string) *Block { return b.F.NewBlock(hint) }

func (b *Builder) local(hint string, t Type) *Local { return &Local{Name: b.F.fresh(hint), T: t} }

func (b *Builder) emit(in Inst) {
	if b.Block.Terminated() {
		// Code after a terminator is unreachable: give it a block of its
		// own so that the function stays well formed.
		b.Block = b.F.NewBlock("dead")
	}
	b.Block.Insts = append(b.Block.Insts, in)
}

// Bin returns op x, y with flags.
func (b *Builder) Bin(op BinOp, x, y Value, fl Flags) *Local {
	r := b.local("", x.Type())
	b.emit(&Binary{Res: r, Op: op, Flags: fl, X: x, Y: y})
	return r
}

// Add returns x + y (wrapping).
func (b *Builder) Add(x, y Value) *Local { return b.Bin(Add, x, y, Flags{}) }

// Sub returns x - y (wrapping).
func (b *Builder) Sub(x, y Value) *Local { return b.Bin(Sub, x, y, Flags{}) }

// Mul returns x * y (wrapping).
func (b *Builder) Mul(x, y Value) *Local { return b.Bin(Mul, x, y, Flags{}) }

// And returns x & y.
func (b *Builder) And(x, y Value) *Local { return b.Bin(And, x, y, Flags{}) }

// Or returns x | y.
func (b *Builder) Or(x, y Value) *Local { return b.Bin(Or, x, y, Flags{}) }

// Xor returns x ^ y.
func (b *Builder) Xor(x, y Value) *Local { return b.Bin(Xor, x, y, Flags{}) }

// FNeg returns -x.
func (b *Builder) FNeg(x Value) *Local {
	r := b.local("", x.Type())
	b.emit(&FNeg{Res: r, X: x})
	return r
}

// ICmp returns icmp pred x, y (i1, or a vector of i1).
func (b *Builder) ICmp(pred Pred, x, y Value) *Local {
	r := b.local("c", Like(x.Type(), I1))
	b.emit(&ICmp{Res: r, Pred: pred, X: x, Y: y})
	return r
}

// FCmp returns fcmp pred x, y.
func (b *Builder) FCmp(pred Pred, x, y Value) *Local {
	r := b.local("c", Like(x.Type(), I1))
	b.emit(&FCmp{Res: r, Pred: pred, X: x, Y: y})
	return r
}

// Select returns cond ? x : y.
func (b *Builder) Select(cond, x, y Value) *Local {
	r := b.local("", x.Type())
	b.emit(&Select{Res: r, Cond: cond, X: x, Y: y})
	return r
}

// Phi returns a phi of type t over the arms (more may be added to it).
func (b *Builder) Phi(t Type, in ...Incoming) (*Local, *Phi) {
	r := b.local("", t)
	p := &Phi{Res: r, In: in}
	b.emit(p)
	return r, p
}

// Br ends the block with a branch to dest.
func (b *Builder) Br(dest *Block) { b.emit(&Br{dest}) }

// CondBr ends the block with a conditional branch.
func (b *Builder) CondBr(cond Value, then, els *Block) { b.emit(&CondBr{cond, then, els}) }

// Ret ends the block returning x (nil: ret void).
func (b *Builder) Ret(x Value) { b.emit(&Ret{x}) }

// Unreachable ends the block with unreachable.
func (b *Builder) Unreachable() { b.emit(&Unreachable{}) }

// Call calls callee; it returns nil for a void result.
func (b *Builder) Call(ret Type, callee string, args ...Value) *Local {
	c := &Call{RetType: ret, Callee: callee, Args: args}
	if _, void := ret.(*VoidType); !void {
		c.Res = b.local("", ret)
	}
	b.emit(c)
	return c.Res
}

// Alloca returns a stack slot of type t, placed at the front of the
// entry block.
func (b *Builder) Alloca(hint string, t Type, align int) *Local {
	r := b.local(hint, PtrIn(b.AllocaSpace))
	b.atEntry(&Alloca{Res: r, T: t, Align: align, Space: b.AllocaSpace})
	if b.AllocaSpace == 0 {
		return r
	}
	g := b.local(hint, Ptr)
	b.atEntry(&Cast{Res: g, Op: AddrSpaceCast, X: r})
	return g
}

// atEntry puts in after the allocas at the front of the entry block.
func (b *Builder) atEntry(in Inst) {
	e := b.entry
	e.Insts = append(e.Insts, nil)
	copy(e.Insts[b.nallo+1:], e.Insts[b.nallo:])
	e.Insts[b.nallo] = in
	b.nallo++
}

// Load returns the t at ptr.
func (b *Builder) Load(t Type, ptr Value, align int) *Local {
	r := b.local("", t)
	b.emit(&Load{Res: r, Ptr: ptr, Align: align})
	return r
}

// AtomicLoad returns the t at ptr, read atomically with order.
func (b *Builder) AtomicLoad(t Type, ptr Value, order Ordering, align int) *Local {
	r := b.local("", t)
	b.emit(&Load{Res: r, Ptr: ptr, Order: order, Align: align})
	return r
}

// Store writes x to ptr.
func (b *Builder) Store(x, ptr Value, align int) { b.emit(&Store{X: x, Ptr: ptr, Align: align}) }

// AtomicStore writes x to ptr atomically with order.
func (b *Builder) AtomicStore(x, ptr Value, order Ordering, align int) {
	b.emit(&Store{X: x, Ptr: ptr, Order: order, Align: align})
}

// AtomicRMW applies op with x to the value at ptr and returns the old one.
func (b *Builder) AtomicRMW(op RMWOp, ptr, x Value, order Ordering, align int) *Local {
	r := b.local("old", x.Type())
	b.emit(&AtomicRMW{Res: r, Op: op, Ptr: ptr, X: x, Order: order, Align: align})
	return r
}

// CmpXchg compares the value at ptr with cmp and, when equal, stores new;
// it returns the old value.
func (b *Builder) CmpXchg(ptr, cmp, new Value, success, failure Ordering, align int) *Local {
	pair := b.local("pair", &StructType{Fields: []Type{cmp.Type(), I1}})
	b.emit(&CmpXchg{Res: pair, Ptr: ptr, Cmp: cmp, New: new, Success: success, Failure: failure, Align: align})
	return b.ExtractValue(pair, 0)
}

// ExtractValue returns field i of the struct value agg; it panics when
// agg is not a struct with field i, a bug of the caller (as reflect does).
func (b *Builder) ExtractValue(agg Value, i int) *Local {
	st, ok := agg.Type().(*StructType)
	if !ok || i < 0 || i >= len(st.Fields) {
		panic(fmt.Sprintf("llvm: extractvalue %d of %v", i, agg.Type()))
	}
	r := b.local("", st.Fields[i])
	b.emit(&ExtractValue{Res: r, Agg: agg, Index: i})
	return r
}

// Fence is a fence of order.
func (b *Builder) Fence(order Ordering) { b.emit(&Fence{Order: order}) }

// ScopedFence is a fence of order in a target's synchronization scope.
func (b *Builder) ScopedFence(order Ordering, scope string) {
	b.emit(&Fence{Order: order, Scope: scope})
}

// GEP returns getelementptr inbounds elem, base, indices (a pointer, or a
// vector of pointers when an index is a vector).
func (b *Builder) GEP(elem Type, base Value, indices ...Value) *Local {
	p := Elem(base.Type())
	t := p
	for _, x := range append([]Value{base}, indices...) {
		if n := Lanes(x.Type()); n > 0 {
			t = Vec(n, p)
		}
	}
	r := b.local("p", t)
	b.emit(&GEP{Res: r, Elem: elem, Base: base, Indices: indices, InBounds: true})
	return r
}

// Cast converts x to t with op.
func (b *Builder) Cast(op CastOp, x Value, t Type) *Local {
	r := b.local("", t)
	b.emit(&Cast{Res: r, Op: op, X: x})
	return r
}

// ExtractElement returns lane i of vec.
func (b *Builder) ExtractElement(vec, i Value) *Local {
	r := b.local("", Elem(vec.Type()))
	b.emit(&ExtractElement{Res: r, Vec: vec, Index: i})
	return r
}

// InsertElement returns vec with lane i set to x.
func (b *Builder) InsertElement(vec, x, i Value) *Local {
	r := b.local("", vec.Type())
	b.emit(&InsertElement{Res: r, Vec: vec, X: x, Index: i})
	return r
}

// Shuffle returns shufflevector x, y, mask.
func (b *Builder) Shuffle(x, y Value, mask []int) *Local {
	r := b.local("", Vec(len(mask), Elem(x.Type())))
	b.emit(&ShuffleVector{Res: r, X: x, Y: y, Mask: mask})
	return r
}

// Freeze returns freeze x.
func (b *Builder) Freeze(x Value) *Local {
	r := b.local("", x.Type())
	b.emit(&Freeze{Res: r, X: x})
	return r
}

// Broadcast returns a vector of n copies of the scalar x: a constant
// splat when x is a constant, else insertelement and a zero shuffle.
func (b *Builder) Broadcast(n int, x Value) Value {
	switch x.(type) {
	case *Int, *FloatConst:
		return &Splat{Len: n, X: x}
	case *Zero:
		return &Zero{Vec(n, x.Type())}
	}
	v := b.InsertElement(&Poison{Vec(n, x.Type())}, x, ConstInt(I32, 0))
	return b.Shuffle(v, &Poison{Vec(n, x.Type())}, make([]int, n))
}
