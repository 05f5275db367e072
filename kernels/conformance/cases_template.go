package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// scaleInputs makes the inputs of a member of Scale.
func scaleInputs(r *rand.Rand) Inputs {
	const n = 1000
	return Inputs{Groups: line(n, 64), Args: []Arg{Buffer(anyInts(r, n)), Scalar(uint32(n))}}
}

func templateCases() []*Case {
	return []*Case{{
		Kernel: Scale2Kernel, Tol: Exact, Setup: scaleInputs,
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchScale2(s, g, buf[int32](a, 0), arg[uint32](a, 1))
		},
	}, {
		Kernel: Scale3Kernel, Tol: Exact, Setup: scaleInputs,
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchScale3(s, g, buf[int32](a, 0), arg[uint32](a, 1))
		},
	}}
}
