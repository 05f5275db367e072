// Package librarytest is the conformance suite of the kernel library: the
// cases of every library package's kernels, as each package's cases
// package holds them and that package's tests run them (matmultest,
// blastest, reducetest, sorttest, nntest, quanttest, layouttest), in one
// list, for a program that checks the library on a device outside go test
// (the browser demo). It sits above those packages and adds no case of
// its own.
package librarytest

import (
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/blas/blastest"
	"github.com/goxpu/xpu/kernels/layout/layouttest"
	"github.com/goxpu/xpu/kernels/matmul/matmultest"
	"github.com/goxpu/xpu/kernels/nn/nntest"
	"github.com/goxpu/xpu/kernels/quant/quanttest"
	"github.com/goxpu/xpu/kernels/reduce/reducetest"
	"github.com/goxpu/xpu/kernels/sort/sorttest"
)

// Cases returns the cases of every library package, package by package.
// short keeps the small shapes, as the packages' tests do in short mode:
// for a device or a runner where the reference runner's goroutine per
// work-item is slow (the browser).
func Cases(short bool) []*gputest.Case {
	var cs []*gputest.Case
	for _, p := range [][]*gputest.Case{
		matmultest.Cases(short),
		blastest.Cases(short),
		reducetest.Cases(short),
		sorttest.Cases(short),
		nntest.Cases(),
		quanttest.Cases(short),
		layouttest.Cases(),
	} {
		cs = append(cs, p...)
	}
	return cs
}
