package llvm

// This file defines the module and its globals, functions and blocks.

// Module is one LLVM module.
type Module struct {
	SourceFilename string
	Triple         string
	DataLayout     string
	Globals        []*Global
	Funcs          []*Func
	// AttrGroups are the function attribute groups (#0, #1, ...) that
	// functions name by index.
	AttrGroups []AttrGroup
}

// AttrGroup is a set of function attributes: bare ones (nounwind) and
// string ones ("target-cpu"="x86-64-v3"), in the order given.
type AttrGroup struct {
	Attrs []Attr
}

// Attr is a function attribute: Key alone (nounwind, Value "") or a
// string attribute "Key"="Value" (Quoted true).
type Attr struct {
	Key, Value string
	Quoted     bool
}

// Linkage is a global's linkage.
type Linkage string

// The linkages.
const (
	External Linkage = ""
	Internal Linkage = "internal"
	Private  Linkage = "private"
)

// Visibility is a global's visibility.
type Visibility string

// The visibilities.
const (
	Default   Visibility = ""
	Hidden    Visibility = "hidden"
	Protected Visibility = "protected"
)

// Global is a global variable: a constant when Constant is set.
type Global struct {
	Name     string
	Linkage  Linkage
	Constant bool
	T        Type
	Init     Value // nil for an external declaration
	Align    int
	Space    int // the address space (a GPU's shared memory: 3)
}

// Param is a function parameter with its attributes (noalias,
// nocapture, readonly, ...).
type Param struct {
	*Local
	Attrs []string
}

// Func is a function definition, or a declaration when it has no blocks.
type Func struct {
	Name       string
	Linkage    Linkage
	Visibility Visibility
	Ret        Type
	Params     []*Param
	// CC is the calling convention ("" for C's; ptx_kernel,
	// amdgpu_kernel for a GPU kernel's entry).
	CC string
	// AttrGroup indexes Module.AttrGroups; -1 for none.
	AttrGroup int
	Blocks    []*Block
	names     map[string]int // the builder's next suffix per name
}

// Block is a basic block.
type Block struct {
	Name  string
	Insts []Inst
}

// Ref returns the address of g.
func (g *Global) Ref() *GlobalRef { return &GlobalRef{Name: g.Name, Space: g.Space} }

// NewFunc adds a function to m with the named parameters of the given
// types; it has no attribute group until one is set.
func (m *Module) NewFunc(name string, ret Type, params ...*Param) *Func {
	f := &Func{Name: name, Ret: ret, Params: params, AttrGroup: -1, names: map[string]int{}}
	for _, p := range params {
		f.names[p.Name] = 1
	}
	m.Funcs = append(m.Funcs, f)
	return f
}

// Declare adds a declaration of an external function (an intrinsic, a
// libm routine) unless m has one of that name.
func (m *Module) Declare(name string, ret Type, params ...Type) {
	for _, f := range m.Funcs {
		if f.Name == name {
			return
		}
	}
	ps := make([]*Param, len(params))
	for i, t := range params {
		ps[i] = &Param{Local: &Local{T: t}}
	}
	m.Funcs = append(m.Funcs, &Func{Name: name, Ret: ret, Params: ps, AttrGroup: -1})
}

// AddAttrGroup adds a group and returns its index.
func (m *Module) AddAttrGroup(g AttrGroup) int {
	m.AttrGroups = append(m.AttrGroups, g)
	return len(m.AttrGroups) - 1
}

// NewParam returns a parameter of the given name, type and attributes.
func NewParam(name string, t Type, attrs ...string) *Param {
	return &Param{Local: &Local{Name: name, T: t}, Attrs: attrs}
}

// fresh returns a name unique in f, hint itself when it is free.
func (f *Func) fresh(hint string) string {
	if hint == "" {
		hint = "v"
	}
	n := f.names[hint]
	f.names[hint] = n + 1
	if n == 0 && !endsInDigit(hint) {
		return hint
	}
	name := hint + "." + itoa(n)
	for f.names[name] != 0 {
		n++
		name = hint + "." + itoa(n)
	}
	f.names[name] = 1
	f.names[hint] = n + 1
	return name
}

func endsInDigit(s string) bool { return s[len(s)-1] >= '0' && s[len(s)-1] <= '9' }

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}

// NewBlock appends a block to f with a unique name made from hint.
func (f *Func) NewBlock(hint string) *Block {
	b := &Block{Name: f.fresh(hint)}
	f.Blocks = append(f.Blocks, b)
	return b
}

// Terminated reports whether b ends in a terminator.
func (b *Block) Terminated() bool {
	return len(b.Insts) > 0 && terminates(b.Insts[len(b.Insts)-1])
}
