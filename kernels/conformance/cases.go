package conformance

import (
	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// Cases returns the suite: one case per kernel of the package that has
// code (the refused template member is checked apart). Each call returns
// fresh cases.
func Cases() []*gputest.Case {
	var cs []*gputest.Case
	for _, group := range [][]*gputest.Case{
		gridCases(), memoryCases(), integerCases(), floatCases(),
		controlCases(), sharedCases(), atomicCases(), templateCases(), portedCases(), bitsCases(), functionCases(),
		genericCases(), arrayCases(), narrowCases(), float16Cases(), wideCases(),
	} {
		cs = append(cs, group...)
	}
	return cs
}

// line returns the grid of one-dimensional blocks of size block that
// covers n work-items.
func line(n, block uint32) xpu.Dim3 { return xpu.Dim3{X: xpu.GroupsFor(n, block)} }

// buf returns the i-th argument of a launch as a buffer of T.
func buf[T any](args []any, i int) *gpu.Buffer[T] { return gputest.At[*gpu.Buffer[T]](args, i) }
