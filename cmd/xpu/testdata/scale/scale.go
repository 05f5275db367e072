// Package scale is a kernel package for the tests of xpu gen: a template
// with one member refused by its requires clause.
package scale

import "github.com/goxpu/xpu"

// Params is the comptime configuration of Scale.
type Params struct{ Factor int32 }

// Scale multiplies y by a compile-time factor.
//
//xpu:kernel block=64
//xpu:instance Twice Params{Factor: 2}
//xpu:instance Negate Params{Factor: -1}
//xpu:requires c.Factor > 0
func Scale(t xpu.Thread, c Params, y []int32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] *= c.Factor
	}
}
