package conformance

import (
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// divisionPairs are int32 operands of / and % whose results Go defines
// and devices get wrong first: negative operands, and MinInt32 / -1, which
// wraps to MinInt32 with remainder 0.
var divisionPairs = [][2]int32{
	{math.MinInt32, -1}, {math.MinInt32, 1}, {math.MinInt32, 2}, {math.MinInt32, math.MinInt32},
	{-7, 2}, {7, -2}, {-7, -2}, {7, 2}, {-1, math.MinInt32}, {math.MaxInt32, -1},
	{0, -5}, {-5, 7}, {math.MaxInt32, math.MinInt32}, {-2147483647, -1},
}

// divisors returns n int32 values, none zero: half of them small.
func divisors(r *rand.Rand, n int) []int32 {
	s := make([]int32, n)
	for i := range s {
		if i%2 == 0 {
			s[i] = r.Int32N(41) - 20
		} else {
			s[i] = int32(r.Uint32())
		}
		if s[i] == 0 {
			s[i] = -3
		}
	}
	return s
}

func integerCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: IntArithKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			a, b := gputest.AnyInts(r, n), divisors(r, n)
			for i, p := range divisionPairs {
				a[i], b[i] = p[0], p[1]
			}
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Poisoned[int32](intArithOut * n), gputest.Buffer(a), gputest.Buffer(b), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchIntArith(s, g, buf[int32](a, 0), buf[int32](a, 1), buf[int32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: UintArithKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			b := divisors(r, n)
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](intArithOut * n),
				gputest.Buffer(gputest.WithEdges(gputest.AnyUints(r, n), []uint32{math.MaxUint32, 0, 7, math.MaxUint32})),
				gputest.Buffer(gputest.WithEdges(gputest.FillFrom(n, func(i int) uint32 { return uint32(b[i]) }), []uint32{1, math.MaxUint32, 2, math.MaxUint32})),
				gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchUintArith(s, g, buf[uint32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: ShiftsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			counts := gputest.WithEdges(gputest.Uints(r, n, 0, 63), []uint32{0, 1, 31, 32, 33, 63, 64, 1 << 31, math.MaxUint32})
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[int32](2 * n), gputest.Poisoned[uint32](2 * n),
				gputest.Buffer(gputest.WithEdges(gputest.AnyInts(r, n), []int32{-1, math.MinInt32, -5, 5, math.MaxInt32, -1, -1, -1, -1})),
				gputest.Buffer(gputest.AnyUints(r, n)), gputest.Buffer(counts), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchShifts(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[int32](a, 2), buf[uint32](a, 3), buf[uint32](a, 4), gputest.At[uint32](a, 5))
		},
	}, {
		Kernel: ShiftSignedKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[int32](shiftSignedOut * n),
				gputest.Buffer(gputest.WithEdges(gputest.AnyInts(r, n), []int32{-1, math.MinInt32, -5, 5, math.MaxInt32, -1, -1, -1, -1})),
				gputest.Buffer(shiftCounts(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchShiftSigned(s, g, buf[int32](a, 0), buf[int32](a, 1), buf[int32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: BitOpsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[int32](5 * n), gputest.Poisoned[uint32](5 * n),
				gputest.Buffer(gputest.WithEdges(gputest.AnyInts(r, n), gputest.EdgeInts)), gputest.Buffer(gputest.AnyInts(r, n)),
				gputest.Buffer(gputest.AnyUints(r, n)), gputest.Buffer(gputest.AnyUints(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchBitOps(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[int32](a, 2), buf[int32](a, 3),
				buf[uint32](a, 4), buf[uint32](a, 5), gputest.At[uint32](a, 6))
		},
	}, {
		Kernel: ConversionsKernel,
		Tol:    gputest.Tolerance{Name: "WGSL rounds integer-to-float32 conversions either way: 1 ulp", ULP: 1},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			f := gputest.WithEdges(gputest.Floats(r, n, -1e9, 1e9), []float32{0.5, -0.5, 1.99, -1.99, 2147483520, -2147483648, 4294967040 / 2})
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[int32](4 * n), gputest.Poisoned[uint32](4 * n), gputest.Poisoned[float32](4 * n),
				gputest.Buffer(gputest.WithEdges(gputest.AnyInts(r, n), gputest.EdgeInts)), gputest.Buffer(gputest.AnyUints(r, n)), gputest.Buffer(f), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchConversions(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[float32](a, 2),
				buf[int32](a, 3), buf[uint32](a, 4), buf[float32](a, 5), gputest.At[uint32](a, 6))
		},
	}, {
		Kernel: CompareKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			e := gputest.WithEdges(gputest.WholeFloats(r, n, -3, 3), []float32{0, float32(math.Copysign(0, -1)), 1.5})
			f := gputest.WithEdges(gputest.WholeFloats(r, n, -3, 3), []float32{float32(math.Copysign(0, -1)), 0, 1.5})
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](21 * n),
				gputest.Buffer(gputest.WithEdges(gputest.Ints(r, n, -5, 5), []int32{math.MinInt32, math.MaxInt32})),
				gputest.Buffer(gputest.WithEdges(gputest.Ints(r, n, -5, 5), []int32{math.MaxInt32, math.MinInt32})),
				gputest.Buffer(gputest.WithEdges(gputest.Uints(r, n, 0, 5), []uint32{0, math.MaxUint32, 1 << 31})),
				gputest.Buffer(gputest.WithEdges(gputest.Uints(r, n, 0, 5), []uint32{math.MaxUint32, 0, 1})),
				gputest.Buffer(e), gputest.Buffer(f), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchCompare(s, g, buf[uint32](a, 0), buf[int32](a, 1), buf[int32](a, 2),
				buf[uint32](a, 3), buf[uint32](a, 4), buf[float32](a, 5), buf[float32](a, 6), gputest.At[uint32](a, 7))
		},
	}, {
		Kernel: CompoundAssignKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[int32](n), gputest.Buffer(gputest.WithEdges(gputest.AnyInts(r, n), gputest.EdgeInts)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchCompoundAssign(s, g, buf[int32](a, 0), buf[int32](a, 1), gputest.At[uint32](a, 2))
		},
	}}
}

// shiftCounts returns n non-negative int32 shift counts from 0 to 69, the
// width and its neighbours and MaxInt32 among the first.
func shiftCounts(r *rand.Rand, n int) []int32 {
	return gputest.WithEdges(gputest.Ints(r, n, 0, 69), []int32{0, 1, 31, 32, 33, 63, 64, math.MaxInt32, 1 << 30})
}
