package conformance

import (
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// nonZero returns n float32 values of magnitude in [lo, hi) and either sign.
func nonZero(r *rand.Rand, n int, lo, hi float32) []float32 {
	s := gputest.Floats(r, n, lo, hi)
	for i := range s {
		if r.IntN(2) == 0 {
			s[i] = -s[i]
		}
	}
	return s
}

// halves returns n float32 values in [-10, 10], a third of them exactly
// halfway between two integers (rounding ties), a third integers.
func halves(r *rand.Rand, n int) []float32 {
	s := gputest.Floats(r, n, -10, 10)
	for i := range s {
		switch i % 3 {
		case 0:
			s[i] = float32(r.IntN(21)-10) + 0.5
		case 1:
			s[i] = float32(r.IntN(21) - 10)
		}
	}
	return s
}

func floatCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: FloatArithKernel,
		Tol:    gputest.Tolerance{Name: "WGSL division: 2.5 ulp; +, -, * exact", ULP: 3},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](5 * n), gputest.Buffer(nonZero(r, n, 0, 100)), gputest.Buffer(nonZero(r, n, 0.5, 100)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFloatArith(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: MathExactKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](8 * n), gputest.Poisoned[int32](4 * n), gputest.Poisoned[uint32](4 * n),
				gputest.Buffer(halves(r, n)), gputest.Buffer(gputest.Floats(r, n, -0.5, 10)),
				gputest.Buffer(gputest.WithEdges(gputest.Ints(r, n, -3000, 3000), []int32{math.MinInt32, math.MaxInt32, -1})), gputest.Buffer(gputest.AnyInts(r, n)),
				gputest.Buffer(gputest.WithEdges(gputest.AnyUints(r, n), []uint32{0, math.MaxUint32, 999, 1000, 1 << 30})), gputest.Buffer(gputest.AnyUints(r, n)),
				gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchMathExact(s, g, buf[float32](a, 0), buf[int32](a, 1), buf[uint32](a, 2),
				buf[float32](a, 3), buf[float32](a, 4), buf[int32](a, 5), buf[int32](a, 6),
				buf[uint32](a, 7), buf[uint32](a, 8), gputest.At[uint32](a, 9))
		},
	}, {
		Kernel: MathSqrtFmaKernel,
		Tol:    gputest.Tolerance{Name: "WGSL sqrt: 2.5 ulp; fma may be unfused: 1 ulp on positive operands", ULP: 3},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](2 * n), gputest.Buffer(gputest.Floats(r, n, 0, 1000)), gputest.Buffer(gputest.Floats(r, n, 0.5, 2)), gputest.Buffer(gputest.Floats(r, n, 0.5, 2)),
				gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchMathSqrtFma(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), buf[float32](a, 3), gputest.At[uint32](a, 4))
		},
	}, {
		Kernel: FloatCompareKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			a, b := gputest.SeasonedPairs(r, n)
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](n), gputest.Poisoned[float32](floatCompareOut * n), gputest.Buffer(a), gputest.Buffer(b), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFloatCompare(s, g, buf[uint32](a, 0), buf[float32](a, 1), buf[float32](a, 2), buf[float32](a, 3), gputest.At[uint32](a, 4))
		},
	}, {
		Kernel: FloatConvertKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			a, b := convertible(r, n)
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[int32](n), gputest.Poisoned[uint32](n), gputest.Buffer(a), gputest.Buffer(b), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFloatConvert(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[float32](a, 2), buf[float32](a, 3), gputest.At[uint32](a, 4))
		},
	}, {
		Kernel: MathExpLogKernel,
		Tol: gputest.Tolerance{
			Name: "WGSL exp, exp2: 3+2|x| ulp; log, log2: 3 ulp, or 2^-21 absolute near 1; pow: as exp2(y*log2(x))",
			ULP:  16, Abs: 1e-6, Rel: 2e-5,
		},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](5 * n), gputest.Buffer(gputest.Floats(r, n, 0.01, 100)), gputest.Buffer(gputest.Floats(r, n, -4, 4)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchMathExpLog(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: MathTrigKernel,
		Tol:    gputest.Tolerance{Name: "WGSL sin, cos: 2^-11 absolute; tan, tanh: as sin/cos, sinh/cosh", Abs: 1e-3, Rel: 1e-3},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](4 * n), gputest.Buffer(gputest.Floats(r, n, -1.3, 1.3)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchMathTrig(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: FloatEdgesKernel,
		Tol:    gputest.Tolerance{Name: "exact: maxima, a product, a sum and infinities, all correctly rounded"},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[float32](5 * n), gputest.Buffer(nonZero(r, n, 0, 2)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFloatEdges(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2))
		},
	}}
}

// convertible returns n float32 values that convert to int32 and n that
// convert to uint32 as Go defines it (in range, not NaN): whole and
// fractional values across the range, its ends, zeros of both signs and
// subnormals.
func convertible(r *rand.Rand, n int) (ints, uints []float32) {
	ints, uints = make([]float32, n), make([]float32, n)
	for i := range n {
		switch r.IntN(4) {
		case 0:
			ints[i] = float32(r.Int32()-r.Int32()) / 2
			uints[i] = float32(r.Uint32())
		case 1:
			ints[i] = -4 + 8*r.Float32()
			uints[i] = -1 + 5*r.Float32()
		case 2:
			ints[i] = math.Float32frombits(r.Uint32() & 0x807fffff)
			uints[i] = math.Float32frombits(r.Uint32() & 0x807fffff)
		default:
			ints[i] = []float32{-2147483648, 2147483520, -2147483520, 0, float32(math.Copysign(0, -1)), -1, 1, 0.5, -0.99999994}[r.IntN(9)]
			uints[i] = []float32{4294967040, 2147483648, 0, float32(math.Copysign(0, -1)), -0.99999994, -0.5, 1, 0.99999994}[r.IntN(8)]
		}
		// float32 rounding of the largest random values can reach the
		// ends of the range, which no longer convert.
		ints[i] = min(ints[i], 2147483520)
		uints[i] = min(uints[i], 4294967040)
	}
	return ints, uints
}
