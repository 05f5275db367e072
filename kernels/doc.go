// Package kernels is the front of the kernel library: operations on
// tensors (package tensor), each run by the kernel the dispatch
// registry selects for its operands' formats and layouts on the
// stream's device.
//
//	err := kernels.MatMul(s, nil, c, a, b) // c = a·b
//
// [Registry] holds the library's automatic set: the portable kernels of
// the packages under kernels/ (kernels/matmul, ...), written in the
// kernel language, and the adapters between descriptors. A program that
// registers kernels of its own on it before its first use holds those
// alone (dispatch.Registry.RegisterAutomatic adds the library's back).
// docs/support.md is the support matrix the registrations make, which a
// test keeps current.
//
// Layering: the front imports the library's packages and the registry;
// they do not import it.
package kernels
