package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// smallInts are float32 values of integers in -8..8, whose products and
// sums of a few hundred terms are exact in any order, fused or not.
func smallInts(r *rand.Rand, n int) []float32 {
	return gputest.FillFrom(n, func(int) float32 { return float32(r.IntN(17) - 8) })
}

// stars returns n stars of small integer components.
func stars(r *rand.Rand, n int) []Star {
	ss := make([]Star, n)
	for i := range ss {
		f := smallInts(r, 12)
		s := &ss[i]
		copy(s.Pos[:], f[0:4])
		copy(s.Vel[:], f[4:8])
		copy(s.Spin[:], f[8:11])
		s.Mass, s.Id, s.Pad = f[11], r.Uint32(), [2]uint32{r.Uint32(), r.Uint32()}
	}
	return ss
}

// arrayCases checks the kernels of arrays.go.
func arrayCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: TransposeTiledKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			// Edges of partial tiles on both sides.
			const rows, cols = 75, 41
			return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(cols, tileDim), Y: xpu.GroupsFor(rows, tileDim)}, Args: []gputest.Arg{
				gputest.Poisoned[float32](rows * cols), gputest.Buffer(gputest.Floats(r, rows*cols, -1, 1)),
				gputest.Scalar(uint32(rows)), gputest.Scalar(uint32(cols)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchTransposeTiled(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: Blocked4x4Kernel, Tol: gputest.Tolerance{Name: "products and sums of small integers are exact in any order"},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const m, n, k = 48, 72, 37
			return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(n/4, 8), Y: xpu.GroupsFor(m/4, 8)}, Args: []gputest.Arg{
				gputest.Poisoned[float32](m * n), gputest.Buffer(smallInts(r, m*k)), gputest.Buffer(smallInts(r, k*n)),
				gputest.Scalar(uint32(m)), gputest.Scalar(uint32(n)), gputest.Scalar(uint32(k)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchBlocked4x4(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2),
				gputest.At[uint32](a, 3), gputest.At[uint32](a, 4), gputest.At[uint32](a, 5))
		},
	}, {
		Kernel: ArrayCopiesKernel, Tol: gputest.Tolerance{Name: "copies, doublings and a sum of three small integers: exact"},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 200
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](32 * n), gputest.Buffer(smallInts(r, 16*n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchArrayCopies(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: StarsKernel, Tol: gputest.Tolerance{Name: "small integers plus halves of small integers: exact"},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 300
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Buffer(stars(r, n)), gputest.Poisoned[[4]float32](n), gputest.Scalar(float32(0.5)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchStars(s, g, buf[Star](a, 0), buf[[4]float32](a, 1), gputest.At[float32](a, 2), gputest.At[uint32](a, 3))
		},
	}}
}
