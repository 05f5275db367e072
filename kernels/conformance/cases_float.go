package conformance

import (
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// nonZero returns n float32 values of magnitude in [lo, hi) and either sign.
func nonZero(r *rand.Rand, n int, lo, hi float32) []float32 {
	s := floats(r, n, lo, hi)
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
	s := floats(r, n, -10, 10)
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

func floatCases() []*Case {
	return []*Case{{
		Kernel: FloatArithKernel,
		Tol:    Tolerance{Name: "WGSL division: 2.5 ulp; +, -, * exact", ULP: 3},
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](5 * n), Buffer(nonZero(r, n, 0, 100)), Buffer(nonZero(r, n, 0.5, 100)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFloatArith(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: MathExactKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](8 * n), Poisoned[int32](4 * n), Poisoned[uint32](4 * n),
				Buffer(halves(r, n)), Buffer(floats(r, n, -0.5, 10)),
				Buffer(withEdges(ints(r, n, -3000, 3000), []int32{math.MinInt32, math.MaxInt32, -1})), Buffer(anyInts(r, n)),
				Buffer(withEdges(anyUints(r, n), []uint32{0, math.MaxUint32, 999, 1000, 1 << 30})), Buffer(anyUints(r, n)),
				Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchMathExact(s, g, buf[float32](a, 0), buf[int32](a, 1), buf[uint32](a, 2),
				buf[float32](a, 3), buf[float32](a, 4), buf[int32](a, 5), buf[int32](a, 6),
				buf[uint32](a, 7), buf[uint32](a, 8), arg[uint32](a, 9))
		},
	}, {
		Kernel: MathSqrtFmaKernel,
		Tol:    Tolerance{Name: "WGSL sqrt: 2.5 ulp; fma may be unfused: 1 ulp on positive operands", ULP: 3},
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](2 * n), Buffer(floats(r, n, 0, 1000)), Buffer(floats(r, n, 0.5, 2)), Buffer(floats(r, n, 0.5, 2)),
				Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchMathSqrtFma(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), buf[float32](a, 3), arg[uint32](a, 4))
		},
	}, {
		Kernel: FloatCompareKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			a, b := seasonedPairs(r, n)
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[uint32](n), Poisoned[float32](floatCompareOut * n), Buffer(a), Buffer(b), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFloatCompare(s, g, buf[uint32](a, 0), buf[float32](a, 1), buf[float32](a, 2), buf[float32](a, 3), arg[uint32](a, 4))
		},
	}, {
		Kernel: FloatConvertKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			a, b := convertible(r, n)
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[int32](n), Poisoned[uint32](n), Buffer(a), Buffer(b), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFloatConvert(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[float32](a, 2), buf[float32](a, 3), arg[uint32](a, 4))
		},
	}, {
		Kernel: MathExpLogKernel,
		Tol: Tolerance{
			Name: "WGSL exp, exp2: 3+2|x| ulp; log, log2: 3 ulp, or 2^-21 absolute near 1; pow: as exp2(y*log2(x))",
			ULP:  16, Abs: 1e-6, Rel: 2e-5,
		},
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](5 * n), Buffer(floats(r, n, 0.01, 100)), Buffer(floats(r, n, -4, 4)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchMathExpLog(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: MathTrigKernel,
		Tol:    Tolerance{Name: "WGSL sin, cos: 2^-11 absolute; tan, tanh: as sin/cos, sinh/cosh", Abs: 1e-3, Rel: 1e-3},
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](4 * n), Buffer(floats(r, n, -1.3, 1.3)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchMathTrig(s, g, buf[float32](a, 0), buf[float32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: FloatEdgesKernel,
		Tol:    Tolerance{Name: "exact: maxima, a product, a sum and infinities, all correctly rounded"},
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Poisoned[float32](5 * n), Buffer(nonZero(r, n, 0, 2)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFloatEdges(s, g, buf[float32](a, 0), buf[float32](a, 1), arg[uint32](a, 2))
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
