package conformance

import "github.com/goxpu/xpu"

// Cases returns the suite: one case per kernel of the package that has
// code (the refused template member is checked apart). Each call returns
// fresh cases.
func Cases() []*Case {
	var cs []*Case
	for _, group := range [][]*Case{
		gridCases(), memoryCases(), integerCases(), floatCases(),
		controlCases(), sharedCases(), atomicCases(), templateCases(),
	} {
		cs = append(cs, group...)
	}
	return cs
}

// line returns the grid of one-dimensional blocks of size block that
// covers n work-items.
func line(n, block uint32) xpu.Dim3 { return xpu.Dim3{X: xpu.GroupsFor(n, block)} }
