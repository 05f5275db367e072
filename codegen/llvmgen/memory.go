package llvmgen

// This file lowers places and the accesses to them. Every access to a
// buffer, shared or private array is bounds-checked for the active lanes
// (an unsigned index below the length), an out-of-range one faulting
// before any lane touches memory. An index the lanes share is a scalar
// access; an index that is a uniform value plus the lane (a ramp) is a
// contiguous vector access (masked unless every lane runs); a ramp whose
// lanes are a small constant step apart is one wide access of step*W
// elements, deinterleaved on a load, and on a store a masked store of
// the lanes' places (or, to a shared array, the elements read, blended
// and written back); any other is a gather or scatter. Elements of a
// buffer that some work-item touches atomically are accessed
// atomically, lane by lane.

import (
	"math"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/llvm"
	"github.com/goxpu/xpu/schema"
)

// place is where a value lives: a variable (with a field or an array
// element of it), an element of memory (a buffer or shared array, with
// a field of a struct element), or a field of a value that is no place.
type place struct {
	v    *variable
	path []step // a variable's fields and elements, outermost first

	mem *memRef

	val *value // a computed value
}

// step is a field (index nil) or an element of a variable's value.
type step struct {
	field int
	index *value
}

// indexed reports whether a path selects an array element.
func indexed(path []step) bool {
	for _, s := range path {
		if s.index != nil {
			return true
		}
	}
	return false
}

// memRef is an element of a buffer or shared array.
type memRef struct {
	base   llvm.Value // ptr
	n      bound      // the elements it holds
	object uint32     // HostFault.Object
	stride int64      // bytes per element
	off    int64      // the byte offset of the place in its element
	dyn    llvm.Value // i64, scalar or per lane: the offset of an element of an array field, or nil
	elem   ir.Type    // the type at the place
	idx    value      // the element index, i32
	signed bool       // the index is an int32
	atomic bool       // the element is touched atomically elsewhere
	block  bool       // the block's own (a shared array): no other thread touches it
}

func (g *gen) placeOf(x ir.Expr) place {
	switch e := x.(type) {
	case *ir.VarRef:
		return place{v: g.lookup(e.Var)}
	case *ir.FieldOf:
		p := g.placeOf(e.X)
		st, ok := e.X.Type().(*ir.Struct)
		if !ok || e.Field < 0 || e.Field >= len(st.Fields) {
			g.fail("a field of a non-struct value")
		}
		switch {
		case p.mem != nil:
			for _, f := range st.Fields[:e.Field] {
				p.mem.off += int64(f.Type.Size())
			}
			p.mem.elem = st.Fields[e.Field].Type
		case p.val != nil:
			p.val = &p.val.fields[e.Field]
		default:
			p.path = append(p.path, step{field: e.Field})
		}
		return p
	case *ir.Index:
		idx := g.expr(e.Index)
		signed := ir.IsKind(e.Index.Type(), ir.I32)
		switch r := e.X.(type) {
		case *ir.BufferRef:
			buf := g.buffers[r.Param]
			return place{mem: &memRef{base: buf.base, n: buf.bound, object: uint32(buf.index),
				stride: int64(e.T.Size()), elem: e.T, idx: idx, signed: signed,
				atomic: r.Param.Access == schema.AccessAtomic}}
		case *ir.SharedRef:
			return place{mem: &memRef{base: g.shared[r.Shared], n: constBound(r.Shared.Len), object: math.MaxUint32,
				stride: int64(e.T.Size()), elem: e.T, idx: idx, signed: signed, block: true}}
		}
		p := g.placeOf(e.X)
		a, ok := e.X.Type().(*ir.Array)
		if p.mem != nil && ok {
			g.memElem(p.mem, a, value{x: idx.x, ramp: idx.ramp, step: idx.step}, signed)
			return p
		}
		if p.v == nil || !ok {
			g.fail("an index of an array that is not a variable")
		}
		g.checkIndex(idx, constBound(a.Len), signed, math.MaxUint32)
		p.path = append(p.path, step{index: &idx})
		return p
	}
	v := g.expr(x)
	return place{val: &v}
}

// memElem narrows r, an array in memory (a row of a shared array of
// arrays, an array field of a buffer's struct), to its element idx. The
// index is checked against the array's length, as Go's is. A whole
// element of a shared array folds into the element index, so that lanes
// reading a row's consecutive elements make one vector access; a field
// adds to the byte offset.
func (g *gen) memElem(r *memRef, a *ir.Array, idx value, signed bool) {
	g.checkIndex(idx, constBound(a.Len), signed, r.object)
	b := g.b
	es := int64(a.Elem.Size())
	if n, ok := r.n.u.(*llvm.Int); ok && r.off == 0 && r.dyn == nil && r.stride == int64(a.Size()) {
		// Both indices in range: the flat one neither wraps nor is
		// negative.
		g.checkIndex(r.idx, r.n, r.signed, r.object)
		l := value{x: i32(int64(a.Len))}
		mul := g.rampOf(ir.OpMul, r.idx, l)
		row := value{x: b.Bin(llvm.Mul, r.idx.x, g.maybeSplat(l.x, r.idx.x), llvm.Flags{}), ramp: mul.ramp, step: mul.step}
		x, y := g.widen(row.x, idx.x)
		sum := g.rampOf(ir.OpAdd, row, idx)
		r.idx = value{x: b.Add(x, y), ramp: sum.ramp, step: sum.step}
		r.n, r.signed, r.stride = constBound(int(n.Bits)*a.Len), false, es
		r.elem = a.Elem
		return
	}
	off := b.Mul(g.index64(idx.x, signed), g.maybeSplat(i64(es), idx.x))
	if r.dyn != nil {
		x, y := g.widen(r.dyn, off)
		off = b.Add(x, y)
	}
	r.dyn, r.elem = off, a.Elem
	if isVec(off) {
		// Lanes at places apart by no one step: a gather or scatter.
		r.idx = value{x: g.splat(r.idx.x)}
	}
}

// index64 widens a 32-bit index to 64 bits as Go reads it.
func (g *gen) index64(x llvm.Value, signed bool) llvm.Value {
	op := llvm.ZExt
	if signed {
		op = llvm.SExt
	}
	return g.b.Cast(op, x, llvm.Like(x.Type(), llvm.I64))
}

// inRange returns whether idx (a scalar or per lane) is below n.
func (g *gen) inRange(idx llvm.Value, n bound, signed bool) llvm.Value {
	if signed {
		return g.b.ICmp(llvm.ULT, idx, g.maybeSplat(n.s, idx))
	}
	in := g.b.ICmp(llvm.ULT, idx, g.maybeSplat(n.u, idx))
	if c, ok := n.big.(*llvm.Int); ok && c.Bits == 0 {
		return in
	}
	return g.b.Or(in, g.maybeSplat(n.big, idx))
}

// checkIndex faults when an active lane's index is not below n.
func (g *gen) checkIndex(idx value, n bound, signed bool, object uint32) {
	check := func() { g.fault(g.active(g.not(g.inRange(idx.x, n, signed))), schema.HostFaultIndex, object, idx.x) }
	if idx.ramp == nil || !isVec(idx.x) {
		check()
		return
	}
	// A ramp r, r+s, ..., r+s(W-1) is in range, whichever lanes run,
	// when its last element is below the length without wrapping: one
	// scalar test in the common case, the lanes' own only when it fails.
	g.ifThen(g.not(g.spanIn(idx.ramp, int64(idx.step)*int64(g.W-1), n, signed)), "check", check)
}

// spanIn returns whether the elements r to r+span are all below n, with
// no index wrapping.
func (g *gen) spanIn(r llvm.Value, span int64, n bound, signed bool) llvm.Value {
	b := g.b
	lim := n.u
	if signed {
		lim = n.s // a negative r reads as too large
	}
	w := i32(span)
	return b.And(b.ICmp(llvm.UGE, lim, w), b.ICmp(llvm.ULT, r, b.Sub(lim, w)))
}

// maybeSplat shapes the scalar n as like.
func (g *gen) maybeSplat(n, like llvm.Value) llvm.Value {
	if isVec(like) {
		return g.splat(n)
	}
	return n
}

func (g *gen) loadPlace(p place) value {
	switch {
	case p.val != nil:
		return *p.val
	case p.mem != nil:
		return g.loadMem(p.mem)
	case indexed(p.path):
		return g.loadElem(p)
	}
	x := g.load(p.v)
	for _, s := range p.path {
		x = x.fields[s.field]
	}
	return x
}

func (g *gen) store(p place, x value) {
	switch {
	case p.mem != nil:
		g.storeMem(p.mem, x)
		return
	case p.val != nil || p.v.ssa != nil:
		g.fail("an assignment to a value that is not a place")
	case indexed(p.path):
		g.storeElem(p, x)
		return
	}
	ptr, t := p.v.ptr, p.v.lt
	for _, s := range p.path {
		st := t.(*llvm.StructType)
		ptr = g.b.GEP(st, ptr, i32(0), i32(int64(s.field)))
		t = st.Fields[s.field]
	}
	g.storeSlot(ptr, t, x, false)
}

// ---- private arrays ----

// elemAddr returns the address of the part of a variable's slot a path
// with an array index names, its type and IR type, and whether the
// address is per lane (an index differs across lanes): then it is each
// lane's element's own (a slot of lanes holds lane l at l's place).
func (g *gen) elemAddr(p place) (ptr llvm.Value, t llvm.Type, it ir.Type, lanes bool) {
	b := g.b
	t, it = p.v.lt, p.v.t
	idx := []llvm.Value{i64(0)}
	for _, s := range p.path {
		if s.index == nil {
			st, ok := t.(*llvm.StructType)
			ist, isStruct := it.(*ir.Struct)
			if !ok || !isStruct {
				g.fail("a field of a non-struct value")
			}
			idx = append(idx, i32(int64(s.field)))
			t, it = st.Fields[s.field], ist.Fields[s.field].Type
			continue
		}
		at, ok := t.(*llvm.ArrayType)
		iat, isArray := it.(*ir.Array)
		if !ok || !isArray {
			g.fail("an index of a non-array value")
		}
		i := s.index.x
		if isVec(i) {
			lanes = true
		} else {
			// Out of range only where no lane runs: element 0 then.
			i = b.Select(b.ICmp(llvm.ULT, i, i32(int64(at.Len))), i, i32(0))
		}
		idx = append(idx, g.index64(i, false))
		t, it = at.Elem, iat.Elem
	}
	ptr = b.GEP(p.v.lt, p.v.ptr, idx...)
	if lanes {
		if _, ok := it.(*ir.Basic); !ok {
			g.fail("a %v chosen by an index that differs across lanes", it)
		}
		if p.v.vec {
			ptr = b.GEP(llvm.Elem(t), ptr, g.index64(g.lanes(), false))
			t = llvm.Elem(t)
		}
	}
	return ptr, t, it, lanes
}

// byField returns, for a struct that lanes choose with differing
// indices, the places of its fields: such a struct is accessed field by
// field.
func (g *gen) byField(p place) []place {
	it := p.v.t
	varies := false
	for _, s := range p.path {
		switch t := it.(type) {
		case *ir.Struct:
			it = t.Fields[s.field].Type
		case *ir.Array:
			it = t.Elem
			varies = varies || isVec(s.index.x)
		}
	}
	st, ok := it.(*ir.Struct)
	if !ok || !varies {
		return nil
	}
	out := make([]place, len(st.Fields))
	for i := range st.Fields {
		out[i] = p
		out[i].path = append(append([]step(nil), p.path...), step{field: i})
	}
	return out
}

func (g *gen) loadElem(p place) value {
	if fs := g.byField(p); fs != nil {
		x := value{fields: make([]value, len(fs))}
		for i, f := range fs {
			x.fields[i] = g.loadElem(f)
		}
		return x
	}
	ptr, t, it, lanes := g.elemAddr(p)
	var x value
	if lanes {
		x = value{x: g.gather(ptr, t)}
	} else {
		x = g.loadSlot(ptr, t)
	}
	if ir.IsKind(it, ir.Bool) {
		x.x = g.b.ICmp(llvm.NE, x.x, zeroLike(x.x))
	}
	return x
}

func (g *gen) storeElem(p place, x value) {
	if fs := g.byField(p); fs != nil {
		for i, f := range fs {
			g.storeElem(f, x.fields[i])
		}
		return
	}
	ptr, t, it, lanes := g.elemAddr(p)
	if ir.IsKind(it, ir.Bool) {
		x.x = g.b.Cast(llvm.ZExt, x.x, llvm.Like(x.x.Type(), llvm.I8))
	}
	switch {
	case lanes:
		if !p.v.vec {
			g.fail("a varying store to a uniform private array (the uniformity analysis and the lowering disagree)")
		}
		g.scatter(g.splat(x.x), ptr)
	case !p.v.vec:
		// Every lane stores the same value: once, when a lane runs.
		g.ifThen(g.any(g.mask()), "store", func() { g.storeSlot(ptr, t, x, true) })
	default:
		g.storeSlot(ptr, t, x, false)
	}
}

// ---- buffers and shared arrays ----

// scalarAddr returns the address of the place at the scalar index i
// (r.dyn, if any, is scalar then).
func (g *gen) scalarAddr(r *memRef, i llvm.Value) llvm.Value {
	off := g.b.Add(g.b.Mul(g.index64(i, r.signed), i64(r.stride)), i64(r.off))
	if r.dyn != nil {
		off = g.b.Add(off, r.dyn)
	}
	return g.byteAtV(r.base, off)
}

// laneAddr returns the address of one lane's place.
func (g *gen) laneAddr(r *memRef, lane llvm.Value) llvm.Value {
	if r.dyn == nil || !isVec(r.dyn) {
		return g.scalarAddr(r, g.pick(r.idx.x, lane))
	}
	c := *r
	c.dyn = g.pick(r.dyn, lane)
	return g.scalarAddr(&c, g.pick(r.idx.x, lane))
}

// addrs returns the address of each lane's place.
func (g *gen) addrs(r *memRef, idx llvm.Value) llvm.Value {
	off := g.b.Mul(g.index64(idx, r.signed), &llvm.Splat{Len: g.W, X: i64(r.stride)})
	off = g.b.Add(off, &llvm.Splat{Len: g.W, X: i64(r.off)})
	if r.dyn != nil {
		off = g.b.Add(off, g.splat(r.dyn))
	}
	return g.b.GEP(llvm.I8, r.base, off)
}

func (g *gen) byteAtV(base, off llvm.Value) llvm.Value { return g.b.GEP(llvm.I8, base, off) }

// struct elements load and store field by field.
func (g *gen) fieldRefs(r *memRef) []*memRef {
	st := r.elem.(*ir.Struct)
	out := make([]*memRef, len(st.Fields))
	off := r.off
	for i, f := range st.Fields {
		c := *r
		c.off, c.elem = off, f.Type
		out[i] = &c
		off += int64(f.Type.Size())
	}
	return out
}

// elemRefs returns the places of the elements of an array at r.
func (g *gen) elemRefs(r *memRef) []*memRef {
	a := r.elem.(*ir.Array)
	out := make([]*memRef, a.Len)
	for i := range out {
		c := *r
		c.off, c.elem = r.off+int64(i*a.Elem.Size()), a.Elem
		out[i] = &c
	}
	return out
}

// parts returns the places a struct or array at r is made of, or nil
// for a scalar.
func (g *gen) parts(r *memRef) []*memRef {
	switch r.elem.(type) {
	case *ir.Struct:
		return g.fieldRefs(r)
	case *ir.Array:
		return g.elemRefs(r)
	}
	return nil
}

func (g *gen) loadMem(r *memRef) value {
	g.checkIndex(r.idx, r.n, r.signed, r.object)
	return g.loadParts(r)
}

// loadParts loads a place whose index is checked, scalar by scalar.
func (g *gen) loadParts(r *memRef) value {
	ps := g.parts(r)
	if ps == nil {
		return g.loadChecked(r)
	}
	vs := make([]value, len(ps))
	for i, p := range ps {
		vs[i] = g.loadParts(p)
	}
	return value{fields: vs}
}

func (g *gen) storeMem(r *memRef, x value) {
	g.checkIndex(r.idx, r.n, r.signed, r.object)
	g.storeParts(r, x)
}

// storeParts stores to a place whose index is checked, scalar by scalar.
func (g *gen) storeParts(r *memRef, x value) {
	ps := g.parts(r)
	if ps == nil {
		g.storeChecked(r, x)
		return
	}
	if len(x.fields) != len(ps) {
		g.fail("a value of the wrong shape stored to a %v", r.elem)
	}
	for i, p := range ps {
		g.storeParts(p, x.fields[i])
	}
}

// contiguous reports whether r's lanes read consecutive elements of
// their scalar type.
func (g *gen) contiguous(r *memRef) bool {
	return r.idx.ramp != nil && r.idx.step == 1 && r.stride == int64(llvm.SizeOf(g.memType(r.elem)))
}

// maxInterleave bounds the steps of a strided access done as one wide
// one: a vector of step*W elements.
const maxInterleave = 8

// strided returns the step of r's lanes when they read elements of
// their scalar type a few apart (2 to maxInterleave), and 0 else.
func (g *gen) strided(r *memRef) int64 {
	s := r.idx.step
	if r.idx.ramp == nil || s < 2 || s > maxInterleave || r.stride != int64(llvm.SizeOf(g.memType(r.elem))) {
		return 0
	}
	return s
}

// wide returns the vector type of s*W elements of t, and the mask or
// shuffle indices that pick each lane's element of it: lane i's is
// element s*i.
func (g *gen) wide(t llvm.Type, s int64) (*llvm.VectorType, []int) {
	pick := make([]int, g.W)
	for i := range pick {
		pick[i] = int(s) * i
	}
	return llvm.Vec(int(s)*g.W, t), pick
}

// noWrap returns whether a ramp of an unsigned index stays below 2^32
// over the W lanes (an int32 one needs no check: a lane that wraps is
// negative, so out of range, and faults if it runs).
func (g *gen) noWrap(r *memRef) llvm.Value {
	if r.signed {
		return llvm.True
	}
	return g.b.ICmp(llvm.ULE, r.idx.ramp, i32(int64(math.MaxUint32)-r.idx.step*int64(g.W-1)))
}

// allActive reports whether every lane is known to run: a copy of a
// then-part for a chunk whose lanes all take it, or uniform flow in a
// block whose size is a multiple of W.
func (g *gen) allActive() bool {
	n := int(g.k.Block[0] * g.k.Block[1] * g.k.Block[2])
	return g.full || g.flow && n%g.W == 0
}

// loadChecked loads a scalar place whose index is in range for every
// active lane.
func (g *gen) loadChecked(r *memRef) value {
	t := g.memType(r.elem)
	b := g.b
	if r.atomic {
		return value{x: g.perLane(g.mask(), t, func(lane llvm.Value) llvm.Value {
			return b.AtomicLoad(t, g.laneAddr(r, lane), llvm.Monotonic, 4)
		})}
	}
	if !isVec(r.idx.x) {
		// In range, or no lane runs: then the access must not happen.
		pre := b.Block
		ok := g.inRange(r.idx.x, r.n, r.signed)
		lb, after := b.NewBlock("load"), b.NewBlock("load.end")
		b.CondBr(ok, lb, after)
		b.SetBlock(lb)
		x := b.Load(t, g.scalarAddr(r, r.idx.x), 4)
		b.Br(after)
		b.SetBlock(after)
		v, _ := b.Phi(t, llvm.Incoming{X: &llvm.Zero{T: t}, From: pre}, llvm.Incoming{X: x, From: lb})
		return value{x: v}
	}
	vt := g.vec(t)
	if s := g.strided(r); s != 0 {
		// Lanes s apart: one load of the s*W elements from the multiple
		// of s at or below the first lane's, deinterleaved by a shuffle
		// chosen by the first lane's offset from it, when all of them
		// are in range. Once loops are unrolled LLVM knows the offset
		// (the low bits of r when s is a power of two), so the accesses
		// of a row's s columns load the same elements: one load, which
		// its interleaved-access lowering makes a few loads and shuffles.
		wt, pick := g.wide(t, s)
		off := b.Bin(llvm.URem, r.idx.ramp, i32(s), llvm.Flags{})
		first := b.Sub(r.idx.ramp, off)
		return value{x: g.choose(g.spanIn(first, s*int64(g.W)-1, r.n, r.signed), vt, func() llvm.Value {
			column := g.deinterleave(r, first, t, s, wt, pick)
			var at func(k int64) llvm.Value
			at = func(k int64) llvm.Value {
				shuffle := func() llvm.Value { return column(k) }
				if k == s-1 {
					return shuffle()
				}
				return g.choose(b.ICmp(llvm.EQ, off, i32(k)), vt, shuffle, func() llvm.Value { return at(k + 1) })
			}
			return at(0)
		}, func() llvm.Value {
			return g.gather(g.addrs(r, r.idx.x), t)
		})}
	}
	if !g.contiguous(r) {
		return value{x: g.gather(g.addrs(r, r.idx.x), t)}
	}
	return value{x: g.choose(g.noWrap(r), vt, func() llvm.Value {
		p := g.scalarAddr(r, r.idx.ramp)
		if g.allActive() {
			return b.Load(vt, p, 4)
		}
		// A masked access is slow on some processors (AMD's masked
		// stores): all lanes on is the common case.
		m := g.mask()
		return g.choose(g.all(m), vt, func() llvm.Value { return b.Load(vt, p, 4) }, func() llvm.Value {
			return g.intrinsic("llvm.masked.load."+suffix(vt)+".p0", vt, p, i32(4), m, &llvm.Poison{T: vt})
		})
	}, func() llvm.Value {
		return g.gather(g.addrs(r, r.idx.x), t)
	})}
}

// storeChecked stores to a scalar place whose index is in range for
// every active lane.
func (g *gen) storeChecked(r *memRef, xv value) {
	t := g.memType(r.elem)
	b := g.b
	x := xv.x
	if r.atomic {
		g.perLane(g.mask(), nil, func(lane llvm.Value) llvm.Value {
			b.AtomicStore(g.pick(x, lane), g.laneAddr(r, lane), llvm.Monotonic, 4)
			return nil
		})
		return
	}
	if !isVec(r.idx.x) {
		// Every active lane stores to one element: the last one's value
		// stays, as when the work-items run in order.
		m := g.mask()
		ok := b.And(g.inRange(r.idx.x, r.n, r.signed), g.any(m))
		g.ifThen(ok, "store", func() {
			v := x
			if isVec(x) {
				bits := g.maskBits(m)
				it := bits.Type().(*llvm.IntType)
				lz := g.intrinsic("llvm.ctlz."+it.String(), it, bits, llvm.True)
				lane := b.Sub(llvm.ConstInt(it, int64(g.W-1)), lz)
				v = b.ExtractElement(x, lane)
			}
			b.Store(v, g.scalarAddr(r, r.idx.x), 4)
		})
		return
	}
	vt := g.vec(t)
	x = g.splat(x)
	if s := g.strided(r); s != 0 {
		// Lanes s apart: one masked store of the s*W elements from the
		// first lane's, each lane's value at its place and only the
		// active lanes' stored (the others may be another work-item's
		// to write, or out of range: a masked-off element is not
		// touched).
		wt, pick := g.wide(t, s)
		spread := make([]int, wt.Len)
		bits := make([]int, wt.Len)
		for i := range spread {
			spread[i], bits[i] = -1, g.W // bits: a lane of the zero mask
		}
		for i, j := range pick {
			spread[j], bits[j] = i, i
		}
		m := g.mask()
		masked := func() llvm.Value {
			return g.choose(g.noWrap(r), nil, func() llvm.Value {
				g.intrinsic("llvm.masked.store."+suffix(wt)+".p0", llvm.Void, b.Shuffle(x, &llvm.Poison{T: vt}, spread),
					g.scalarAddr(r, r.idx.ramp), i32(4), b.Shuffle(m, g.noLanes(), bits))
				return nil
			}, func() llvm.Value {
				g.scatter(x, g.addrs(r, r.idx.x))
				return nil
			})
		}
		if !r.block {
			masked()
			return
		}
		// The block's own array: the s*W elements from the multiple of
		// s at or below the first lane's, read, blended with the active
		// lanes' values and written back, as the loads above choose
		// them (AMD's masked stores are slow; the stores of a row's s
		// columns become one once loops unroll).
		off := b.Bin(llvm.URem, r.idx.ramp, i32(s), llvm.Flags{})
		first := b.Sub(r.idx.ramp, off)
		g.choose(g.spanIn(first, s*int64(g.W)-1, r.n, r.signed), nil, func() llvm.Value {
			p := g.scalarAddr(r, first)
			old := b.Load(wt, p, 4)
			var at func(k int64) llvm.Value
			at = func(k int64) llvm.Value {
				blend := func() llvm.Value {
					sp, bt := make([]int, len(spread)), make([]int, len(bits))
					for i := range sp {
						sp[i], bt[i] = -1, g.W
					}
					for i, j := range pick {
						sp[j+int(k)], bt[j+int(k)] = i, i
					}
					b.Store(b.Select(b.Shuffle(m, g.noLanes(), bt), b.Shuffle(x, &llvm.Poison{T: vt}, sp), old), p, 4)
					return nil
				}
				if k == s-1 {
					return blend()
				}
				return g.choose(b.ICmp(llvm.EQ, off, i32(k)), nil, blend, func() llvm.Value { return at(k + 1) })
			}
			return at(0)
		}, masked)
		return
	}
	if !g.contiguous(r) {
		g.scatter(x, g.addrs(r, r.idx.x))
		return
	}
	g.choose(g.noWrap(r), nil, func() llvm.Value {
		p := g.scalarAddr(r, r.idx.ramp)
		if g.allActive() {
			b.Store(x, p, 4)
			return nil
		}
		m := g.mask()
		return g.choose(g.all(m), nil, func() llvm.Value {
			b.Store(x, p, 4)
			return nil
		}, func() llvm.Value {
			g.intrinsic("llvm.masked.store."+suffix(vt)+".p0", llvm.Void, x, p, i32(4), m)
			return nil
		})
	}, func() llvm.Value {
		g.scatter(x, g.addrs(r, r.idx.x))
		return nil
	})
}

// deinterleave loads the s*W elements of r from index first and
// returns the function that picks lane i's element s*i+k of them. Four
// 32-bit elements apart, it loads a 4x4 block per 128-bit part of a
// vector and transposes it there with unpack shuffles (x86's own
// shuffles within 128-bit lanes): LLVM lowers the one wide shuffle
// instead to permutes across lanes and blends that cost twice as many
// instructions and a register per index vector.
func (g *gen) deinterleave(r *memRef, first llvm.Value, t llvm.Type, s int64, wt *llvm.VectorType, pick []int) func(k int64) llvm.Value {
	b := g.b
	if s != 4 || llvm.SizeOf(t) != 4 {
		wide := b.Load(wt, g.scalarAddr(r, first), 4)
		return func(k int64) llvm.Value {
			p := make([]int, len(pick))
			for i, j := range pick {
				p[i] = j + int(k)
			}
			return b.Shuffle(wide, &llvm.Poison{T: wt}, p)
		}
	}
	if g.W == 16 {
		return g.deinterleave16(r, first, t)
	}
	// Row q holds, in 128-bit part c, the elements of lane 4c+q.
	var rows [4]llvm.Value
	for q := range rows {
		parts := make([]llvm.Value, g.W/4)
		for c := range parts {
			at := b.Add(first, i32(int64(16*c+4*q)))
			parts[c] = b.Load(llvm.Vec(4, t), g.scalarAddr(r, at), 4)
		}
		for len(parts) > 1 {
			n := llvm.Lanes(parts[0].Type())
			cat := make([]int, 2*n)
			for i := range cat {
				cat[i] = i
			}
			next := make([]llvm.Value, 0, len(parts)/2)
			for i := 0; i < len(parts); i += 2 {
				next = append(next, b.Shuffle(parts[i], parts[i+1], cat))
			}
			parts = next
		}
		rows[q] = parts[0]
	}
	// unpack interleaves, per 128-bit part, the low or high halves of x
	// and y in units of w elements (1: unpcklps/unpckhps, 2: unpcklpd/
	// unpckhpd).
	unpack := func(x, y llvm.Value, w int, high bool) llvm.Value {
		m := make([]int, 0, g.W)
		for c := 0; c < g.W; c += 4 {
			h := 0
			if high {
				h = 2
			}
			for u := 0; u < 2/w; u++ {
				for _, src := range []int{0, g.W} {
					for e := 0; e < w; e++ {
						m = append(m, src+c+h+u*w+e)
					}
				}
			}
		}
		return b.Shuffle(x, y, m)
	}
	return func(k int64) llvm.Value {
		lo := unpack(rows[0], rows[1], 1, k >= 2)
		hi := unpack(rows[2], rows[3], 1, k >= 2)
		return unpack(lo, hi, 2, k%2 == 1)
	}
}

// choose runs yes or no as cond holds and returns the value they give
// (of type t; nil for none).
func (g *gen) choose(cond llvm.Value, t llvm.Type, yes, no func() llvm.Value) llvm.Value {
	b := g.b
	if c, ok := cond.(*llvm.Int); ok {
		if c.Bits != 0 {
			return yes()
		}
		return no()
	}
	yb, nb, after := b.NewBlock("fast"), b.NewBlock("slow"), b.NewBlock("join")
	b.CondBr(cond, yb, nb)
	b.SetBlock(yb)
	y := yes()
	ye := b.Block
	b.Br(after)
	b.SetBlock(nb)
	n := no()
	ne := b.Block
	b.Br(after)
	b.SetBlock(after)
	if t == nil {
		return nil
	}
	r, _ := b.Phi(t, llvm.Incoming{X: y, From: ye}, llvm.Incoming{X: n, From: ne})
	return r
}

// deinterleave16 is deinterleave four 32-bit elements apart at 16
// lanes (AVX-512): the 64 elements in four vector loads, then two
// rounds of two-vector shuffles, which AVX-512 does in one instruction
// each (vpermt2ps, then a move of 256-bit halves): the first gathers,
// from each pair of loads, lanes 0-7's elements k and k+1 for k of 0
// and 2, the second joins the two pairs' halves. Twelve instructions for
// the four vectors, where the 128-bit transposes take sixteen loads and
// twenty-four shuffles at this width.
func (g *gen) deinterleave16(r *memRef, first llvm.Value, t llvm.Type) func(k int64) llvm.Value {
	b := g.b
	var z [4]llvm.Value
	for i := range z {
		z[i] = b.Load(llvm.Vec(16, t), g.scalarAddr(r, b.Add(first, i32(int64(16*i)))), 4)
	}
	// pair holds, of the 32 elements of x and y (lanes 8h to 8h+7 of the
	// caller), element k0 of each lane in its low half and k0+1 in its
	// high half.
	pair := func(x, y llvm.Value, k0 int) llvm.Value {
		m := make([]int, 16)
		for i := range 8 {
			m[i], m[8+i] = 4*i+k0, 4*i+k0+1
		}
		return b.Shuffle(x, y, m)
	}
	lo := [2]llvm.Value{pair(z[0], z[1], 0), pair(z[0], z[1], 2)}
	hi := [2]llvm.Value{pair(z[2], z[3], 0), pair(z[2], z[3], 2)}
	return func(k int64) llvm.Value {
		o := int(k%2) * 8
		m := make([]int, 16)
		for i := range 8 {
			m[i], m[8+i] = o+i, 16+o+i
		}
		return b.Shuffle(lo[k/2], hi[k/2], m)
	}
}

// gather loads the element of type t at each active lane's address.
func (g *gen) gather(ptrs llvm.Value, t llvm.Type) llvm.Value {
	vt := g.vec(t)
	name := "llvm.masked.gather." + suffix(vt) + "." + suffix(g.vec(llvm.Ptr))
	return g.intrinsic(name, vt, ptrs, i32(int64(llvm.SizeOf(t))), g.mask(), &llvm.Poison{T: vt})
}

// scatter stores each active lane's x at its address, in lane order. A
// chunk with one active lane (one work-item storing alone, as under `if
// lane == 0` or `if l == 0`) stores with one scalar store: a scatter
// instruction, or the per-lane tests a target without one scalarizes it
// to, costs the chunk's width.
func (g *gen) scatter(x, ptrs llvm.Value) {
	b := g.b
	m := g.mask()
	size := int64(llvm.SizeOf(llvm.Elem(x.Type())))
	bits := g.maskBits(m)
	it := bits.Type().(*llvm.IntType)
	one := b.ICmp(llvm.EQ, g.intrinsic("llvm.ctpop."+it.String(), it, bits), llvm.ConstInt(it, 1))
	g.choose(one, nil, func() llvm.Value {
		lane := g.intrinsic("llvm.cttz."+it.String(), it, bits, llvm.True)
		b.Store(b.ExtractElement(x, lane), b.ExtractElement(ptrs, lane), int(size))
		return nil
	}, func() llvm.Value {
		name := "llvm.masked.scatter." + suffix(x.Type()) + "." + suffix(g.vec(llvm.Ptr))
		g.intrinsic(name, llvm.Void, x, ptrs, i32(size), m)
		return nil
	})
}

// pick returns lane i of x, or x when it is a scalar.
func (g *gen) pick(x, lane llvm.Value) llvm.Value {
	if isVec(x) {
		return g.b.ExtractElement(x, lane)
	}
	return x
}

// perLane runs body once for each lane of the mask m, in lane order,
// and returns the vector of its results (of element type t; nil for
// none).
func (g *gen) perLane(m llvm.Value, t llvm.Type, body func(lane llvm.Value) llvm.Value) llvm.Value {
	if g.simt() {
		return body(i32(0))
	}
	b := g.b
	bits := g.maskBits(m)
	it := bits.Type().(*llvm.IntType)
	pre := b.Block
	head, bb, exit := b.NewBlock("lane"), b.NewBlock("lane.body"), b.NewBlock("lane.done")
	b.Br(head)
	b.SetBlock(head)
	rest, rphi := b.Phi(it, llvm.Incoming{X: bits, From: pre})
	var acc llvm.Value
	var aphi *llvm.Phi
	if t != nil {
		acc, aphi = b.Phi(g.vec(t), llvm.Incoming{X: &llvm.Poison{T: g.vec(t)}, From: pre})
	}
	b.CondBr(b.ICmp(llvm.NE, rest, &llvm.Int{T: it}), bb, exit)
	b.SetBlock(bb)
	lane := g.intrinsic("llvm.cttz."+it.String(), it, rest, llvm.True)
	switch {
	case it.Bits > 32:
		lane = b.Cast(llvm.Trunc, lane, llvm.I32)
	case it.Bits < 32:
		lane = b.Cast(llvm.ZExt, lane, llvm.I32)
	}
	r := body(lane)
	next := b.And(rest, b.Sub(rest, llvm.ConstInt(it, 1)))
	rphi.In = append(rphi.In, llvm.Incoming{X: next, From: b.Block})
	if t != nil {
		aphi.In = append(aphi.In, llvm.Incoming{X: b.InsertElement(acc, r, lane), From: b.Block})
	}
	b.Br(head)
	b.SetBlock(exit)
	return acc
}

// inMemory reports whether a place is a part of a buffer or shared
// array.
func inMemory(x ir.Expr) bool {
	for {
		switch e := x.(type) {
		case *ir.Index:
			x = e.X
		case *ir.FieldOf:
			x = e.X
		case *ir.BufferRef, *ir.SharedRef:
			return true
		default:
			return false
		}
	}
}
