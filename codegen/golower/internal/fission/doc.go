// Package fission holds kernels whose locals live across barriers: each
// declares a local (a scalar, a struct, a private array, an array of
// structs) before a loop or an if that contains a barrier, and uses it
// whole, in part, or assigns it inside. The Go lowering splits such a body
// at its barriers (loop fission) and must keep every such local, whatever
// its kind, in per-work-item storage. Its tests run every kernel on every
// backend present against the reference runner.
package fission

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
