package conformance

import "github.com/goxpu/xpu"

// Template kernels: a kernel with a comptime parameter, instantiated into
// members, one of which is refused by its requires clause.

// ScaleParams is the comptime configuration of Scale.
type ScaleParams struct {
	Factor int32 // the multiplier; must be positive
	Offset int32 // added after scaling
}

// Scale computes y = y*Factor + Offset with a compile-time factor and
// offset. ScaleNeg is refused: its factor is not positive.
//
//xpu:kernel block=64
//xpu:instance Scale2 ScaleParams{Factor: 2, Offset: 1}
//xpu:instance Scale3 ScaleParams{Factor: 3, Offset: -7}
//xpu:instance ScaleNeg ScaleParams{Factor: -1, Offset: 0}
//xpu:requires c.Factor > 0
func Scale(t xpu.Thread, c ScaleParams, y []int32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = y[i]*c.Factor + c.Offset
	}
}
