package wgsl

import (
	"slices"
	"testing"
)

// TestInspect walks a function whose calls sit in every place a call can
// be, behind optional fields left nil, and checks each is seen in print
// order, and that returning false skips a node's children.
func TestInspect(t *testing.T) {
	call := func(fn string, args ...Expr) *Call { return CallOf(fn, args...) }
	body := &Block{Stmts: []Stmt{
		&LetDecl{Name: "a", Init: call("f1")},
		&VarDecl{Name: "b", Type: U32Type},
		&If{Cond: &Binary{Op: Lt, X: call("f2"), Y: U32Lit(1)}, Then: &Block{Stmts: []Stmt{
			&Assign{LHS: &Index{X: Id("x"), Index: call("f3")}, RHS: &Bitcast{Type: U32Type, X: call("f4")}},
		}}},
		&Loop{Body: &Block{Stmts: []Stmt{&CallStmt{Call: call("f5", call("f6"))}}}, BreakIf: call("f7")},
		&For{Cond: call("f8"), Body: &Block{}},
		&Return{Value: &Member{X: &Construct{Type: U32Type, Args: []Expr{call("f9")}}, Name: "x"}},
	}}
	m := &Module{Decls: []Decl{
		&Const{Name: "c", Value: call("f0")},
		&Func{Name: "main", Body: body},
	}}
	var seen []string
	Inspect(m, func(n Node) bool {
		switch n := n.(type) {
		case *Call:
			seen = append(seen, n.Fn)
			return n.Fn != "f5" // f6 is f5's argument
		case *Bitcast:
			seen = append(seen, "bitcast")
		}
		return true
	})
	want := []string{"f0", "f1", "f2", "f3", "bitcast", "f4", "f5", "f7", "f8", "f9"}
	if !slices.Equal(seen, want) {
		t.Errorf("Inspect saw %v, want %v", seen, want)
	}
}
