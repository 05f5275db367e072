package wgsl

// Stmt is a statement.
type Stmt interface {
	Node
	stmtNode()
}

// Block is { Stmts }.
type Block struct{ Stmts []Stmt }

// VarDecl is var Name: Type = Init; (Type or Init may be nil, not both).
type VarDecl struct {
	Name string
	Type Type
	Init Expr
}

// LetDecl is let Name: Type = Init; (Type may be nil).
type LetDecl struct {
	Name string
	Type Type
	Init Expr
}

// Assign is LHS = RHS; an LHS of nil is the phony assignment _ = RHS;.
type Assign struct {
	LHS, RHS Expr
}

// CompoundAssign is LHS Op= RHS; Op is an arithmetic, bitwise or shift
// operator.
type CompoundAssign struct {
	LHS Expr
	Op  BinaryOp
	RHS Expr
}

// If is if Cond Then else Else; Else is nil, a *Block or an *If (printed
// as else if).
type If struct {
	Cond Expr
	Then *Block
	Else Stmt
}

// Loop is loop { Body continuing { Continuing break if BreakIf; } }.
// Continuing and BreakIf may be nil; the continuing block is printed when
// either is present.
type Loop struct {
	Body       *Block
	Continuing *Block
	BreakIf    Expr
}

// For is for (Init; Cond; Update) Body. Init is nil or a *VarDecl,
// *LetDecl or *Assign; Update is nil or an *Assign or *CompoundAssign;
// Cond may be nil. A continue in Body runs Update.
type For struct {
	Init   Stmt
	Cond   Expr
	Update Stmt
	Body   *Block
}

// Break is break;.
type Break struct{}

// Continue is continue;.
type Continue struct{}

// Return is return Value; (Value may be nil).
type Return struct{ Value Expr }

// CallStmt is a call evaluated for its effect: Call;.
type CallStmt struct{ Call *Call }

func (*Block) node()          {}
func (*VarDecl) node()        {}
func (*LetDecl) node()        {}
func (*Assign) node()         {}
func (*CompoundAssign) node() {}
func (*If) node()             {}
func (*Loop) node()           {}
func (*For) node()            {}
func (*Break) node()          {}
func (*Continue) node()       {}
func (*Return) node()         {}
func (*CallStmt) node()       {}

func (*Block) stmtNode()          {}
func (*VarDecl) stmtNode()        {}
func (*LetDecl) stmtNode()        {}
func (*Assign) stmtNode()         {}
func (*CompoundAssign) stmtNode() {}
func (*If) stmtNode()             {}
func (*For) stmtNode()            {}
func (*Loop) stmtNode()           {}
func (*Break) stmtNode()          {}
func (*Continue) stmtNode()       {}
func (*Return) stmtNode()         {}
func (*CallStmt) stmtNode()       {}
