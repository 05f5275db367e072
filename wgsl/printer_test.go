package wgsl

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name.golden, or rewrites the file
// under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n--- got ---\n%s\n--- want ---\n%s", name, path, got, want)
	}
}

// sampleModule uses every kind of node.
func sampleModule() *Module {
	gid := Id("gid")
	i := Id("i")
	x := Index{X: Id("b_x"), Index: i}
	return &Module{Decls: []Decl{
		&Struct{Doc: "Particle is a buffer element.", Name: "S_Particle", Fields: []*Field{
			{Name: "m_pos", Type: F32Type},
			{Name: "m_id", Type: U32Type},
		}},
		&Struct{Name: "Uniforms", Fields: []*Field{{Name: "p_n", Type: U32Type}, {Name: "p_a", Type: F32Type}}},
		&Const{Name: "K", Type: I32Type, Value: I32Lit(-3)},
		&Const{Name: "L", Value: U32Lit(7)},
		&GlobalVar{Attrs: []*Attr{GroupAttr(0), BindingAttr(0)}, Space: Storage, Access: Read, Name: "b_x", Type: &Array{Elem: F32Type}},
		&GlobalVar{Attrs: []*Attr{GroupAttr(0), BindingAttr(1)}, Space: Storage, Access: ReadWrite, Name: "b_h", Type: &Array{Elem: &Atomic{Elem: U32Type}}},
		&GlobalVar{Attrs: []*Attr{GroupAttr(0), BindingAttr(2)}, Space: Uniform, Name: "u", Type: &Named{Name: "Uniforms"}},
		&GlobalVar{Space: Workgroup, Name: "s_tile", Type: &Array{Elem: F32Type, Len: 256}},
		&GlobalVar{Doc: "copies of the builtins", Space: Private, Name: "p_gid", Type: &Vec{N: 3, Elem: U32Type}},
		&GlobalVar{Space: Private, Name: "p_k", Type: I32Type, Init: I32Lit(1)},
		&Func{Doc: "twice doubles.\nIt is a device function.", Name: "f_twice", Params: []*Param{{Name: "v", Type: F32Type}}, Result: F32Type,
			Body: &Block{Stmts: []Stmt{&Return{Value: &Binary{Op: Mul, X: F32Lit(2), Y: Id("v")}}}}},
		&Func{Attrs: []*Attr{ComputeAttr(), WorkgroupSizeAttr(256, 1, 1)}, Name: "main",
			Params: []*Param{{Attrs: []*Attr{BuiltinAttr("global_invocation_id")}, Name: "gid", Type: &Vec{N: 3, Elem: U32Type}}},
			Body: &Block{Stmts: []Stmt{
				&Assign{LHS: Id("p_gid"), RHS: gid},
				&LetDecl{Name: "i", Init: &Member{X: gid, Name: "x"}},
				&If{Cond: &Binary{Op: Ge, X: i, Y: &Member{X: Id("u"), Name: "p_n"}}, Then: &Block{Stmts: []Stmt{&Return{}}}},
				&VarDecl{Name: "acc", Type: F32Type},
				&VarDecl{Name: "j", Init: U32Lit(0)},
				&VarDecl{Name: "arr", Type: &Array{Elem: I32Type, Len: 4}, Init: &Construct{Type: &Array{Elem: I32Type, Len: 4}}},
				&Loop{
					Body: &Block{Stmts: []Stmt{
						&If{Cond: &Unary{Op: Not, X: &Binary{Op: Lt, X: Id("j"), Y: U32Lit(4)}}, Then: &Block{Stmts: []Stmt{&Break{}}}},
						&If{Cond: &Binary{Op: Eq, X: &Binary{Op: And, X: Id("j"), Y: U32Lit(1)}, Y: U32Lit(1)},
							Then: &Block{Stmts: []Stmt{&Continue{}}},
							Else: &If{Cond: &Binary{Op: LAnd, X: &Binary{Op: Gt, X: Id("j"), Y: U32Lit(2)}, Y: &Binary{Op: LOr, X: BoolLit(true), Y: BoolLit(false)}},
								Then: &Block{Stmts: []Stmt{&CompoundAssign{LHS: Id("acc"), Op: Add, RHS: F32Lit(0.5)}}},
								Else: &Block{Stmts: []Stmt{&Assign{LHS: &Index{X: Id("arr"), Index: Id("j")}, RHS: &Unary{Op: Neg, X: &Unary{Op: Neg, X: I32Lit(-5)}}}}}}},
						&Block{Stmts: []Stmt{&LetDecl{Name: "t", Type: I32Type, Init: &Unary{Op: Compl, X: &Binary{Op: Shl, X: Id("K"), Y: U32Lit(3)}}}}},
					}},
					Continuing: &Block{Stmts: []Stmt{&Assign{LHS: Id("j"), RHS: &Binary{Op: Add, X: Id("j"), Y: U32Lit(1)}}}},
					BreakIf:    &Binary{Op: Ge, X: Id("j"), Y: U32Lit(100)},
				},
				&Loop{Body: &Block{Stmts: []Stmt{&Break{}}}},
				&For{Init: &VarDecl{Name: "k", Type: U32Type, Init: U32Lit(0)}, Cond: &Binary{Op: Lt, X: Id("k"), Y: U32Lit(4)},
					Update: &CompoundAssign{LHS: Id("k"), Op: Add, RHS: U32Lit(1)},
					Body:   &Block{Stmts: []Stmt{&CompoundAssign{LHS: Id("acc"), Op: Add, RHS: F32Lit(1)}}}},
				&For{Body: &Block{Stmts: []Stmt{&Break{}}}},
				&CallStmt{Call: CallOf("atomicAdd", AddrOfExpr(&Index{X: Id("b_h"), Index: i}), U32Lit(1))},
				&Assign{RHS: CallOf("f_twice", &x)},
				&Assign{LHS: Id("acc"), RHS: &Binary{Op: Add, X: &Bitcast{Type: F32Type, X: CallOf("atomicLoad", AddrOfExpr(&Index{X: Id("b_h"), Index: U32Lit(0)}))},
					Y: &Construct{Type: F32Type, Args: []Expr{&Binary{Op: Sub, X: I32Lit(-2147483648), Y: &Index{X: &Binary{Op: Add, X: Id("arr"), Y: Id("arr")}, Index: IntLit(0)}}}}}},
				&Assign{LHS: &Index{X: Id("s_tile"), Index: &Binary{Op: Rem, X: i, Y: U32Lit(256)}}, RHS: &Binary{Op: Div, X: &Lit{Kind: F32, Bits: 0x80000000}, Y: F32Lit(1e-7)}},
				&CallStmt{Call: CallOf("workgroupBarrier")},
			}},
		},
	}}
}

func TestGolden(t *testing.T) {
	got, err := Sprint(sampleModule())
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "sample", got)
}

// TestDeterministic prints the same tree, and an identical tree built
// anew, several times: the text must never change (as go/printer's
// idempotence check, for a printer without a parser).
func TestDeterministic(t *testing.T) {
	m := sampleModule()
	first, err := Sprint(m)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		for _, n := range []*Module{m, sampleModule()} {
			var b strings.Builder
			if err := Fprint(&b, n); err != nil {
				t.Fatal(err)
			}
			if b.String() != first {
				t.Fatalf("second printing differs:\n%s\nvs\n%s", b.String(), first)
			}
		}
	}
}

func TestMalformed(t *testing.T) {
	for name, n := range map[string]Node{
		"keyword ident":     Id("loop"),
		"reserved prefix":   Id("__x"),
		"blank":             Id("_"),
		"non-ascii":         Id("é"),
		"digit first":       Id("1x"),
		"nil operand":       &Binary{Op: Add, X: Id("a")},
		"nil block":         &If{Cond: BoolLit(true)},
		"bad else":          &If{Cond: BoolLit(true), Then: &Block{}, Else: &Break{}},
		"compound &&":       &CompoundAssign{LHS: Id("a"), Op: LAnd, RHS: Id("b")},
		"atomic f32":        &Atomic{Elem: F32Type},
		"access on private": &GlobalVar{Space: Private, Access: Read, Name: "a", Type: F32Type},
		"let without value": &LetDecl{Name: "a", Type: F32Type},
		"var without type":  &VarDecl{Name: "a"},
		"bool literal 2":    &Lit{Kind: Bool, Bits: 2},
		"f32 infinity":      &Lit{Kind: F32, Bits: 0x7f800000},
		"empty struct":      &Struct{Name: "S"},
		"nil":               nil,
	} {
		if s, err := Sprint(n); err == nil {
			t.Errorf("%s: printed %q, want an error", name, s)
		}
	}
}
