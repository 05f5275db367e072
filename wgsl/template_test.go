package wgsl

import "testing"

// TestTemplateListAmbiguity checks that a call's arguments never read as a
// template list: "f(a < b, c > d)" is f applied to the template a<b, c>
// in WGSL, which Tint refuses ("parsed as template list"), so the first
// comparison is parenthesized; nothing else is.
func TestTemplateListAmbiguity(t *testing.T) {
	bin := func(op BinaryOp, x, y string) *Binary { return &Binary{Op: op, X: Id(x), Y: Id(y)} }
	for _, c := range []struct {
		args []Expr
		want string
	}{
		{[]Expr{bin(Lt, "a", "b"), bin(Gt, "c", "d")}, "f((a < b), c > d)"},
		{[]Expr{bin(Lt, "a", "b"), Id("x"), bin(Ge, "c", "d")}, "f((a < b), x, c >= d)"},
		{[]Expr{bin(Lt, "a", "b"), bin(Shr, "c", "d")}, "f((a < b), c >> d)"},
		{[]Expr{bin(Lt, "a", "b"), bin(Lt, "c", "d"), bin(Gt, "e", "g")}, "f((a < b), (c < d), e > g)"},
		{[]Expr{bin(Lt, "a", "b")}, "f(a < b)"},
		{[]Expr{bin(Gt, "a", "b"), bin(Lt, "c", "d")}, "f(a > b, c < d)"},
		{[]Expr{bin(Le, "a", "b"), bin(Gt, "c", "d")}, "f(a <= b, c > d)"},
		{[]Expr{bin(Lt, "a", "b"), &Call{Fn: "g", Args: []Expr{bin(Gt, "c", "d")}}}, "f(a < b, g(c > d))"},
	} {
		var p printer
		got := p.expr(&Call{Fn: "f", Args: c.args})
		if p.err != nil {
			t.Fatal(p.err)
		}
		if got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}
