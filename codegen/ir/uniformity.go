package ir

// Uniformity is the result of the uniformity analysis (see DESIGN.md): a
// value is workgroup-uniform when it depends only on scalar parameters,
// group coordinates and counts, block sizes, constants and other uniform
// values; control flow is uniform when every condition guarding it is
// uniform and no early Return/Break/Continue under a non-uniform condition
// precedes it. One analysis serves the WGSL barrier rule, the emulated
// wave tier and the CPU lowerings' loop fission (package fission).
type Uniformity struct {
	// Value reports the expressions that are workgroup-uniform.
	Value map[Expr]bool
	// Flow reports the statements that run in workgroup-uniform control flow.
	Flow map[Stmt]bool
}
