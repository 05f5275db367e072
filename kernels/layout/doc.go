// Package layout moves a tensor's elements between layouts, in the
// kernel language: Gather copies a strided float32 tensor of up to four
// dimensions (a transposed matrix, a matrix with padded rows, a column
// of one) into a contiguous one, which the library's registry inserts
// before a kernel that takes contiguous operands only; Copy and
// CopyWords copy contiguous elements, the reference point of the
// library's bandwidth benchmarks.
//
// Layering: the kernels import only package xpu; the host entry points
// the runtime and package tensor; xpu_gen.go, their generated code (xpu
// gen), imports xpu and the runtime.
package layout

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen
