package ir

// This file walks IR trees.

// WalkExpr calls fn on x and, while fn returns true, on its operands,
// depth first, operands in evaluation order.
func WalkExpr(x Expr, fn func(Expr) bool) {
	if x == nil || !fn(x) {
		return
	}
	for _, y := range Operands(x) {
		WalkExpr(y, fn)
	}
}

// Operands returns the direct operands of x in evaluation order.
func Operands(x Expr) []Expr {
	switch e := x.(type) {
	case *Index:
		return []Expr{e.X, e.Index}
	case *FieldOf:
		return []Expr{e.X}
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.X, e.Y}
	case *Convert:
		return []Expr{e.X}
	case *Bitcast:
		return []Expr{e.X}
	case *CallBuiltin:
		return e.Args
	case *Call:
		return e.Args
	case *Atomic:
		return append([]Expr{e.Ptr}, e.Args...)
	case *Wave:
		return e.Args
	}
	return nil
}

// WalkStmts calls fn on every statement of b, nested ones included, in
// order; when fn returns false the statement's children are skipped.
func WalkStmts(b *Block, fn func(Stmt) bool) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		walkStmt(s, fn)
	}
}

func walkStmt(s Stmt, fn func(Stmt) bool) {
	if !fn(s) {
		return
	}
	switch s := s.(type) {
	case *Block:
		WalkStmts(s, fn)
	case *If:
		WalkStmts(s.Then, fn)
		WalkStmts(s.Else, fn)
	case *Loop:
		WalkStmts(s.Body, fn)
		WalkStmts(s.Post, fn)
	}
}

// StmtExprs returns the expressions a statement evaluates itself (not
// those of nested statements).
func StmtExprs(s Stmt) []Expr {
	var out []Expr
	add := func(x Expr) {
		if x != nil {
			out = append(out, x)
		}
	}
	switch s := s.(type) {
	case *Decl:
		add(s.Init)
	case *Assign:
		add(s.Dst)
		add(s.Value)
	case *If:
		add(s.Cond)
	case *Loop:
		add(s.Cond)
	case *Return:
		add(s.Value)
	case *ExprStmt:
		add(s.X)
	}
	return out
}

// LeavingBranch returns the first Break or Continue of stmts, in order,
// that leaves the loop around them (one not inside a Loop of stmts), or
// nil. The CPU lowerings refuse one in a segment between barriers: the
// loop it would leave runs around the segment's loop over the work-items.
func LeavingBranch(stmts []Stmt) Stmt {
	for _, s := range stmts {
		var found Stmt
		switch s := s.(type) {
		case *Break, *Continue:
			return s
		case *Block:
			found = LeavingBranch(s.Stmts)
		case *If:
			if found = LeavingBranch(s.Then.Stmts); found == nil && s.Else != nil {
				found = LeavingBranch(s.Else.Stmts)
			}
		}
		if found != nil {
			return found
		}
	}
	return nil
}

// PrivateBytes returns the private memory per work-item k's variables
// take at most: those its body and functions declare, and the functions'
// parameters.
func PrivateBytes(k *Kernel) int {
	n := declBytes(k.Body)
	for _, f := range k.Funcs {
		n += declBytes(f.Body)
		for _, p := range f.Params {
			n += p.Type.Size()
		}
	}
	return n
}

func declBytes(b *Block) int {
	n := 0
	WalkStmts(b, func(s Stmt) bool {
		if d, ok := s.(*Decl); ok {
			n += d.Var.Type.Size()
		}
		return true
	})
	return n
}
