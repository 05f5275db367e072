package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// functionCases checks the kernels of functions.go.
func functionCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: StagedSumsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const groups, tiles = 5, 3
			n := groups*tiles*stageBlock - 40
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
				gputest.Poisoned[float32](groups * stageBlock), gputest.Buffer(gputest.Floats(r, n, -1, 1)),
				gputest.Scalar(uint32(tiles)), gputest.Scalar(r.Uint32N(3)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchStagedSums(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2), gputest.At[uint32](a, 3), gputest.At[uint32](a, 4))
		},
	}}
}
