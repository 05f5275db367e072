package conformance

import (
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// words64 returns n random 64-bit values, edges first, as pairs of
// uint32 words (low word first).
func words64(r *rand.Rand, n int, edges ...uint64) []uint32 {
	s := gputest.WithEdges(gputest.FillFrom(n, func(int) uint64 {
		switch r.IntN(4) {
		case 0: // small, either sign
			return uint64(int64(r.Int32N(2000) - 1000))
		case 1: // near the sign bit
			return 1<<63 + uint64(int64(r.Int32N(2000)-1000))
		}
		return r.Uint64() >> r.UintN(64)
	}), edges)
	w := make([]uint32, 2*n)
	for i, x := range s {
		w[2*i], w[2*i+1] = uint32(x), uint32(x>>32)
	}
	return w
}

// nonzero64 replaces the zero pairs of w with 3.
func nonzero64(w []uint32) []uint32 {
	for i := 0; i < len(w); i += 2 {
		if w[i] == 0 && w[i+1] == 0 {
			w[i] = 3
		}
	}
	return w
}

const (
	minInt64 = uint64(1) << 63
	minusOne = math.MaxUint64
)

func wideCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: Pcg32Kernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 777
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](pcgSteps * n), gputest.Buffer(words64(r, n, 0, minusOne, minInt64, 0x853c49e6748fea9b)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchPcg32(s, g, buf[uint32](a, 0), buf[uint32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: WideArithKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 999
			a := gputest.WithEdges(gputest.AnyInts(r, n), []int32{math.MinInt32, math.MaxInt32, -1, math.MinInt32})
			b := gputest.WithEdges(gputest.AnyInts(r, n), []int32{math.MinInt32, math.MaxInt32, math.MinInt32, -1})
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](2 * wideArithOut * n), gputest.Buffer(a), gputest.Buffer(b),
				gputest.Buffer(words64(r, n, minInt64, minInt64, minusOne, math.MaxInt64, 0, 1<<32)),
				gputest.Buffer(nonzero64(words64(r, n, minusOne, minInt64, 1, minusOne, 7, 1<<32+1))),
				gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchWideArith(s, g, buf[uint32](a, 0), buf[int32](a, 1), buf[int32](a, 2), buf[uint32](a, 3), buf[uint32](a, 4), gputest.At[uint32](a, 5))
		},
	}, {
		Kernel: WideShiftsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1001
			s := gputest.WithEdges(gputest.Uints(r, n, 0, 70), []uint32{0, 1, 31, 32, 33, 63, 64, 65, 70, 63})
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](2 * wideShiftOut * n),
				gputest.Buffer(words64(r, n, minusOne, minInt64, 1, minInt64+1, 0x8000000080000000, 0xffffffff, 0x7fffffffffffffff, minInt64, minInt64, minusOne)),
				gputest.Buffer(s), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchWideShifts(s, g, buf[uint32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: WideCompareKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](n),
				gputest.Buffer(words64(r, n, 0, minInt64, math.MaxInt64, minusOne, 1<<32, 0xffffffff, 5, minInt64)),
				gputest.Buffer(words64(r, n, 0, math.MaxInt64, minInt64, 0, 0xffffffff, 1<<32, 5, minInt64+1)),
				gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchWideCompare(s, g, buf[uint32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: WideConvertKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			f := gputest.WithEdges(gputest.Floats(r, n, -1<<31, 1<<31), []float32{-1 << 31, 1<<31 - 128, -0.5, 0.75, -1, 1 << 24})
			a := gputest.WithEdges(gputest.AnyInts(r, n), []int32{-1, math.MinInt32, math.MaxInt32, 0, 0x80, -129})
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint32](wideConvOut * n), gputest.Buffer(f), gputest.Buffer(a),
				gputest.Buffer(words64(r, n, minusOne, minInt64, 1<<24+1, 1<<53+1, 0x7fffffffffffffff, 0xffffff7fffffffff, 1<<40-1,
					// Rounding to float32 at the edges WGSL's own f32(u32)
					// may get wrong: ties to even either way, a tie broken
					// by a low word's sticky bit, a carry into the exponent.
					1<<24+3, 0x80000080, 0x80000180, 0xffffffff, 1<<63|1<<39, 1<<63|1<<39|1, 0x01ffffffffffffff)),
				gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchWideConvert(s, g, buf[uint32](a, 0), buf[float32](a, 1), buf[int32](a, 2), buf[uint32](a, 3), gputest.At[uint32](a, 4))
		},
	}}
}
