// Package nokernels has no kernels: it gets no generated file.
package nokernels

// Twice is no kernel.
func Twice(x uint32) uint32 { return 2 * x }
