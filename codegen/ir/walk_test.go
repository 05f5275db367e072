package ir

import "testing"

func TestLeavingBranch(t *testing.T) {
	brk, cont := &Break{Pos: Pos{Line: 1}}, &Continue{Pos: Pos{Line: 2}}
	cond := &Const{T: BoolType, Bits: 1}
	inLoop := &Loop{Body: &Block{Stmts: []Stmt{brk}}}
	for _, c := range []struct {
		name  string
		stmts []Stmt
		want  Stmt
	}{
		{"none", []Stmt{&Barrier{}}, nil},
		{"inside a loop of its own", []Stmt{inLoop}, nil},
		{"plain", []Stmt{&Barrier{}, cont}, cont},
		{"in a block", []Stmt{&Block{Stmts: []Stmt{brk}}}, brk},
		{"in an else", []Stmt{&If{Cond: cond, Then: &Block{}, Else: &Block{Stmts: []Stmt{cont}}}}, cont},
		{"the first in order", []Stmt{inLoop, &If{Cond: cond, Then: &Block{Stmts: []Stmt{brk}}}, cont}, brk},
	} {
		if got := LeavingBranch(c.stmts); got != c.want {
			t.Errorf("%s: LeavingBranch = %v, want %v", c.name, got, c.want)
		}
	}
}
