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
//   - Literals are exact. An f32 is printed as the shortest decimal that
//     rounds back to the same float32, always with a '.' or an exponent and
//     the 'f' suffix; values that have no WGSL literal (NaN, the
//     infinities, negative zero) are printed as a bitcast of their bits;
//     the most negative i32 is printed as a bitcast too, since
//     -2147483648i does not parse.
//   - Output is deterministic: one tree always prints as the same text.
//
// The printer checks that identifiers are well formed and that the tree
// has no missing parts, and reports a problem as an error rather than
// printing invalid WGSL. It does not type-check.
//
// Layering: this package knows no IR and no Go syntax; it imports only the
// standard library.
package wgsl
