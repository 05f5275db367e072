package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// scaleInputs makes the inputs of a member of Scale.
func scaleInputs(r *rand.Rand) gputest.Inputs {
	const n = 1000
	return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Buffer(gputest.AnyInts(r, n)), gputest.Scalar(uint32(n))}}
}

func templateCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: Scale2Kernel, Tol: gputest.Exact, Setup: scaleInputs,
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchScale2(s, g, buf[int32](a, 0), gputest.At[uint32](a, 1))
		},
	}, {
		Kernel: Scale3Kernel, Tol: gputest.Exact, Setup: scaleInputs,
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchScale3(s, g, buf[int32](a, 0), gputest.At[uint32](a, 1))
		},
	}}
}

// TemplateLauncherCases are the members of Scale launched through the
// template's launcher, LaunchScale, which takes the comptime value: a
// host loop over the values needs no launcher per member.
func TemplateLauncherCases() []*gputest.Case {
	var cases []*gputest.Case
	for _, m := range []struct {
		k *gpu.Kernel
		c ScaleParams
	}{{Scale2Kernel, ScaleParams{Factor: 2, Offset: 1}}, {Scale3Kernel, ScaleParams{Factor: 3, Offset: -7}}} {
		cases = append(cases, &gputest.Case{
			Kernel: m.k, Label: m.k.Name()[len("github.com/goxpu/xpu/kernels/conformance."):] + " by LaunchScale",
			Tol: gputest.Exact, Setup: scaleInputs,
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				return LaunchScale(s, g, m.c, buf[int32](a, 0), gputest.At[uint32](a, 1))
			},
		})
	}
	return cases
}
