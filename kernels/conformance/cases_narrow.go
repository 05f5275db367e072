package conformance

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// anyOf returns n random values of the narrow integer type T, edges first.
func anyOf[T int8 | uint8 | int16 | uint16](r *rand.Rand, n int, edges ...T) []T {
	s := gputest.FillFrom(n, func(int) T { return T(r.Uint32()) })
	return gputest.WithEdges(s, edges)
}

// nonzero replaces the zeros of s with 3.
func nonzero[T int8 | uint8 | int16 | uint16](s []T) []T {
	for i := range s {
		if s[i] == 0 {
			s[i] = 3
		}
	}
	return s
}

// narrowShifts returns n shift counts from 0 to 39: past the width of
// every narrow type, short of 32 and past it.
func narrowShifts(r *rand.Rand, n int) []uint32 {
	return gputest.WithEdges(gputest.Uints(r, n, 0, 39), []uint32{0, 7, 8, 15, 16, 31, 32, 39})
}

func narrowCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: PixelsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1001 // no multiple of the four bytes of a word
			// A gain of 10 bits over 256: its products with pixels, and
			// those plus 0.5, are exact in float32, so a backend that
			// fuses the multiply and the add rounds no differently.
			gain := float32(r.IntN(1024)) / 256
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint8](n), gputest.Buffer(anyOf[uint8](r, n, 0, 255, 128, 1)),
				gputest.Scalar(gain), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchPixels(s, g, buf[uint8](a, 0), buf[uint8](a, 1), gputest.At[float32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: DotInt8Kernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n, k = 301, 37
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[int32](n),
				gputest.Buffer(anyOf[int8](r, n*k, math.MinInt8, math.MaxInt8, -1)),
				gputest.Buffer(anyOf[int8](r, k, math.MinInt8, math.MinInt8, math.MaxInt8)),
				gputest.Scalar(uint32(k)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchDotInt8(s, g, buf[int32](a, 0), buf[int8](a, 1), buf[int8](a, 2), gputest.At[uint32](a, 3), gputest.At[uint32](a, 4))
		},
	}, {
		Kernel: Wrap16Kernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 999
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint16](narrowArithOut * n), gputest.Poisoned[int16](narrowArithOut * n),
				gputest.Buffer(anyOf[uint16](r, n, math.MaxUint16, 0, 1, 0x8000)),
				gputest.Buffer(nonzero(anyOf[uint16](r, n, math.MaxUint16, 1, 7, 0x8000))),
				gputest.Buffer(anyOf[int16](r, n, math.MinInt16, math.MinInt16, -1, math.MaxInt16)),
				gputest.Buffer(nonzero(anyOf[int16](r, n, -1, 1, -7, math.MinInt16))),
				gputest.Buffer(narrowShifts(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchWrap16(s, g, buf[uint16](a, 0), buf[int16](a, 1), buf[uint16](a, 2), buf[uint16](a, 3),
				buf[int16](a, 4), buf[int16](a, 5), buf[uint32](a, 6), gputest.At[uint32](a, 7))
		},
	}, {
		Kernel: Wrap8Kernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1003
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[uint8](narrowArithOut * n), gputest.Poisoned[int8](narrowArithOut * n),
				gputest.Buffer(anyOf[uint8](r, n, math.MaxUint8, 0, 1, 0x80)),
				gputest.Buffer(nonzero(anyOf[uint8](r, n, math.MaxUint8, 1, 7, 0x80))),
				gputest.Buffer(anyOf[int8](r, n, math.MinInt8, math.MinInt8, -1, math.MaxInt8)),
				gputest.Buffer(nonzero(anyOf[int8](r, n, -1, 1, -7, math.MinInt8))),
				gputest.Buffer(narrowShifts(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchWrap8(s, g, buf[uint8](a, 0), buf[int8](a, 1), buf[uint8](a, 2), buf[uint8](a, 3),
				buf[int8](a, 4), buf[int8](a, 5), buf[uint32](a, 6), gputest.At[uint32](a, 7))
		},
	}, {
		Kernel: NarrowConvertKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			f := gputest.WithEdges(gputest.Floats(r, n, -32768, 32767), []float32{-32768, 32767, -0.5, 0.5, -1, 255.75})
			a := gputest.WithEdges(gputest.AnyInts(r, n), []int32{-1, 0x80, 0x7f, 0xff, 0x8000, 0x7fff, 0xffff, math.MinInt32, math.MaxInt32, -129})
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Poisoned[int32](narrowConvOut * n), gputest.Buffer(f), gputest.Buffer(a), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchNarrowConvert(s, g, buf[int32](a, 0), buf[float32](a, 1), buf[int32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: NarrowLenKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			n := 2*r.IntN(500) + 1 // odd: the last word holds one element
			// Unguarded: a guard would lengthen the buffer len reads.
			return gputest.Inputs{Groups: line(uint32(n)+64, 64), Args: []gputest.Arg{gputest.Poisoned[int16](n).Unguarded()}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchNarrowLen(s, g, buf[int16](a, 0))
		},
	}}
}

// halfInputs returns float32 values that exercise the rounding to
// binary16: the midpoints between neighbouring binary16 values and their
// float32 neighbours, values past the largest and below the smallest,
// and random ones across the range; no float32 subnormal, which devices
// may flush before the conversion reads its bits.
func halfInputs(r *rand.Rand, n int) []float32 {
	edges := []float32{65504, 65519.996, 65520, 65536, 1e30, 0x1p-24, 0x1p-25, 0x1.000002p-25, 0x1p-26, 0x1p-14, 0x1.ff8p-15, 0, 1, 1.00048828125, 1.0009765625}
	edges = append(edges, float32(math.Inf(1)), float32(math.NaN()))
	for _, e := range slices.Clone(edges) {
		edges = append(edges, -e)
	}
	return gputest.WithEdges(gputest.FillFrom(n, func(int) float32 {
		h := xpu.Float16(r.Uint32() & 0x7bfe)
		lo, hi := h.Float32(), (h + 1).Float32()
		mid := lo + (hi-lo)/2 // exact: both are binary16 values
		switch r.IntN(4) {
		case 0:
			return mid
		case 1:
			return math.Nextafter32(mid, 0)
		case 2:
			return math.Nextafter32(mid, 70000)
		}
		return float32(math.Ldexp(r.Float64()*2-1, r.IntN(44)-26))
	}), edges)
}

func float16Cases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: HalfToFloatKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1 << 16 // every binary16 value, in a random order
			h := gputest.FillFrom(n, func(i int) xpu.Float16 { return xpu.Float16(i) })
			r.Shuffle(n, func(i, j int) { h[i], h[j] = h[j], h[i] })
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Poisoned[float32](n), gputest.Buffer(h), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchHalfToFloat(s, g, buf[float32](a, 0), buf[xpu.Float16](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: FloatToHalfKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 20001
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Poisoned[xpu.Float16](n), gputest.Buffer(halfInputs(r, n)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchFloatToHalf(s, g, buf[xpu.Float16](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: HalfScaleKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 4099
			y := gputest.FillFrom(n, func(int) xpu.Float16 { return xpu.Float16(r.Uint32()) })
			a := float32(r.IntN(64)-32) / 8 // a float32 multiply is correctly rounded on every backend
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Buffer(y), gputest.Scalar(a), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchHalfScale(s, g, buf[xpu.Float16](a, 0), gputest.At[float32](a, 1), gputest.At[uint32](a, 2))
		},
	}}
}
