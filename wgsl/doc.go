// Package wgsl is a syntax tree for the part of WGSL that compute shaders
// use, and its printer.
//
// Lowerings build a [Module] of nodes (declarations, statements,
// expressions and types) and print it with [Fprint] or [Sprint]; they never
// paste WGSL text together. The printer owns every spelling decision:
//
//   - Binary expressions nested in other expressions are parenthesized, so
//     WGSL's rules against mixing bitwise, shift, comparison and logical
//     operators without parentheses never apply.
//   - Literals are exact: every WGSL compiler reads back the same bits.
//     An f32 is printed as its shortest decimal when that decimal's value
//     is exactly the float32's (1.0f, 0.5f, 1e6f), else as a hexadecimal
//     float (0x1.99999ap-4f), always with the 'f' suffix. Negative zero,
//     which has no literal, is printed as a bitcast of its bits, and so is
//     the most negative i32, since -2147483648i does not parse. NaNs and
//     infinities have no literal and no const-expression Tint accepts, so
//     the printer refuses them: a lowering builds them at run time.
//   - Output is deterministic: one tree always prints as the same text.
//
// The printer checks that identifiers are well formed and that the tree
// has no missing parts, and reports a problem as an error rather than
// printing invalid WGSL. It does not type-check.
//
// Layering: this package knows no IR and no Go syntax; it imports only the
// standard library.
package wgsl
