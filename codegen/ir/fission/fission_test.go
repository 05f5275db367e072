package fission_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/ir/fission"
	"github.com/goxpu/xpu/schema"
)

func u32(v uint32) *ir.Const { return &ir.Const{T: ir.U32Type, Bits: v} }

func ref(v *ir.Var) *ir.VarRef { return &ir.VarRef{Var: v} }

func lt(x, y ir.Expr) *ir.Binary { return &ir.Binary{Op: ir.OpLt, X: x, Y: y, T: ir.BoolType} }

func add(x, y ir.Expr) *ir.Binary { return &ir.Binary{Op: ir.OpAdd, X: x, Y: y, T: x.Type()} }

func local() *ir.CallBuiltin { return &ir.CallBuiltin{Fn: ir.LocalX, T: ir.U32Type} }

func block(s ...ir.Stmt) *ir.Block { return &ir.Block{Stmts: s} }

func pos(line int) ir.Pos { return ir.Pos{File: "k.go", Line: line, Col: 1} }

// analyzed returns a kernel of body with a uint32 scalar n, analyzed;
// the analysis may report a barrier site the split must refuse too.
func analyzed(n *ir.Param, body ...ir.Stmt) *ir.Kernel {
	k := &ir.Kernel{Name: "K", Block: [3]uint32{64, 1, 1}, Params: []*ir.Param{n}, Body: block(body...)}
	_ = ir.Analyze(k)
	return k
}

func scalarN() *ir.Param { return &ir.Param{Name: "n", Kind: ir.ScalarParam, Type: ir.U32Type} }

// TestSplit splits a body with a barrier, a uniform if and loop around
// barriers and a wave verb, and checks the nodes, their ids and the
// variables that cross them.
func TestSplit(t *testing.T) {
	n := scalarN()
	a, b, c, i, w := &ir.Var{Name: "a", Type: ir.U32Type}, &ir.Var{Name: "b", Type: ir.U32Type},
		&ir.Var{Name: "c", Type: ir.U32Type}, &ir.Var{Name: "i", Type: ir.U32Type}, &ir.Var{Name: "w", Type: ir.U32Type}
	nr := &ir.ScalarRef{Param: n}
	ifCond, loopCond := lt(u32(0), nr), lt(ref(i), nr)
	verb := &ir.Wave{Op: schema.WaveSum, Args: []ir.Expr{ref(a)}, T: ir.U32Type, Pos: pos(9)}
	k := analyzed(n,
		&ir.Decl{Var: a, Init: local()}, // segment 0
		&ir.Decl{Var: c, Init: u32(1)},
		&ir.Barrier{},
		&ir.If{Cond: ifCond, Then: block( // if 1
			&ir.Decl{Var: b, Init: add(ref(a), u32(1))}, // segment 2
			&ir.Barrier{},
		)},
		&ir.Decl{Var: i, Init: u32(0)}, // segment 3
		&ir.Loop{Cond: loopCond, Body: block( // loop 4
			&ir.Barrier{},
			&ir.Assign{Dst: ref(i), Value: add(ref(i), u32(1))}, // segment 5
		)},
		&ir.Decl{Var: w, Init: verb, Pos: pos(9)}, // wave 6
		&ir.Assign{Dst: ref(c), Value: ref(w)},    // segment 7
	)
	p, err := fission.Split(k.Body, k.Uniform, true)
	if err != nil {
		t.Fatal(err)
	}
	if p.IDs != 8 || len(p.Nodes) != 6 {
		t.Fatalf("%d ids, %d nodes; want 8 and 6", p.IDs, len(p.Nodes))
	}
	seg := func(x fission.Node, id, stmts int) {
		t.Helper()
		s, ok := x.(*fission.Segment)
		if !ok || s.ID != id || len(s.Stmts) != stmts {
			t.Errorf("node %#v, want segment %d of %d statements", x, id, stmts)
		}
	}
	seg(p.Nodes[0], 0, 2)
	if f, ok := p.Nodes[1].(*fission.If); !ok || f.ID != 1 || f.Cond != ifCond || len(f.Then) != 1 || f.Else != nil {
		t.Errorf("node 1 %#v, want the if", p.Nodes[1])
	} else {
		seg(f.Then[0], 2, 1)
	}
	seg(p.Nodes[2], 3, 1)
	if l, ok := p.Nodes[3].(*fission.Loop); !ok || l.ID != 4 || l.Cond != loopCond || len(l.Body) != 1 {
		t.Errorf("node 3 %#v, want the loop", p.Nodes[3])
	} else {
		seg(l.Body[0], 5, 1)
	}
	if v, ok := p.Nodes[4].(*fission.Wave); !ok || v.ID != 6 || v.Verb != verb || v.Dst != w {
		t.Errorf("node 4 %#v, want the wave", p.Nodes[4])
	}
	seg(p.Nodes[5], 7, 1)
	// a: segments 0 and 2 and the wave; c: segments 0 and 7; i: segment
	// 3, the loop's condition and segment 5; w: the wave and segment 7.
	want := map[*ir.Var]bool{a: true, c: true, i: true, w: true}
	if len(p.Crossing) != len(want) {
		t.Errorf("crossing %v, want a, c, i, w", names(p.Crossing))
	}
	for v := range want {
		if !p.Crossing[v] {
			t.Errorf("%s does not cross; crossing %v", v.Name, names(p.Crossing))
		}
	}

	// Without waves the verb stays in the last segment.
	p, err = fission.Split(k.Body, k.Uniform, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.IDs != 7 || len(p.Nodes) != 5 {
		t.Fatalf("without waves: %d ids, %d nodes; want 7 and 5", p.IDs, len(p.Nodes))
	}
	seg(p.Nodes[4], 6, 2)
	if p.Crossing[w] {
		t.Errorf("without waves w crosses")
	}
}

func names(m map[*ir.Var]bool) []string {
	var out []string
	for v := range m {
		out = append(out, v.Name)
	}
	return out
}

// TestRefusals checks each refusal's place and reason.
func TestRefusals(t *testing.T) {
	n := scalarN()
	j := &ir.Var{Name: "j", Type: ir.U32Type}
	w := &ir.Var{Name: "w", Type: ir.U32Type}
	for _, c := range []struct {
		name string
		k    *ir.Kernel
		line int
		want string
	}{
		{"divergent if", analyzed(n, &ir.If{Cond: lt(local(), u32(3)), Pos: pos(2), Then: block(&ir.Barrier{Pos: pos(3)})}),
			2, "a barrier inside an if whose condition is not workgroup-uniform"},
		{"divergent loop", analyzed(n, &ir.Decl{Var: j, Init: u32(0)},
			&ir.Loop{Cond: lt(ref(j), local()), Pos: pos(4), Body: block(&ir.Barrier{}, &ir.Assign{Dst: ref(j), Value: add(ref(j), u32(1))})}),
			4, "a barrier inside a loop whose condition is not workgroup-uniform"},
		{"after a divergent return", analyzed(n, &ir.If{Cond: lt(local(), u32(3)), Then: block(&ir.Return{})}, &ir.Barrier{Pos: pos(5)}),
			5, "a barrier in non-uniform control flow"},
		{"wave after a divergent return", analyzed(n, &ir.If{Cond: lt(local(), u32(3)), Then: block(&ir.Return{})},
			&ir.Decl{Var: w, Init: &ir.Wave{Op: schema.WaveSum, Args: []ir.Expr{local()}, T: ir.U32Type, Pos: pos(6)}}),
			6, "a wave verb in non-uniform control flow"},
		{"break", analyzed(n, &ir.Loop{Body: block(&ir.Barrier{}, &ir.If{Cond: lt(u32(0), &ir.ScalarRef{Param: n}), Then: block(&ir.Break{Pos: pos(7)})})}),
			7, "a break out of a loop that contains a barrier"},
		{"continue", analyzed(n, &ir.Loop{Body: block(&ir.Continue{Pos: pos(8)}, &ir.Barrier{})}),
			8, "a continue in a loop that contains a barrier"},
		{"post", analyzed(n, &ir.Loop{Pos: pos(9), Body: block(), Post: block(&ir.Barrier{})}),
			9, "a barrier in the post statement of a loop"},
	} {
		_, err := fission.Split(c.k.Body, c.k.Uniform, true)
		var r *fission.Refusal
		if !errors.As(err, &r) || r.Pos.Line != c.line || r.Reason != c.want {
			t.Errorf("%s: %v, want a refusal at line %d: %s", c.name, err, c.line, c.want)
		}
	}
	k := analyzed(n, &ir.Barrier{Pos: pos(1)})
	if _, err := fission.Split(k.Body, nil, true); err == nil || !strings.Contains(err.Error(), "the uniformity analysis has not run") {
		t.Errorf("without the analysis: %v, want a refusal", err)
	}
	if _, err := fission.Split(k.Body, k.Uniform, true); err != nil {
		t.Errorf("a barrier alone: %v", err)
	}
}
