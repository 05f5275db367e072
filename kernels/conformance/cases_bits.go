package conformance

import (
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// bitEdges are the operands the bit functions get wrong first: zero, all
// ones, single high and low bits, and the bit patterns of infinities and
// NaNs.
var bitEdges = []uint32{0, math.MaxUint32, 1, 1 << 31, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffffffff, 0x0000ffff, 0xffff0000}

// rotationEdges are counts of RotateLeft32 Go takes modulo 32: 0, the
// width, negative ones and the extremes.
var rotationEdges = []int32{0, 31, 32, -1, -33, math.MinInt32, math.MaxInt32, 33, -32, 1, 64}

func bitsCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: BitsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](bitsOut * n),
				gputest.Buffer(gputest.WithEdges(gputest.AnyUints(r, n), bitEdges)),
				gputest.Buffer(gputest.WithEdges(gputest.AnyUints(r, n), []uint32{math.MaxUint32, 0, math.MaxUint32, math.MaxUint32, 0x10000})),
				gputest.Buffer(gputest.WithEdges(gputest.AnyInts(r, n), rotationEdges)),
				gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchBits(s, g, buf[uint32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2), buf[int32](a, 3), gputest.At[uint32](a, 4))
		},
	}, {
		Kernel: FloatBitsKernel,
		// The bits are compared exactly; f holds Rsqrt and the floats of
		// raw bits (NaNs equal NaNs).
		Tol: gputest.Tolerance{Name: "Rsqrt: WGSL's inverseSqrt is within 2 ulp of 1/sqrt, the reference within 1: 3 ulp", ULP: 3},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			x := gputest.FillFrom(n, func(int) float32 {
				switch r.IntN(4) {
				case 0:
					return math.Float32frombits(gputest.SpecialFloats[r.IntN(len(gputest.SpecialFloats))])
				case 1:
					return 1 / (r.Float32() + 1e-30)
				}
				return 1000 * r.Float32()
			})
			x = gputest.WithEdges(x, []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32, 1, 4, 0.25})
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](floatBitsOut * n), gputest.Poisoned[float32](2 * n),
				gputest.Buffer(rsqrtOperands(x)),
				gputest.Buffer(gputest.WithEdges(gputest.AnyUints(r, n), bitEdges)),
				gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFloatBits(s, g, buf[uint32](a, 0), buf[float32](a, 1), buf[float32](a, 2), buf[uint32](a, 3), gputest.At[uint32](a, 4))
		},
	}}
}

// rsqrtOperands replaces the subnormals of x, which devices may flush to
// zero (and Rsqrt then to +Inf), with 1.
func rsqrtOperands(x []float32) []float32 {
	for i, v := range x {
		if v != 0 && math.Abs(float64(v)) < 0x1p-126 {
			x[i] = 1
		}
	}
	return x
}
