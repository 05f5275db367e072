package ir

import "testing"

// narrowOps returns the operations of b that compute at a narrow width,
// which Widen must leave none of, and the conversions between a narrow
// type and anything but a 32-bit integer.
func narrowOps(b *Block) []Expr {
	var bad []Expr
	WalkStmts(b, func(s Stmt) bool {
		for _, x := range StmtExprs(s) {
			WalkExpr(x, func(e Expr) bool {
				switch e := e.(type) {
				case *Unary, *Binary, *CallBuiltin:
					for _, o := range append(Operands(e), e) {
						if IsNarrow(o.Type()) {
							bad = append(bad, e)
						}
					}
				case *Convert:
					if (IsNarrow(e.T) || IsNarrow(e.X.Type())) && !IsInteger(e.T) && !IsInteger(e.X.Type()) {
						bad = append(bad, e)
					}
				}
				return true
			})
		}
		return true
	})
	return bad
}

func TestWiden(t *testing.T) {
	x := &Var{Name: "x", Type: U8Type}
	y := &Var{Name: "y", Type: I16Type}
	f := &Var{Name: "f", Type: F32Type}
	sum := &Binary{Op: OpAdd, X: &VarRef{x}, Y: &Const{T: U8Type, Bits: 200}, T: U8Type}
	k := &Kernel{Body: &Block{Stmts: []Stmt{
		&Decl{Var: x, Init: &Const{T: U8Type, Bits: 100}},
		&Assign{Dst: &VarRef{x}, Value: sum},
		&Decl{Var: y, Init: &Convert{X: &Unary{Op: OpNeg, X: &VarRef{x}, T: U8Type}, T: I16Type}},
		&Decl{Var: f, Init: &Convert{X: &VarRef{y}, T: F32Type}},
		&Assign{Dst: &VarRef{y}, Value: &Convert{X: &VarRef{f}, T: I16Type}},
		&If{Cond: &Binary{Op: OpLt, X: &VarRef{y}, Y: &Const{T: I16Type, Bits: 0xffffff85}, T: BoolType}, Then: &Block{}},
	}}}
	// A second Widen, as a kernel whose functions are shared may get,
	// finds nothing more to do.
	for range 2 {
		Widen(k)
		checkWidened(t, k)
	}
}

func checkWidened(t *testing.T, k *Kernel) {
	t.Helper()
	if bad := narrowOps(k.Body); len(bad) > 0 {
		t.Fatalf("narrow operations left: %v", bad)
	}
	a := k.Body.Stmts[1].(*Assign).Value
	c, ok := a.(*Convert)
	if !ok || c.T != U8Type {
		t.Fatalf("x + 200 widened to %#v, want a conversion back to uint8", a)
	}
	if b, ok := c.X.(*Binary); !ok || b.T != U32Type || b.Y.(*Const).Bits != 200 {
		t.Fatalf("x + 200 computed as %#v, want a uint32 sum", c.X)
	}
	cmp := k.Body.Stmts[5].(*If).Cond.(*Binary)
	if cmp.Y.(*Const).T != I32Type || cmp.Y.(*Const).Bits != 0xffffff85 {
		t.Fatalf("the int16 constant -123 became %#v, want the int32 of its bits", cmp.Y)
	}
}

func TestExtendBits(t *testing.T) {
	for _, c := range []struct {
		v    uint32
		t    *Basic
		want uint32
	}{
		{0x1ff, U8Type, 0xff}, {0x180, I8Type, 0xffffff80}, {0x7f, I8Type, 0x7f},
		{0x18000, I16Type, 0xffff8000}, {0xfffe0001, U16Type, 1}, {0xdeadbeef, U32Type, 0xdeadbeef},
	} {
		if got := ExtendBits(c.v, c.t); got != c.want {
			t.Errorf("ExtendBits(%#x, %v) = %#x, want %#x", c.v, c.t, got, c.want)
		}
	}
}
