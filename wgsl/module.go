package wgsl

// Node is any printable part of the tree: a *Module, a Decl, a Stmt, an
// Expr or a Type.
type Node interface{ node() }

// Module is a WGSL module: its declarations, printed in order.
type Module struct {
	Enable []string // extensions named in enable directives, e.g. "subgroups"
	Decls  []Decl
}

// Decl is a module-scope declaration: a *Struct, *GlobalVar, *Const or
// *Func.
type Decl interface {
	Node
	declNode()
}

// Struct declares a struct type.
type Struct struct {
	Doc    string // comment printed above the declaration; may be empty
	Name   string
	Fields []*Field
}

// Field is a struct member.
type Field struct {
	Name  string
	Type  Type
	Attrs []*Attr
}

// AddressSpace is the address space of a module-scope variable.
type AddressSpace int

// The address spaces.
const (
	Private AddressSpace = iota
	Workgroup
	Uniform
	Storage
)

func (s AddressSpace) String() string {
	return [...]string{"private", "workgroup", "uniform", "storage"}[s]
}

// AccessMode is the access mode of a storage variable.
type AccessMode int

// The access modes. DefaultAccess prints nothing.
const (
	DefaultAccess AccessMode = iota
	Read
	ReadWrite
)

func (a AccessMode) String() string { return [...]string{"", "read", "read_write"}[a] }

// GlobalVar declares a module-scope variable:
// Attrs var<Space, Access> Name: Type = Init;
type GlobalVar struct {
	Doc    string
	Attrs  []*Attr // e.g. GroupAttr(0), BindingAttr(i)
	Space  AddressSpace
	Access AccessMode // storage only
	Name   string
	Type   Type
	Init   Expr // private only; may be nil
}

// Const declares a module-scope constant: const Name: Type = Value;
type Const struct {
	Doc   string
	Name  string
	Type  Type // may be nil
	Value Expr
}

// Func declares a function. Entry points carry ComputeAttr and
// WorkgroupSizeAttr.
type Func struct {
	Doc    string
	Attrs  []*Attr
	Name   string
	Params []*Param
	Result Type // nil when the function returns nothing
	Body   *Block
}

// Param is a function parameter, with attributes such as BuiltinAttr.
type Param struct {
	Attrs []*Attr
	Name  string
	Type  Type
}

// Attr is an attribute: @Name or @Name(Args...).
type Attr struct {
	Name string
	Args []Expr
}

// ComputeAttr returns @compute.
func ComputeAttr() *Attr { return &Attr{Name: "compute"} }

// WorkgroupSizeAttr returns @workgroup_size(x, y, z).
func WorkgroupSizeAttr(x, y, z uint32) *Attr {
	return &Attr{Name: "workgroup_size", Args: []Expr{IntLit(int(x)), IntLit(int(y)), IntLit(int(z))}}
}

// BuiltinAttr returns @builtin(name), e.g. @builtin(global_invocation_id).
func BuiltinAttr(name string) *Attr {
	return &Attr{Name: "builtin", Args: []Expr{&Ident{Name: name}}}
}

// GroupAttr returns @group(g).
func GroupAttr(g int) *Attr { return &Attr{Name: "group", Args: []Expr{IntLit(g)}} }

// BindingAttr returns @binding(b).
func BindingAttr(b int) *Attr { return &Attr{Name: "binding", Args: []Expr{IntLit(b)}} }

func (*Module) node()    {}
func (*Struct) node()    {}
func (*GlobalVar) node() {}
func (*Const) node()     {}
func (*Func) node()      {}

func (*Struct) declNode()    {}
func (*GlobalVar) declNode() {}
func (*Const) declNode()     {}
func (*Func) declNode()      {}
