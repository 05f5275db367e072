package llvmgen

// This file holds the state of one lowering and its small helpers.

import (
	"fmt"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
)

// gen lowers one kernel.
type gen struct {
	k *ir.Kernel
	t Target
	W int
	m *llvm.Module
	b *llvm.Builder

	// Of the launch, read once by the entry.
	faultPtr, stopPtr llvm.Value
	groups            [3]llvm.Value // i32
	buffers           map[*ir.Param]*buffer
	scalars           map[*ir.Param]llvm.Value
	shared            map[*ir.Shared]llvm.Value // the block's arrays (allocas)
	scratch           llvm.Value                // a GPU's shared array of folded wave verbs

	// Of the block and chunk being run.
	group     [3]llvm.Value // i32
	chunkBase llvm.Value    // i32: the chunk's first local linear index
	local     [4]value      // lx, ly, lz, li
	cur       llvm.Value    // the execution mask's slot: <W x i1>

	vars    map[*ir.Var]*variable
	loops   []*loopFrame
	ret     *retFrame
	forced  bool           // inside a device function inlined in varying control flow: all is varying
	u       *ir.Uniformity // the analysis of the body being lowered: k.Uniform, or Inlined's
	pos     ir.Pos         // of the statement being lowered, for refusals
	flow    bool           // the statement being lowered runs in uniform control flow
	full    bool           // every lane of the chunk runs it (a coherent if's copy)
	copying bool           // it is in a coherent if's copy, masked parts of it included
	assign  map[*ir.Var]int
	varyU   map[*ir.Var]bool // variables the uniformity analysis calls varying

	// Of loop fission (plan.go).
	cross      map[*ir.Var]bool       // variables that live across pieces
	perChunk   map[*ir.Var]llvm.Value // a crossing variable's [chunks x T] slot
	chunkVars  []*ir.Var              // the keys of perChunk, in order
	remat      map[*ir.Var]bool       // variables each chunk computes again
	rematOrder []*ir.Decl             // their declarations, in order
	alive      llvm.Value             // [chunks x iW]: the lanes that have not returned
	nchunks    int64
}

// buffer is a bound buffer: its base and its length in elements.
type buffer struct {
	index int        // among all parameters, for HostFault.Object
	base  llvm.Value // ptr
	len   llvm.Value // i64
	bound bound
}

// bound is an array's length as 32-bit indices are checked against it:
// an index is in range when, as an unsigned number, it is below u (a
// uint32 index, or any when big) or below s (an int32 index, whose
// negative values are then out of range).
type bound struct {
	u, s llvm.Value // i32: min(length, 2^32-1), min(length, 2^31)
	big  llvm.Value // i1: the length exceeds 2^32-1
}

// constBound is the bound of an array of n elements (n < 2^31).
func constBound(n int) bound {
	return bound{u: i32(int64(n)), s: i32(int64(n)), big: llvm.False}
}

// value is a lowered value: x, a scalar (uniform) or <W x T> (varying)
// of a basic type; or fields, of a struct (or the elements of an array
// field or element, read from memory); all, for some comparisons. ramp, when set, is the scalar
// i32 r with x = r + step*<0, 1, ..., W-1> (wrapping): an index whose
// lanes are step elements apart, contiguous when step is 1.
type value struct {
	x      llvm.Value
	ramp   llvm.Value
	step   int64 // > 0 when ramp is set
	fields []value
	// all, when set, is the scalar i1 "x holds in every lane" of a
	// comparison of a ramp with a uniform value.
	all llvm.Value
}

// maxStep bounds the steps a ramp keeps: step*W stays far from
// overflowing the i32 range checks.
const maxStep = 1 << 16

// rampOf returns the index x = r + <0, 1, ..., W-1>.
func rampOf(x, r llvm.Value) value { return value{x: x, ramp: r, step: 1} }

func newGen(k *ir.Kernel, t Target) *gen {
	g := &gen{
		k: k, t: t, W: t.Lanes,
		buffers: map[*ir.Param]*buffer{}, scalars: map[*ir.Param]llvm.Value{},
		shared: map[*ir.Shared]llvm.Value{}, vars: map[*ir.Var]*variable{},
		assign: map[*ir.Var]int{}, varyU: map[*ir.Var]bool{},
		m: &llvm.Module{SourceFilename: k.Name, Triple: t.Triple, DataLayout: t.DataLayout},
		u: k.Uniform,
	}
	g.survey()
	return g
}

// fail refuses the kernel at the statement being lowered.
func (g *gen) fail(format string, args ...any) {
	panic(&Error{Kernel: g.k.Name, Pos: g.pos, Reason: fmt.Sprintf(format, args...)})
}

// survey counts the assignments of every variable and collects the ones
// the uniformity analysis calls varying.
func (g *gen) survey() {
	bodies := []*ir.Block{g.k.Body}
	for _, f := range g.k.Funcs {
		bodies = append(bodies, f.Body)
	}
	for _, b := range bodies {
		ir.WalkStmts(b, func(s ir.Stmt) bool {
			if a, ok := s.(*ir.Assign); ok {
				if r, ok := root(a.Dst).(*ir.VarRef); ok {
					g.assign[r.Var]++
				}
			}
			return true
		})
		g.surveyVarying(b, g.k.Uniform, g.varyU)
	}
}

// surveyVarying records in vary the variables of b that u calls varying:
// declared in varying control flow or from a varying value, or read as
// one.
func (g *gen) surveyVarying(b *ir.Block, u *ir.Uniformity, vary map[*ir.Var]bool) {
	if g.simt() {
		// A thread is one work-item: every value is its own.
		return
	}
	ir.WalkStmts(b, func(s ir.Stmt) bool {
		if d, ok := s.(*ir.Decl); ok && (!u.Flow[s] || d.Init != nil && !u.Value[d.Init]) {
			vary[d.Var] = true
		}
		for _, x := range ir.StmtExprs(s) {
			ir.WalkExpr(x, func(x ir.Expr) bool {
				if r, ok := x.(*ir.VarRef); ok && !u.Value[r] {
					vary[r.Var] = true
				}
				return true
			})
		}
		return true
	})
}

// root returns the variable, buffer or shared array a place is rooted at.
func root(x ir.Expr) ir.Expr {
	for {
		switch e := x.(type) {
		case *ir.Index:
			x = e.X
		case *ir.FieldOf:
			x = e.X
		default:
			return x
		}
	}
}

// ---- types ----

// basic returns the LLVM type of a scalar IR type.
func (g *gen) basic(t ir.Type) llvm.Type {
	b, ok := t.(*ir.Basic)
	if !ok {
		g.fail("a value of type %v where a scalar is needed", t)
	}
	switch b.Kind {
	case ir.Bool:
		return llvm.I1
	case ir.F32:
		return llvm.F32
	}
	switch b.Size() {
	case 1:
		return llvm.I8
	case 2:
		return llvm.I16
	case 8:
		return llvm.I64
	}
	return llvm.I32
}

// vec returns <W x t>.
func (g *gen) vec(t llvm.Type) *llvm.VectorType { return llvm.Vec(g.W, t) }

// isVec reports whether v is a vector (a varying value or a mask).
func isVec(v llvm.Value) bool { return llvm.Lanes(v.Type()) > 0 }

// i32 and friends spell constants.
func i32(v int64) *llvm.Int { return llvm.ConstInt(llvm.I32, v) }
func i64(v int64) *llvm.Int { return llvm.ConstInt(llvm.I64, v) }

// splat returns x as a vector of W lanes (x itself when it is one).
func (g *gen) splat(x llvm.Value) llvm.Value {
	if isVec(x) {
		return x
	}
	return g.b.Broadcast(g.W, x)
}

// widen returns x and y, both vectors when either is.
func (g *gen) widen(x, y llvm.Value) (llvm.Value, llvm.Value) {
	if isVec(x) || isVec(y) {
		return g.splat(x), g.splat(y)
	}
	return x, y
}

// lanes returns the constant vector <0, 1, ..., W-1> of i32.
func (g *gen) lanes() llvm.Value {
	e := make([]llvm.Value, g.W)
	for i := range e {
		e[i] = i32(int64(i))
	}
	return &llvm.VectorConst{Elems: e}
}

// allOnes returns the mask of every lane.
func (g *gen) allOnes() llvm.Value { return &llvm.Splat{Len: g.W, X: llvm.True} }

// noLanes returns the empty mask.
func (g *gen) noLanes() llvm.Value { return &llvm.Zero{T: g.vec(llvm.I1)} }

// simt reports whether the target runs a work-item per thread (a GPU):
// then every value is a scalar, all control flow is branches and there
// is no execution mask.
func (g *gen) simt() bool { return g.t.Arch != ArchHost }

// mask returns the current execution mask (on a GPU, true: the thread
// runs).
func (g *gen) mask() llvm.Value {
	if g.simt() {
		return llvm.True
	}
	return g.b.Load(g.vec(llvm.I1), g.cur, 1)
}

// setMask sets the execution mask (none on a GPU).
func (g *gen) setMask(m llvm.Value) {
	if g.simt() {
		return
	}
	g.b.Store(m, g.cur, 1)
}

// maskBits returns the mask as an iW integer, lane i at bit i.
func (g *gen) maskBits(m llvm.Value) llvm.Value {
	return g.b.Cast(llvm.Bitcast, m, &llvm.IntType{Bits: g.W})
}

// any returns whether some lane of the mask m is set (i1).
func (g *gen) any(m llvm.Value) llvm.Value {
	if !isVec(m) {
		return m
	}
	return g.b.ICmp(llvm.NE, g.maskBits(m), &llvm.Int{T: &llvm.IntType{Bits: g.W}})
}

// all returns whether every lane of the mask m is set (i1).
func (g *gen) all(m llvm.Value) llvm.Value {
	if !isVec(m) {
		return m
	}
	return g.b.ICmp(llvm.EQ, g.maskBits(m), llvm.ConstInt(&llvm.IntType{Bits: g.W}, -1))
}

// not returns ^x of an i1 or mask.
func (g *gen) not(x llvm.Value) llvm.Value {
	if isVec(x) {
		return g.b.Xor(x, g.allOnes())
	}
	return g.b.Xor(x, llvm.True)
}

// intrinsic declares name and calls it.
func (g *gen) intrinsic(name string, ret llvm.Type, args ...llvm.Value) llvm.Value {
	ts := make([]llvm.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	g.m.Declare(name, ret, ts...)
	return g.b.Call(ret, name, args...)
}

// suffix spells a type in an overloaded intrinsic's name (v8f32, i32).
func suffix(t llvm.Type) string {
	switch t := t.(type) {
	case *llvm.VectorType:
		return fmt.Sprintf("v%d%s", t.Len, suffix(t.Elem))
	case *llvm.FloatType:
		if t.Kind == llvm.Double {
			return "f64"
		}
		return "f32"
	case *llvm.PtrType:
		return "p0"
	}
	return t.String()
}

// ifThen runs then in a block of its own when cond (i1) holds and
// continues after it.
func (g *gen) ifThen(cond llvm.Value, hint string, then func()) {
	tb, after := g.b.NewBlock(hint), g.b.NewBlock(hint+".end")
	g.b.CondBr(cond, tb, after)
	g.b.SetBlock(tb)
	then()
	if !g.b.Block.Terminated() {
		g.b.Br(after)
	}
	g.b.SetBlock(after)
}
