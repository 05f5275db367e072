// Package wgslgen lowers a kernel of the IR (package codegen/ir) to WGSL
// (package wgsl): [Lower] builds the syntax tree, [Generate] prints it.
//
// The module it builds follows the runtime contract of gpu/driver: entry
// point "main" with the kernel's pinned @workgroup_size; buffer parameters
// in order at @group(0) @binding(0..nb-1) (var<storage, read> when the
// kernel only loads them, var<storage, read_write> otherwise, an array of
// atomics when an atomic touches them); the scalar parameters as one
// uniform struct at the binding after the last buffer, each at its byte
// offset Param.Binding. Shared arrays are var<workgroup> arrays. Every name
// from the kernel is mangled with a prefix by kind (b_ buffers, s_ shared
// arrays, v_ variables, f_ functions, S_ structs, m_ fields, p_ uniforms),
// so no kernel name can collide with a WGSL keyword, a builtin or a name
// the lowering introduces (those start with xpu_).
//
// Go's semantics are kept wherever WGSL's differ, or the kernel is
// refused; docs/language.md, "Where WGSL differs from Go", lists each case.
// Integer division and remainder, shifts by variable amounts, float to
// integer conversion and float Min/Max go through small helper functions
// emitted into the module; atomics the device lacks (strong
// compare-exchange, float32 add) become compare-exchange loops. The wave
// verbs, outside the native tier's one-builtin ones, call one helper per
// family and operand type that takes the verb as an operand
// (wavehelper.go), so a module holds one body per family, not one per call.
//
// What it prints is accepted by both WGSL compilers, naga (wgpu-native)
// and Tint (Dawn, browsers): no expression nests deeper than a bound (a
// deeper part is evaluated into a let first, in Go's order), long else-if
// chains are spelled flat, and no const-expression has a value Tint
// refuses (operations on constants are folded with Go's semantics; an
// infinity, a NaN or a negative zero is made at run time). Statements
// nested deeper than a bound and private arrays larger than one are
// refused by name, since no lowering would make the drivers take them.
//
// Errors are *Error values naming the rule in brackets and the kernel's
// source position, e.g. "k.go:12:3: [xpu-atomic-struct] ...".
//
// Layering: this package knows the IR and the wgsl syntax tree; it knows
// no go/ast and no runtime.
package wgslgen
