package wgslgen_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/wgslgen"
	"github.com/goxpu/xpu/schema"
)

func init() {
	testKernels = append(testKernels,
		testKernel{name: "misc", ir: miscIR, ref: misc, args: miscArgs},
		testKernel{name: "mathfuncs", ir: mathFuncsIR},
	)
}

// ---- misc: shared atomics with plain accesses, Len, else-if and
// continue, an indexed call result, special constants, a float atomic
// array with plain accesses, and effects whose order Go fixes ----

const miscWidth = 8

// logv appends v to work-item i's log and returns v: the log shows the
// order in which the calls ran.
func logv(pos, logb []uint32, i, v uint32) uint32 {
	k := xpu.AtomicAdd(&pos[i], 1)
	logb[i*4+k] = v
	return v
}

func mkArr(i uint32) [4]uint32 {
	var a [4]uint32
	a[0], a[1], a[2], a[3] = i, i*3, ^i, 7
	return a
}

func misc(t xpu.Thread, out []uint32, fa []float32, pos, logb []uint32, n uint32) {
	cnt := xpu.Shared[uint32](t, 8)
	l := t.LocalIndex()
	if l < 8 {
		cnt[l] = 1000 + l
	}
	t.Barrier()
	xpu.AtomicAdd(&cnt[l%4], 3)
	xpu.AtomicSub(&cnt[l%4], 1)
	xpu.AtomicOr(&cnt[4], 1<<(l%32))
	xpu.AtomicAnd(&cnt[5], ^(uint32(1) << (l % 8)))
	xpu.AtomicMin(&cnt[6], l+500)
	xpu.AtomicMax(&cnt[7], l*3)
	t.Barrier()
	i := t.GlobalX()
	if i >= n {
		return
	}
	o := i * miscWidth
	out[o] = cnt[l%8]
	out[o+1] = uint32(len(out))
	var acc uint32
	for j := uint32(0); j < 10; j++ {
		if j == 3 {
			continue
		} else if j%2 == 0 {
			acc = acc + j
		} else {
			acc = acc ^ (j << 4)
		}
	}
	out[o+2] = acc
	out[o+3] = mkArr(i)[i%4]
	f := fa[i]
	fa[i] = f * 2
	xpu.AtomicAddFloat32(&fa[i], 0.5)
	out[o+4] = xpu.Float32Bits(xpu.Max(f, float32(math.Inf(-1))))
	out[o+5] = uint32(int32(i) + math.MinInt32)
	out[o+6] = logv(pos, logb, i, 1) + xpu.AtomicCompareExchange(&pos[i], 1, logv(pos, logb, i, 2))
	if i < n && logv(pos, logb, i, 3) == 3 {
		out[o+7] = 1
	}
}

func miscIR() *ir.Kernel {
	out := buffer("out", u32, schema.AccessWrite, 0)
	fa := buffer("fa", f32, schema.AccessAtomic, 1)
	posb := buffer("pos", u32, schema.AccessAtomic, 2)
	logb := buffer("log", u32, schema.AccessWrite, 3)
	n := scalarParam("n", u32, 0)
	cnt := &ir.Shared{Name: "cnt", Elem: u32, Len: 8, Access: schema.AccessAtomic, AtomicElem: u32}

	li, lv, lk := newVar("i", u32), newVar("v", u32), newVar("k", u32)
	logvF := &ir.Func{Name: "logv", GoName: "logv", Params: []*ir.Var{li, lv}, Result: u32, Body: block(
		decl(lk, atomic(ir.AtomicAdd, at(posb, ref(li)), cu(1))),
		assign(at(logb, bin(ir.OpAdd, bin(ir.OpMul, ref(li), cu(4)), ref(lk))), ref(lv)),
		&ir.Return{Value: ref(lv)},
	)}
	arr := &ir.Array{Elem: u32, Len: 4}
	mi, ma := newVar("i", u32), newVar("a", arr)
	mkArrF := &ir.Func{Name: "mkArr", GoName: "mkArr", Params: []*ir.Var{mi}, Result: arr, Body: block(
		decl(ma, nil),
		assign(at(ref(ma), cu(0)), ref(mi)),
		assign(at(ref(ma), cu(1)), bin(ir.OpMul, ref(mi), cu(3))),
		assign(at(ref(ma), cu(2)), un(ir.OpCompl, ref(mi))),
		assign(at(ref(ma), cu(3)), cu(7)),
		&ir.Return{Value: ref(ma)},
	)}
	call := func(f *ir.Func, args ...ir.Expr) *ir.Call { return &ir.Call{Func: f, Args: args} }

	l, i, o, acc, j, f := newVar("l", u32), newVar("i", u32), newVar("o", u32), newVar("acc", u32), newVar("j", u32), newVar("f", f32)
	put := func(k uint32, v ir.Expr) ir.Stmt { return assign(at(out, bin(ir.OpAdd, ref(o), cu(k))), v) }
	ex := func(x ir.Expr) ir.Stmt { return &ir.ExprStmt{X: x} }
	lmod := func(m uint32) ir.Expr { return bin(ir.OpRem, ref(l), cu(m)) }
	return &ir.Kernel{
		Name: "Misc", Func: "Misc", Block: [3]uint32{64, 1, 1}, Pos: pos("misc.go", 1),
		Params: []*ir.Param{out, fa, posb, logb, n}, Shared: []*ir.Shared{cnt}, Funcs: []*ir.Func{logvF, mkArrF},
		Body: block(
			decl(l, query(ir.LocalIndex)),
			ifThen(bin(ir.OpLt, ref(l), cu(8)), assign(at(cnt, ref(l)), bin(ir.OpAdd, cu(1000), ref(l)))),
			&ir.Barrier{},
			ex(atomic(ir.AtomicAdd, at(cnt, lmod(4)), cu(3))),
			ex(atomic(ir.AtomicSub, at(cnt, lmod(4)), cu(1))),
			ex(atomic(ir.AtomicOr, at(cnt, cu(4)), bin(ir.OpShl, cu(1), lmod(32)))),
			ex(atomic(ir.AtomicAnd, at(cnt, cu(5)), un(ir.OpCompl, bin(ir.OpShl, cu(1), lmod(8))))),
			ex(atomic(ir.AtomicMin, at(cnt, cu(6)), bin(ir.OpAdd, ref(l), cu(500)))),
			ex(atomic(ir.AtomicMax, at(cnt, cu(7)), bin(ir.OpMul, ref(l), cu(3)))),
			&ir.Barrier{},
			decl(i, query(ir.GlobalX)),
			ifThen(bin(ir.OpGe, ref(i), sref(n)), &ir.Return{}),
			decl(o, bin(ir.OpMul, ref(i), cu(miscWidth))),
			put(0, at(cnt, lmod(8))),
			put(1, &ir.Len{Buffer: out}),
			decl(acc, nil),
			forLoop(decl(j, cu(0)), bin(ir.OpLt, ref(j), cu(10)), assign(ref(j), bin(ir.OpAdd, ref(j), cu(1))),
				&ir.If{Cond: bin(ir.OpEq, ref(j), cu(3)), Then: block(&ir.Continue{}), Else: block(
					&ir.If{Cond: bin(ir.OpEq, bin(ir.OpRem, ref(j), cu(2)), cu(0)),
						Then: block(assign(ref(acc), bin(ir.OpAdd, ref(acc), ref(j)))),
						Else: block(assign(ref(acc), bin(ir.OpXor, ref(acc), bin(ir.OpShl, ref(j), cu(4)))))},
				)}),
			put(2, ref(acc)),
			put(3, at(call(mkArrF, ref(i)), bin(ir.OpRem, ref(i), cu(4)))),
			decl(f, at(fa, ref(i))),
			assign(at(fa, ref(i)), bin(ir.OpMul, ref(f), cf(2))),
			ex(atomic(ir.AtomicAddFloat32, at(fa, ref(i)), cf(0.5))),
			put(4, &ir.Bitcast{X: math1(ir.Max, ref(f), cf(float32(math.Inf(-1)))), T: u32}),
			put(5, conv(bin(ir.OpAdd, conv(ref(i), i32), ci(math.MinInt32)), u32)),
			put(6, bin(ir.OpAdd, call(logvF, ref(i), cu(1)), atomic(ir.AtomicCompareExchange, at(posb, ref(i)), cu(1), call(logvF, ref(i), cu(2))))),
			ifThen(bin(ir.OpLAnd, bin(ir.OpLt, ref(i), sref(n)), bin(ir.OpEq, call(logvF, ref(i), cu(3)), cu(3))), put(7, cu(1))),
		),
	}
}

func miscArgs(r *rand.Rand) (uint32, []any) {
	n := grid*64 - 7
	return grid, []any{make([]uint32, n*miscWidth), randF32(r, n), make([]uint32, n), make([]uint32, 4*n), uint32(n)}
}

// ---- mathfuncs: every math builtin; checked for acceptance only, since
// devices' transcendental functions differ from Go's within WGSL's
// precision bounds ----

func mathFuncsIR() *ir.Kernel {
	out := buffer("out", f32, schema.AccessReadWrite, 0)
	ints := buffer("ints", i32, schema.AccessReadWrite, 1)
	x, k := newVar("x", f32), newVar("k", i32)
	var body []ir.Stmt
	body = append(body, decl(x, at(out, cu(0))), decl(k, at(ints, cu(0))))
	for b := ir.Sqrt; b <= ir.Clamp; b++ {
		args := []ir.Expr{ref(x)}
		switch b {
		case ir.Pow, ir.Min, ir.Max:
			args = append(args, cf(1.5))
		case ir.Fma, ir.Clamp:
			args = append(args, cf(-2), cf(3))
		}
		body = append(body, assign(ref(x), math1(b, args...)))
	}
	body = append(body,
		assign(ref(k), math1(ir.Abs, ref(k))),
		assign(ref(k), math1(ir.Min, ref(k), ci(3))),
		assign(ref(k), math1(ir.Max, ref(k), ci(-3))),
		assign(ref(k), bin(ir.OpAdd, ref(k), conv(math1(ir.Abs, conv(ref(k), u32)), i32))),
		assign(ref(x), bin(ir.OpAdd, ref(x), cf(float32(math.NaN())))),
		assign(ref(x), bin(ir.OpMul, ref(x), cf(float32(math.Copysign(0, -1))))),
		assign(ref(x), bin(ir.OpAdd, cf(1e-45), cf(3.4028235e38))),
		assign(at(out, cu(1)), ref(x)),
		assign(at(ints, cu(1)), bin(ir.OpDiv, ref(k), ci(math.MinInt32))),
		assign(at(ints, cu(2)), bin(ir.OpAdd, ci(math.MaxInt32), ci(1))),
		assign(at(ints, cu(3)), bin(ir.OpDiv, ci(math.MinInt32), ci(-1))),
		assign(at(ints, cu(4)), conv(cf(3e9), i32)),
		assign(at(ints, cu(5)), bin(ir.OpShl, ci(1), cu(40))),
	)
	return &ir.Kernel{
		Name: "MathFuncs", Func: "MathFuncs", Block: [3]uint32{1, 1, 1}, Pos: pos("math.go", 1),
		Params: []*ir.Param{out, ints},
		Body:   block(body...),
	}
}

// TestNegativeShiftConstant checks that a shift by a negative int32
// constant, which Go panics on when the count is not a Go constant, is
// not folded: it goes through the helper that records the fault, and the
// module declares the fault word.
func TestNegativeShiftConstant(t *testing.T) {
	out := buffer("out", i32, schema.AccessWrite, 0)
	for _, op := range []ir.Op{ir.OpShl, ir.OpShr} {
		k := &ir.Kernel{
			Name: "NegShift", Block: [3]uint32{64, 1, 1}, Pos: pos("k.go", 1), Params: []*ir.Param{out},
			Body: block(assign(at(out, query(ir.GlobalX)), bin(op, ci(5), ci(-1)))),
		}
		arts, err := wgslgen.Artifacts(k)
		if err != nil {
			t.Fatal(err)
		}
		src, fault := arts[0].Code, arts[0].Fault
		if !fault || !strings.Contains(src, "xpu_shift_count(") {
			t.Errorf("5 %v -1: fault word declared: %v, WGSL:\n%s", op, fault, src)
		}
	}
}
