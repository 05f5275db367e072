package wgsl

// This file walks a tree in the manner of go/ast's Inspect.

// Inspect calls f for n and, while f returns true, for the declarations,
// statements and expressions inside it, depth first in the order they are
// printed. Types are not entered. Nil children are skipped.
func Inspect(n Node, f func(Node) bool) {
	if isNil(n) || !f(n) {
		return
	}
	each := func(ns ...Node) {
		for _, c := range ns {
			Inspect(c, f)
		}
	}
	switch n := n.(type) {
	case *Module:
		for _, d := range n.Decls {
			Inspect(d, f)
		}
	case *GlobalVar:
		each(n.Init)
	case *Const:
		each(n.Value)
	case *Func:
		each(n.Body)
	case *Block:
		for _, s := range n.Stmts {
			Inspect(s, f)
		}
	case *VarDecl:
		each(n.Init)
	case *LetDecl:
		each(n.Init)
	case *Assign:
		each(n.LHS, n.RHS)
	case *CompoundAssign:
		each(n.LHS, n.RHS)
	case *If:
		each(n.Cond, n.Then, n.Else)
	case *Loop:
		each(n.Body, n.Continuing, n.BreakIf)
	case *For:
		each(n.Init, n.Cond, n.Update, n.Body)
	case *Return:
		each(n.Value)
	case *CallStmt:
		each(n.Call)
	case *Unary:
		each(n.X)
	case *Binary:
		each(n.X, n.Y)
	case *Call:
		for _, a := range n.Args {
			Inspect(a, f)
		}
	case *Construct:
		for _, a := range n.Args {
			Inspect(a, f)
		}
	case *Bitcast:
		each(n.X)
	case *Index:
		each(n.X, n.Index)
	case *Member:
		each(n.X)
	}
}

// isNil reports whether n is nil or a nil pointer in an interface, as an
// optional field (If.Else, Loop.Continuing, For.Init) may hold.
func isNil(n Node) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *Block:
		return n == nil
	case *Call:
		return n == nil
	}
	return false
}
