package schema

// This file defines a kernel's parameters as generated code declares
// them.

// ParamKind tells buffers from scalars.
type ParamKind int

const (
	ParamBuffer ParamKind = iota // a slice parameter: gpu.Buffer[T]
	ParamScalar                  // a scalar parameter: a uniform
)

// Access is how a kernel uses a buffer, inferred from its body.
type Access int

const (
	AccessNone      Access = iota // never touched
	AccessRead                    // loaded only
	AccessWrite                   // stored only
	AccessReadWrite               // loaded and stored
	AccessAtomic                  // touched by at least one atomic
)

func (a Access) String() string {
	if a < AccessNone || a > AccessAtomic {
		return "unknown"
	}
	return [...]string{"none", "read", "write", "read-write", "atomic"}[a]
}

// TypeName identifies a Go type as reflect does: the import path of the
// package that defines it (PkgPath) and its name. A predeclared type has
// an empty Pkg ("float32"), so that two packages of one name cannot
// collide.
type TypeName struct {
	Pkg  string // import path; "" for a predeclared type
	Name string // the type's name in its package
}

// String spells n as Go names it from outside its package, qualified by
// the import path: "float32", "example.com/kernels/conformance.Particle".
func (n TypeName) String() string {
	if n.Pkg == "" {
		return n.Name
	}
	return n.Pkg + "." + n.Name
}

// Param is one parameter of a kernel after its Thread.
type Param struct {
	Name string
	Kind ParamKind
	// Type is the Go type of the scalar or of the buffer's element.
	Type   TypeName
	Size   int    // bytes of the scalar or of one element
	Access Access // buffers only
	// Binding is the binding index of a buffer, or the byte offset of a
	// scalar in the uniform block.
	Binding int
	// MinLen, for a buffer, names the scalar parameters (uint32 or int32)
	// whose product is the fewest elements the buffer must hold; a launch
	// with a shorter buffer is refused. Nil: no bound is declared.
	MinLen []string
}
