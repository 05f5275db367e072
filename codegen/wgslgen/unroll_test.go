package wgslgen_test

import (
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/wgslgen"
	"github.com/goxpu/xpu/schema"
)

// TestUnroll: a counted loop that stores to a private array at an index
// computed from its counter is unrolled, its indices folded to constants;
// a loop that only reads the array, one left by a break, one whose
// counter its body assigns, one of more than 64 iterations and one that
// stores only to a buffer stay loops.
func TestUnroll(t *testing.T) {
	out := buffer("out", f32, schema.AccessReadWrite, 0)
	acc := newVar("acc", &ir.Array{Elem: f32, Len: 8})
	i := newVar("i", u32)
	j := newVar("j", i32)
	k := newVar("k", u32)
	inc := func(v *ir.Var, by ir.Expr) ir.Stmt { return assign(ref(v), bin(ir.OpAdd, ref(v), by)) }
	store := func(x ir.Expr) ir.Stmt { return assign(at(out, cu(0)), x) }
	for _, c := range []struct {
		name   string
		loop   ir.Stmt
		want   []string
		unroll bool
	}{
		{"computed index", forLoop(decl(i, cu(0)), bin(ir.OpLt, ref(i), cu(4)), inc(i, cu(1)),
			assign(at(ref(acc), bin(ir.OpAdd, bin(ir.OpMul, ref(i), cu(2)), cu(1))), cf(1))),
			[]string{"v_acc[1u] = 1.0f;", "v_acc[7u] = 1.0f;"}, true},
		{"down-counting int32", forLoop(decl(j, ci(3)), bin(ir.OpGe, ref(j), ci(0)), inc(j, ci(-1)),
			assign(at(ref(acc), ref(j)), at(out, conv(ref(j), u32)))),
			[]string{"v_acc[3i] = b_out[3u];", "v_acc[0i] = b_out[0u];"}, true},
		{"through a variable", forLoop(decl(i, cu(0)), bin(ir.OpLt, ref(i), cu(8)), inc(i, cu(2)),
			decl(k, bin(ir.OpAdd, ref(i), cu(1))), assign(at(ref(acc), ref(k)), cf(1))),
			nil, true},
		{"reads only", forLoop(decl(i, cu(0)), bin(ir.OpLt, ref(i), cu(4)), inc(i, cu(1)),
			store(at(ref(acc), bin(ir.OpMul, ref(i), cu(2))))),
			nil, false},
		{"break", forLoop(decl(i, cu(0)), bin(ir.OpLt, ref(i), cu(4)), inc(i, cu(1)),
			assign(at(ref(acc), ref(i)), cf(1)), &ir.Break{}),
			nil, false},
		{"counter assigned", forLoop(decl(i, cu(0)), bin(ir.OpLt, ref(i), cu(4)), inc(i, cu(1)),
			assign(at(ref(acc), ref(i)), cf(1)), inc(i, cu(1))),
			nil, false},
		{"65 iterations", forLoop(decl(i, cu(0)), bin(ir.OpLt, ref(i), cu(65)), inc(i, cu(1)),
			assign(at(ref(acc), bin(ir.OpRem, ref(i), cu(8))), cf(1))),
			nil, false},
		{"buffer only", forLoop(decl(i, cu(0)), bin(ir.OpLt, ref(i), cu(4)), inc(i, cu(1)),
			assign(at(out, ref(i)), cf(1))),
			nil, false},
	} {
		kernel := &ir.Kernel{Name: "K", Func: "K", Block: [3]uint32{1, 1, 1}, Params: []*ir.Param{out},
			Body: block(decl(acc, nil), c.loop, store(at(ref(acc), cu(2))))}
		src, err := wgslgen.Generate(kernel)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if loops := strings.Contains(src, "for (") || strings.Contains(src, "loop {"); loops == c.unroll {
			t.Errorf("%s: unrolled %v, want %v:\n%s", c.name, !loops, c.unroll, src)
		}
		for _, w := range c.want {
			if !strings.Contains(src, w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, src)
			}
		}
	}
}
