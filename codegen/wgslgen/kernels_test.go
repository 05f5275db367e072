package wgslgen_test

import (
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
)

// testKernel is a kernel built by hand in the IR, with the Go function
// that is its reference semantics and random inputs for both.
type testKernel struct {
	name string
	ir   func() *ir.Kernel
	// ref is the Go kernel run by xpu.Run; nil when the kernel is only
	// checked for its text and for wgpu accepting it.
	ref any
	// args returns the launch grid and fresh random arguments after the
	// Thread, in parameter order.
	args func(r *rand.Rand) (groups uint32, args []any)
	// ulps bounds the distance of float32 results from the reference;
	// integers are compared bit for bit.
	ulps uint32
	// skip lists the buffer parameters whose contents are not compared
	// (results that depend on the order atomics run in).
	skip map[int]bool
}

var testKernels = []testKernel{
	{name: "saxpy", ir: saxpyIR, ref: saxpy, args: saxpyArgs, ulps: 1},
	{name: "reduce", ir: reduceIR, ref: reduce, args: reduceArgs, ulps: 0},
	{name: "histogram", ir: histogramIR, ref: histogram, args: histogramArgs},
	{name: "floatadd", ir: floatAddIR, ref: floatAdd, args: floatAddArgs, skip: map[int]bool{1: true}},
	{name: "particles", ir: particlesIR, ref: particles, args: particlesArgs, ulps: 1},
	{name: "devfunc", ir: devFuncIR, ref: devFunc, args: devFuncArgs, ulps: 1},
	{name: "intsem", ir: intSemIR, ref: intSem, args: intSemArgs},
	{name: "convsem", ir: convSemIR, ref: convSem, args: convSemArgs},
	{name: "shortcircuit", ir: shortCircuitIR, ref: shortCircuit, args: shortCircuitArgs},
}

const grid = 4 // groups of every end-to-end launch

func randF32(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

// ---- saxpy ----

func saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}

func saxpyIR() *ir.Kernel {
	y := buffer("y", f32, schema.AccessReadWrite, 0)
	x := buffer("x", f32, schema.AccessRead, 1)
	a := scalarParam("a", f32, 0)
	n := scalarParam("n", u32, 4)
	i := newVar("i", u32)
	return &ir.Kernel{
		Name: "Saxpy", Func: "Saxpy", Block: [3]uint32{64, 1, 1}, Pos: pos("saxpy.go", 1),
		Params: []*ir.Param{y, x, a, n},
		Body: block(block(
			decl(i, query(ir.GlobalX)),
			ifThen(bin(ir.OpLt, ref(i), sref(n)),
				assign(at(y, ref(i)), bin(ir.OpAdd, bin(ir.OpMul, sref(a), at(x, ref(i))), at(y, ref(i))))),
		)),
	}
}

func saxpyArgs(r *rand.Rand) (uint32, []any) {
	n := grid*64 - 5
	return grid, []any{randF32(r, n), randF32(r, n), r.Float32(), uint32(n)}
}

// ---- reduce: shared memory and barriers in a uniform loop ----

func reduce(t xpu.Thread, out, in []float32, n uint32) {
	s := xpu.Shared[float32](t, 64)
	l := t.LocalIndex()
	i := t.GlobalX()
	var v float32
	if i < n {
		v = in[i]
	}
	s[l] = v
	t.Barrier()
	for stride := uint32(32); stride > 0; stride >>= 1 {
		if l < stride {
			s[l] = s[l] + s[l+stride]
		}
		t.Barrier()
	}
	if l == 0 {
		out[t.GroupX()] = s[0]
	}
}

func reduceIR() *ir.Kernel {
	out := buffer("out", f32, schema.AccessWrite, 0)
	in := buffer("in", f32, schema.AccessRead, 1)
	n := scalarParam("n", u32, 0)
	s := &ir.Shared{Name: "s", Elem: f32, Len: 64, Access: schema.AccessReadWrite}
	l, i, v, stride := newVar("l", u32), newVar("i", u32), newVar("v", f32), newVar("stride", u32)
	b1, b2 := &ir.Barrier{Pos: pos("reduce.go", 9)}, &ir.Barrier{Pos: pos("reduce.go", 14)}
	k := &ir.Kernel{
		Name: "Reduce", Func: "Reduce", Block: [3]uint32{64, 1, 1}, Pos: pos("reduce.go", 1),
		Params: []*ir.Param{out, in, n}, Shared: []*ir.Shared{s},
		Body: block(
			decl(l, query(ir.LocalIndex)),
			decl(i, query(ir.GlobalX)),
			decl(v, nil),
			ifThen(bin(ir.OpLt, ref(i), sref(n)), assign(ref(v), at(in, ref(i)))),
			assign(at(s, ref(l)), ref(v)),
			b1,
			forLoop(decl(stride, cu(32)), bin(ir.OpGt, ref(stride), cu(0)), assign(ref(stride), bin(ir.OpShr, ref(stride), cu(1))),
				ifThen(bin(ir.OpLt, ref(l), ref(stride)),
					assign(at(s, ref(l)), bin(ir.OpAdd, at(s, ref(l)), at(s, bin(ir.OpAdd, ref(l), ref(stride)))))),
				b2),
			ifThen(bin(ir.OpEq, ref(l), cu(0)), assign(at(out, query(ir.GroupX)), at(s, cu(0)))),
		),
	}
	k.Uniform = &ir.Uniformity{Flow: map[ir.Stmt]bool{b1: true, b2: true}}
	return k
}

func reduceArgs(r *rand.Rand) (uint32, []any) {
	n := grid*64 - 17
	return grid, []any{make([]float32, grid), randF32(r, n), uint32(n)}
}

// ---- histogram: integer atomics, a strong compare-exchange loop ----

func histogram(t xpu.Thread, hist, in []uint32, hi []int32, sum []uint32, n, bins uint32) {
	i := t.GlobalX()
	if i < n {
		v := in[i]
		xpu.AtomicAdd(&hist[v%bins], 1)
		xpu.AtomicMax(&hi[0], int32(v)-1000)
		for {
			old := xpu.AtomicLoad(&sum[0])
			if xpu.AtomicCompareExchange(&sum[0], old, old+v) == old {
				break
			}
		}
	}
}

func histogramIR() *ir.Kernel {
	hist := buffer("hist", u32, schema.AccessAtomic, 0)
	in := buffer("in", u32, schema.AccessRead, 1)
	hi := buffer("hi", i32, schema.AccessAtomic, 2)
	sum := buffer("sum", u32, schema.AccessAtomic, 3)
	n, bins := scalarParam("n", u32, 0), scalarParam("bins", u32, 4)
	i, v, old := newVar("i", u32), newVar("v", u32), newVar("old", u32)
	return &ir.Kernel{
		Name: "Histogram", Func: "Histogram", Block: [3]uint32{64, 1, 1}, Pos: pos("hist.go", 1),
		Params: []*ir.Param{hist, in, hi, sum, n, bins},
		Body: block(
			decl(i, query(ir.GlobalX)),
			ifThen(bin(ir.OpLt, ref(i), sref(n)),
				decl(v, at(in, ref(i))),
				&ir.ExprStmt{X: atomic(ir.AtomicAdd, at(hist, bin(ir.OpRem, ref(v), sref(bins))), cu(1))},
				&ir.ExprStmt{X: atomic(ir.AtomicMax, at(hi, ci(0)), bin(ir.OpSub, conv(ref(v), i32), ci(1000)))},
				&ir.Loop{Body: block(
					decl(old, atomic(ir.AtomicLoad, at(sum, cu(0)))),
					ifThen(bin(ir.OpEq, atomic(ir.AtomicCompareExchange, at(sum, cu(0)), ref(old), bin(ir.OpAdd, ref(old), ref(v))), ref(old)),
						&ir.Break{}),
				)},
			),
		),
	}
}

func histogramArgs(r *rand.Rand) (uint32, []any) {
	n := grid*64 - 3
	in := make([]uint32, n)
	for i := range in {
		in[i] = r.Uint32N(5000)
	}
	return grid, []any{make([]uint32, 16), in, []int32{math.MinInt32}, []uint32{0}, uint32(n), uint32(16)}
}

// ---- floatadd: AtomicAddFloat32 as a compare-exchange loop ----

func floatAdd(t xpu.Thread, sum, old, x []float32, n uint32) {
	if i := t.GlobalX(); i < n {
		old[i] = xpu.AtomicAddFloat32(&sum[0], x[i])
	}
}

func floatAddIR() *ir.Kernel {
	sum := buffer("sum", f32, schema.AccessAtomic, 0)
	old := buffer("old", f32, schema.AccessWrite, 1)
	x := buffer("x", f32, schema.AccessRead, 2)
	n := scalarParam("n", u32, 0)
	i := newVar("i", u32)
	return &ir.Kernel{
		Name: "FloatAdd", Func: "FloatAdd", Block: [3]uint32{64, 1, 1}, Pos: pos("floatadd.go", 1),
		Params: []*ir.Param{sum, old, x, n},
		Body: block(block(
			decl(i, query(ir.GlobalX)),
			ifThen(bin(ir.OpLt, ref(i), sref(n)),
				assign(at(old, ref(i)), atomic(ir.AtomicAddFloat32, at(sum, cu(0)), at(x, ref(i))))),
		)),
	}
}

func floatAddArgs(r *rand.Rand) (uint32, []any) {
	n := grid * 64
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.IntN(64)) // small integers: every order of the adds sums exactly
	}
	return grid, []any{[]float32{0.5}, make([]float32, n), x, uint32(n)}
}

// ---- particles: a struct buffer and a private struct ----

type particle struct {
	Pos, Vel float32
	ID       uint32
	Flags    int32
}

func particles(t xpu.Thread, p, out []particle, dt float32, n uint32) {
	if i := t.GlobalX(); i < n {
		p[i].Pos = p[i].Pos + p[i].Vel*dt
		p[i].ID = p[i].ID + 1
		q := p[i]
		q.Vel = -q.Vel
		q.Flags = q.Flags ^ 5
		out[i] = q
	}
}

var particleType = &ir.Struct{Name: "Particle", Fields: []ir.Field{
	{Name: "Pos", Type: f32}, {Name: "Vel", Type: f32}, {Name: "ID", Type: u32}, {Name: "Flags", Type: i32},
}}

func particlesIR() *ir.Kernel {
	p := buffer("p", particleType, schema.AccessReadWrite, 0)
	out := buffer("out", particleType, schema.AccessWrite, 1)
	dt, n := scalarParam("dt", f32, 0), scalarParam("n", u32, 4)
	i, q := newVar("i", u32), newVar("q", particleType)
	pi := func(f int) *ir.FieldOf { return field(at(p, ref(i)), f) }
	return &ir.Kernel{
		Name: "Particles", Func: "Particles", Block: [3]uint32{32, 1, 1}, Pos: pos("particles.go", 1),
		Params: []*ir.Param{p, out, dt, n}, Structs: []*ir.Struct{particleType},
		Body: block(block(
			decl(i, query(ir.GlobalX)),
			ifThen(bin(ir.OpLt, ref(i), sref(n)),
				assign(pi(0), bin(ir.OpAdd, pi(0), bin(ir.OpMul, pi(1), sref(dt)))),
				assign(pi(2), bin(ir.OpAdd, pi(2), cu(1))),
				decl(q, at(p, ref(i))),
				assign(field(ref(q), 1), un(ir.OpNeg, field(ref(q), 1))),
				assign(field(ref(q), 3), bin(ir.OpXor, field(ref(q), 3), ci(5))),
				assign(at(out, ref(i)), ref(q)),
			),
		)),
	}
}

func particlesArgs(r *rand.Rand) (uint32, []any) {
	n := grid*32 - 1
	p := make([]particle, n)
	for i := range p {
		p[i] = particle{r.Float32(), r.Float32() - 0.5, r.Uint32(), r.Int32()}
	}
	return grid, []any{p, make([]particle, n), float32(0.25), uint32(n)}
}

// ---- devfunc: device functions with a private array and thread queries ----

func twice(x float32) float32 { return x + x }

func weight(t xpu.Thread, a [4]float32, k float32) float32 {
	var s float32
	for j := 0; j < 4; j++ {
		s = s + a[j]
	}
	a[0] = s // a parameter is a variable
	return twice(xpu.Clamp(a[0]*k+float32(t.LocalX()), -1, 40))
}

func devFunc(t xpu.Thread, out, in []float32, k float32, n uint32) {
	if i := t.GlobalX(); i < n {
		var a [4]float32
		for j := uint32(0); j < 4; j++ {
			a[j] = in[(i*4+j)%n]
		}
		out[i] = weight(t, a, k)
	}
}

func devFuncIR() *ir.Kernel {
	arr := &ir.Array{Elem: f32, Len: 4}
	twiceX := newVar("x", f32)
	twiceF := &ir.Func{Name: "twice", GoName: "twice", Params: []*ir.Var{twiceX}, Result: f32,
		Body: block(&ir.Return{Value: bin(ir.OpAdd, ref(twiceX), ref(twiceX))})}
	wa, wk, ws, wj := newVar("a", arr), newVar("k", f32), newVar("s", f32), newVar("j", i32)
	weightF := &ir.Func{Name: "weight", GoName: "weight", Params: []*ir.Var{wa, wk}, Result: f32,
		Body: block(
			decl(ws, nil),
			forLoop(decl(wj, ci(0)), bin(ir.OpLt, ref(wj), ci(4)), assign(ref(wj), bin(ir.OpAdd, ref(wj), ci(1))),
				assign(ref(ws), bin(ir.OpAdd, ref(ws), at(ref(wa), ref(wj))))),
			assign(at(ref(wa), ci(0)), ref(ws)),
			&ir.Return{Value: &ir.Call{Func: twiceF, Args: []ir.Expr{
				math1(ir.Clamp, bin(ir.OpAdd, bin(ir.OpMul, at(ref(wa), ci(0)), ref(wk)), conv(query(ir.LocalX), f32)), cf(-1), cf(40)),
			}}},
		)}
	out := buffer("out", f32, schema.AccessWrite, 0)
	in := buffer("in", f32, schema.AccessRead, 1)
	k, n := scalarParam("k", f32, 0), scalarParam("n", u32, 4)
	i, a, j := newVar("i", u32), newVar("a", arr), newVar("j", u32)
	return &ir.Kernel{
		Name: "DevFunc", Func: "DevFunc", Block: [3]uint32{64, 1, 1}, Pos: pos("devfunc.go", 1),
		Params: []*ir.Param{out, in, k, n}, Funcs: []*ir.Func{twiceF, weightF},
		Body: block(block(
			decl(i, query(ir.GlobalX)),
			ifThen(bin(ir.OpLt, ref(i), sref(n)),
				decl(a, nil),
				forLoop(decl(j, cu(0)), bin(ir.OpLt, ref(j), cu(4)), assign(ref(j), bin(ir.OpAdd, ref(j), cu(1))),
					assign(at(ref(a), ref(j)), at(in, bin(ir.OpRem, bin(ir.OpAdd, bin(ir.OpMul, ref(i), cu(4)), ref(j)), sref(n))))),
				assign(at(out, ref(i)), &ir.Call{Func: weightF, Args: []ir.Expr{ref(a), sref(k)}}),
			),
		)),
	}
}

func devFuncArgs(r *rand.Rand) (uint32, []any) {
	n := grid*64 - 9
	return grid, []any{make([]float32, n), randF32(r, n), float32(3), uint32(n)}
}

// ---- intsem: Go's integer division, remainder, shifts, wrapping ----

// intSemWidth is the number of results intSem writes per work-item.
const intSemWidth = 14

func intSem(t xpu.Thread, out, xs, ys []int32, sh []uint32, n uint32) {
	if i := t.GlobalX(); i < n {
		x, y, s := xs[i], ys[i], sh[i]
		ux, uy := uint32(x), uint32(y)
		o := i * intSemWidth
		if y != 0 {
			out[o+0] = x / y
			out[o+1] = x % y
			out[o+4] = int32(ux / uy)
			out[o+5] = int32(ux % uy)
		} else { // what devices define, and docs/language.md documents
			out[o+0] = x
			out[o+1] = 0
			out[o+4] = int32(ux)
			out[o+5] = 0
		}
		out[o+2] = x << s
		out[o+3] = x >> s
		out[o+6] = int32(ux << s)
		out[o+7] = int32(ux >> s)
		out[o+8] = x &^ y
		out[o+9] = ^x + -x + x*y
		out[o+10] = xpu.Abs(x)
		out[o+11] = xpu.Clamp(x, y, 77)
		out[o+12] = int32(-ux) / 7
		out[o+13] = x << 31 >> 30
	}
}

func intSemIR() *ir.Kernel {
	out := buffer("out", i32, schema.AccessWrite, 0)
	xs := buffer("xs", i32, schema.AccessRead, 1)
	ys := buffer("ys", i32, schema.AccessRead, 2)
	sh := buffer("sh", u32, schema.AccessRead, 3)
	n := scalarParam("n", u32, 0)
	i, x, y, s, ux, uy, o := newVar("i", u32), newVar("x", i32), newVar("y", i32), newVar("s", u32), newVar("ux", u32), newVar("uy", u32), newVar("o", u32)
	put := func(k uint32, v ir.Expr) ir.Stmt { return assign(at(out, bin(ir.OpAdd, ref(o), cu(k))), v) }
	return &ir.Kernel{
		Name: "IntSem", Func: "IntSem", Block: [3]uint32{64, 1, 1}, Pos: pos("intsem.go", 1),
		Params: []*ir.Param{out, xs, ys, sh, n},
		Body: block(block(
			decl(i, query(ir.GlobalX)),
			ifThen(bin(ir.OpLt, ref(i), sref(n)),
				decl(x, at(xs, ref(i))), decl(y, at(ys, ref(i))), decl(s, at(sh, ref(i))),
				decl(ux, conv(ref(x), u32)), decl(uy, conv(ref(y), u32)),
				decl(o, bin(ir.OpMul, ref(i), cu(intSemWidth))),
				put(0, bin(ir.OpDiv, ref(x), ref(y))),
				put(1, bin(ir.OpRem, ref(x), ref(y))),
				put(2, bin(ir.OpShl, ref(x), ref(s))),
				put(3, bin(ir.OpShr, ref(x), ref(s))),
				put(4, conv(bin(ir.OpDiv, ref(ux), ref(uy)), i32)),
				put(5, conv(bin(ir.OpRem, ref(ux), ref(uy)), i32)),
				put(6, conv(bin(ir.OpShl, ref(ux), ref(s)), i32)),
				put(7, conv(bin(ir.OpShr, ref(ux), ref(s)), i32)),
				put(8, bin(ir.OpAndNot, ref(x), ref(y))),
				put(9, bin(ir.OpAdd, bin(ir.OpAdd, un(ir.OpCompl, ref(x)), un(ir.OpNeg, ref(x))), bin(ir.OpMul, ref(x), ref(y)))),
				put(10, math1(ir.Abs, ref(x))),
				put(11, math1(ir.Clamp, ref(x), ref(y), ci(77))),
				put(12, bin(ir.OpDiv, conv(un(ir.OpNeg, ref(ux)), i32), ci(7))),
				put(13, bin(ir.OpShr, bin(ir.OpShl, ref(x), cu(31)), cu(30))),
			),
		)),
	}
}

func intSemArgs(r *rand.Rand) (uint32, []any) {
	n := grid * 64
	special := []int32{0, 1, -1, 2, -2, 7, -7, math.MinInt32, math.MinInt32 + 1, math.MaxInt32}
	pick := func() int32 {
		if r.IntN(2) == 0 {
			return special[r.IntN(len(special))]
		}
		return r.Int32() - r.Int32()
	}
	xs, ys, sh := make([]int32, n), make([]int32, n), make([]uint32, n)
	for i := range xs {
		xs[i], ys[i], sh[i] = pick(), pick(), r.Uint32N(70)
	}
	return grid, []any{make([]int32, n*intSemWidth), xs, ys, sh, uint32(n)}
}

// ---- convsem: float to integer conversion, float Min/Max ----

const convSemWidth = 6

// satI32 and satU32 are the conversions devices define: truncation toward
// zero, saturation out of range, 0 for NaN (Go leaves out-of-range
// conversions to the implementation).
func satI32(f float32) int32 {
	switch {
	case f != f:
		return 0
	case f < -2147483648:
		return math.MinInt32
	case f >= 2147483648:
		return math.MaxInt32
	}
	return int32(f)
}

func satU32(f float32) uint32 {
	switch {
	case !(f > -1):
		return 0
	case f >= 4294967296:
		return math.MaxUint32
	}
	return uint32(f)
}

func convSem(t xpu.Thread, out []uint32, fs, gs []float32, n uint32) {
	if i := t.GlobalX(); i < n {
		f, g := fs[i], gs[i]
		o := i * convSemWidth
		out[o+0] = uint32(satI32(f))
		out[o+1] = satU32(f)
		out[o+2] = xpu.Float32Bits(xpu.Min(f, g))
		out[o+3] = xpu.Float32Bits(xpu.Max(f, g))
		out[o+4] = xpu.Float32Bits(float32(int32(o) - 100))
		out[o+5] = xpu.Float32Bits(xpu.Round(f * 4))
	}
}

func convSemIR() *ir.Kernel {
	out := buffer("out", u32, schema.AccessWrite, 0)
	fs := buffer("fs", f32, schema.AccessRead, 1)
	gs := buffer("gs", f32, schema.AccessRead, 2)
	n := scalarParam("n", u32, 0)
	i, f, g, o := newVar("i", u32), newVar("f", f32), newVar("g", f32), newVar("o", u32)
	put := func(k uint32, v ir.Expr) ir.Stmt { return assign(at(out, bin(ir.OpAdd, ref(o), cu(k))), v) }
	bits := func(x ir.Expr) ir.Expr { return &ir.Bitcast{X: x, T: u32} }
	return &ir.Kernel{
		Name: "ConvSem", Func: "ConvSem", Block: [3]uint32{64, 1, 1}, Pos: pos("convsem.go", 1),
		Params: []*ir.Param{out, fs, gs, n},
		Body: block(block(
			decl(i, query(ir.GlobalX)),
			ifThen(bin(ir.OpLt, ref(i), sref(n)),
				decl(f, at(fs, ref(i))), decl(g, at(gs, ref(i))),
				decl(o, bin(ir.OpMul, ref(i), cu(convSemWidth))),
				put(0, conv(conv(ref(f), i32), u32)),
				put(1, conv(ref(f), u32)),
				put(2, bits(math1(ir.Min, ref(f), ref(g)))),
				put(3, bits(math1(ir.Max, ref(f), ref(g)))),
				put(4, bits(conv(bin(ir.OpSub, conv(ref(o), i32), ci(100)), f32))),
				put(5, bits(math1(ir.Round, bin(ir.OpMul, ref(f), cf(4))))),
			),
		)),
	}
}

func convSemArgs(r *rand.Rand) (uint32, []any) {
	n := grid * 64
	special := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, -0.5, 0.625, -0.875, 2147483520, 2147483648, -2147483648, -2147483904,
		4294967040, 4294967296, 1e20, -1e20, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	pick := func() float32 {
		if r.IntN(2) == 0 {
			return special[r.IntN(len(special))]
		}
		return (r.Float32() - 0.5) * float32(math.Pow(2, float64(r.IntN(80))))
	}
	fs, gs := make([]float32, n), make([]float32, n)
	for i := range fs {
		fs[i], gs[i] = pick(), pick()
	}
	return grid, []any{make([]uint32, n*convSemWidth), fs, gs, uint32(n)}
}

// ---- shortcircuit: && and || whose right operand has an effect ----

func shortCircuit(t xpu.Thread, cnt, out []uint32, n uint32) {
	i := t.GlobalX()
	if i < n && xpu.AtomicAdd(&cnt[0], 1) != 0xffffffff {
		out[i] = out[i] + 1
	}
	if i >= n || xpu.AtomicAdd(&cnt[1], 2) == 0xffffffff {
		return
	}
	out[i] = out[i] + 2
}

func shortCircuitIR() *ir.Kernel {
	cnt := buffer("cnt", u32, schema.AccessAtomic, 0)
	out := buffer("out", u32, schema.AccessReadWrite, 1)
	n := scalarParam("n", u32, 0)
	i := newVar("i", u32)
	return &ir.Kernel{
		Name: "ShortCircuit", Func: "ShortCircuit", Block: [3]uint32{64, 1, 1}, Pos: pos("short.go", 1),
		Params: []*ir.Param{cnt, out, n},
		Body: block(
			decl(i, query(ir.GlobalX)),
			ifThen(bin(ir.OpLAnd, bin(ir.OpLt, ref(i), sref(n)), bin(ir.OpNe, atomic(ir.AtomicAdd, at(cnt, cu(0)), cu(1)), cu(0xffffffff))),
				assign(at(out, ref(i)), bin(ir.OpAdd, at(out, ref(i)), cu(1)))),
			ifThen(bin(ir.OpLOr, bin(ir.OpGe, ref(i), sref(n)), bin(ir.OpEq, atomic(ir.AtomicAdd, at(cnt, cu(1)), cu(2)), cu(0xffffffff))),
				&ir.Return{}),
			assign(at(out, ref(i)), bin(ir.OpAdd, at(out, ref(i)), cu(2))),
		),
	}
}

func shortCircuitArgs(r *rand.Rand) (uint32, []any) {
	n := grid*64 - 30
	out := make([]uint32, n)
	for i := range out {
		out[i] = r.Uint32N(100)
	}
	return grid, []any{[]uint32{0, 0}, out, uint32(n)}
}
