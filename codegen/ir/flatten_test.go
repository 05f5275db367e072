package ir

import (
	"testing"

	"github.com/goxpu/xpu/schema"
)

// checkFlat checks what Flatten promises the lowerings: every verb is the
// whole value of a statement, no call reaches a barrier or a verb, and
// no node appears twice.
func checkFlat(t *testing.T, k *Kernel) {
	t.Helper()
	seen := map[any]bool{}
	once := func(n any) {
		if seen[n] {
			t.Errorf("node %T %p appears twice", n, n)
		}
		seen[n] = true
	}
	WalkStmts(k.Body, func(s Stmt) bool {
		once(s)
		top, _ := WaveStmt(s)
		for _, x := range StmtExprs(s) {
			WalkExpr(x, func(e Expr) bool {
				switch e := e.(type) {
				case *Wave:
					if e != top {
						t.Errorf("%v: a verb inside an expression", e.Pos)
					}
				case *Call:
					if e.Func.Barrier || e.Func.Wave != "" {
						t.Errorf("a call of %s, which meets the other work-items", e.Func.Name)
					}
				case *Const, *VarRef, *ScalarRef, *BufferRef, *SharedRef:
					return true // leaves may be shared
				}
				once(e)
				return true
			})
		}
		return true
	})
}

func waveSum(x Expr) *Wave {
	return &Wave{Op: schema.WaveSum, Args: []Expr{x}, T: x.Type(), Pos: Pos{File: "k.go", Line: 1}}
}

// stmtsOf lists the statements of b in order, nested ones included.
func stmtsOf(b *Block) []Stmt {
	var out []Stmt
	WalkStmts(b, func(s Stmt) bool { out = append(out, s); return true })
	return out
}

func TestFlattenHoistsInOrder(t *testing.T) {
	v := &Var{Name: "v", Type: U32Type}
	out := &Param{Name: "out", Kind: BufferParam, Type: U32Type}
	eff := &Func{Name: "eff", GoName: "eff", Result: U32Type, Body: &Block{Stmts: []Stmt{&Return{Value: u32(1)}}}}
	sum := &Binary{Op: OpAdd, X: &Call{Func: eff}, Y: waveSum(&VarRef{v}), T: U32Type}
	k := &Kernel{Name: "K", Params: []*Param{out}, Funcs: []*Func{eff}, Body: &Block{Stmts: []Stmt{
		&Decl{Var: v, Init: u32(3)},
		&Assign{Dst: &Index{X: &BufferRef{out}, Index: u32(0), T: U32Type}, Value: sum},
		&Assign{Dst: &Index{X: &BufferRef{out}, Index: u32(1), T: U32Type}, Value: waveSum(&VarRef{v})},
	}}}
	if err := Analyze(k); err != nil {
		t.Fatal(err)
	}
	if err := Flatten(k); err != nil {
		t.Fatal(err)
	}
	checkFlat(t, k)
	// The call, left of the verb, runs first: hoisted before it.
	var order []string
	for _, s := range stmtsOf(k.Body) {
		if d, ok := s.(*Decl); ok {
			switch d.Init.(type) {
			case *Call:
				order = append(order, "call")
			case *Wave:
				order = append(order, "verb")
			}
		}
	}
	if len(order) != 3 || order[0] != "call" || order[1] != "verb" || order[2] != "verb" {
		t.Errorf("hoisted %v, want [call verb verb]: a verb stored to a buffer goes through a variable", order)
	}
	if len(k.Funcs) != 1 {
		t.Errorf("funcs %d: the function without a verb stays", len(k.Funcs))
	}
}

func TestFlattenLoopConditions(t *testing.T) {
	for _, cont := range []bool{false, true} {
		i := &Var{Name: "i", Type: U32Type}
		cond := &Binary{Op: OpLt, X: waveSum(&VarRef{i}), Y: u32(10), T: BoolType}
		body := &Block{}
		if cont {
			body.Stmts = []Stmt{&If{Cond: &Binary{Op: OpEq, X: &VarRef{i}, Y: u32(2), T: BoolType}, Then: &Block{Stmts: []Stmt{&Continue{}}}}}
		}
		post := &Block{Stmts: []Stmt{&Assign{Dst: &VarRef{i}, Value: &Binary{Op: OpAdd, X: &VarRef{i}, Y: u32(1), T: U32Type}}}}
		k := &Kernel{Name: "K", Body: &Block{Stmts: []Stmt{&Decl{Var: i}, &Loop{Cond: cond, Body: body, Post: post}}}}
		if err := Flatten(k); err != nil {
			t.Fatal(err)
		}
		checkFlat(t, k)
		var l *Loop
		verbs := 0
		for _, s := range stmtsOf(k.Body) {
			if x, ok := s.(*Loop); ok {
				l = x
			}
			if w, _ := WaveStmt(s); w != nil {
				verbs++
			}
		}
		if verbs != 2 {
			t.Errorf("continue %v: %d verbs, want one before the loop and one per iteration", cont, verbs)
		}
		if _, ok := l.Cond.(*VarRef); !ok {
			t.Errorf("continue %v: the loop tests %T, want the condition's variable", cont, l.Cond)
		}
		// With a continue, the test's statements run in the post
		// statement, after the increment; without, at the end of the body.
		last := l.Body.Stmts
		if cont {
			last = l.Post.Stmts
		}
		if a, ok := last[len(last)-1].(*Assign); !ok || a.Dst.(*VarRef).Var != l.Cond.(*VarRef).Var {
			t.Errorf("continue %v: the condition is not set last", cont)
		}
	}
}

func TestFlattenInlinesReturns(t *testing.T) {
	// find(x): s := WaveSum(x); for j < 4 { if j > s { return j } }; return 9
	x := &Var{Name: "x", Type: U32Type}
	s := &Var{Name: "s", Type: U32Type}
	j := &Var{Name: "j", Type: U32Type}
	find := &Func{Name: "find", GoName: "find", Params: []*Var{x}, Result: U32Type, Body: &Block{Stmts: []Stmt{
		&Decl{Var: s, Init: waveSum(&VarRef{x})},
		&Decl{Var: j},
		&Loop{Cond: &Binary{Op: OpLt, X: &VarRef{j}, Y: u32(4), T: BoolType},
			Body: &Block{Stmts: []Stmt{&If{Cond: &Binary{Op: OpGt, X: &VarRef{j}, Y: &VarRef{s}, T: BoolType},
				Then: &Block{Stmts: []Stmt{&Return{Value: &VarRef{j}}}}}}},
			Post: &Block{Stmts: []Stmt{&Assign{Dst: &VarRef{j}, Value: &Binary{Op: OpAdd, X: &VarRef{j}, Y: u32(1), T: U32Type}}}}},
		&Return{Value: u32(9)},
	}}}
	out := &Param{Name: "out", Kind: BufferParam, Type: U32Type}
	call := func() Expr { return &Call{Func: find, Args: []Expr{u32(5)}} }
	k := &Kernel{Name: "K", Params: []*Param{out}, Funcs: []*Func{find}, Body: &Block{Stmts: []Stmt{
		&Assign{Dst: &Index{X: &BufferRef{out}, Index: u32(0), T: U32Type}, Value: &Binary{Op: OpAdd, X: call(), Y: call(), T: U32Type}},
	}}}
	if err := Analyze(k); err != nil {
		t.Fatal(err)
	}
	if find.Wave != "WaveSum" {
		t.Fatalf("find.Wave = %q", find.Wave)
	}
	if err := Flatten(k); err != nil {
		t.Fatal(err)
	}
	checkFlat(t, k)
	if len(k.Funcs) != 0 {
		t.Errorf("find is not inlined")
	}
	names := map[string]bool{}
	breaks, guards := 0, 0
	for _, st := range stmtsOf(k.Body) {
		switch st := st.(type) {
		case *Decl:
			if names[st.Var.Name] {
				t.Errorf("two variables named %s", st.Var.Name)
			}
			names[st.Var.Name] = true
		case *Break:
			breaks++
		case *If:
			if u, ok := st.Cond.(*Unary); ok && u.Op == OpNot {
				guards++ // the rest of the function, for work-items that did not return
			}
		}
	}
	if breaks != 2 || guards != 2 {
		t.Errorf("%d breaks and %d guards, want a return that leaves the loop and the rest guarded, per call", breaks, guards)
	}
	if err := Analyze(k); err != nil {
		t.Errorf("the flattened kernel: %v", err)
	}
}
