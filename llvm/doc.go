// Package llvm is a syntax tree for the part of LLVM 19's textual IR that
// the host lowering writes, a builder that appends instructions to it, and
// its printer.
//
// Lowerings build a [Module] of globals and functions whose blocks hold
// instructions, through a [Builder] that names every value (b.Add(x, y)),
// and print it with [Fprint] or [Sprint]; they never paste IR text. The
// printer owns every spelling decision: floating-point constants are
// printed exactly (LLVM's 0x hexadecimal doubles), names are quoted where
// LLVM needs it, and one tree always prints as the same text. Local names
// are unique within a function because the builder hands them out.
//
// Layering: this package knows no kernel IR, no Go syntax and no tool; it
// imports only the standard library.
package llvm
