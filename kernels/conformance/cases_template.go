package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// scaleMember returns the reference of a member of Scale: Scale with the
// member's comptime value bound.
func scaleMember(c ScaleParams) func(t xpu.Thread, y []int32, n uint32) {
	return func(t xpu.Thread, y []int32, n uint32) { Scale(t, c, y, n) }
}

// scaleInputs makes the inputs of a member of Scale.
func scaleInputs(r *rand.Rand) Inputs {
	const n = 1000
	return Inputs{Groups: line(n, 64), Args: []Arg{Buffer(anyInts(r, n)), Scalar(uint32(n))}}
}

func templateCases() []*Case {
	return []*Case{{
		Kernel: Scale2Kernel, Ref: scaleMember(ScaleParams{Factor: 2, Offset: 1}), Tol: Exact, Setup: scaleInputs,
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchScale2(s, g, buf[int32](a, 0), arg[uint32](a, 1))
		},
	}, {
		Kernel: Scale3Kernel, Ref: scaleMember(ScaleParams{Factor: 3, Offset: -7}), Tol: Exact, Setup: scaleInputs,
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchScale3(s, g, buf[int32](a, 0), arg[uint32](a, 1))
		},
	}}
}
