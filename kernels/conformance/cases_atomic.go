package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

func atomicCases() []*gputest.Case {
	return []*gputest.Case{{
		Kernel: HistogramKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 5000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Buffer(make([]uint32, histBins)), gputest.Buffer(gputest.AnyUints(r, n)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchHistogram(s, g, buf[uint32](a, 0), buf[uint32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: HistogramSharedKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 5000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{gputest.Buffer(make([]uint32, histBins)), gputest.Buffer(gputest.AnyUints(r, n)), gputest.Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchHistogramShared(s, g, buf[uint32](a, 0), buf[uint32](a, 1), gputest.At[uint32](a, 2))
		},
	}, {
		Kernel: AtomicAddKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 3000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Buffer(gputest.Ints(r, 4, -1000, 1000)), gputest.Buffer(make([]uint32, 1)), gputest.Poisoned[uint32](n),
				gputest.Buffer(gputest.Ints(r, n, -1000, 1000)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicAdd(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2), buf[int32](a, 3), gputest.At[uint32](a, 4))
		},
	}, {
		Kernel: AtomicSubKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 2000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Buffer(gputest.AnyInts(r, 4)), gputest.Buffer(gputest.AnyUints(r, 4)), gputest.Buffer(gputest.AnyInts(r, n)), gputest.Buffer(gputest.AnyUints(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicSub(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[int32](a, 2), buf[uint32](a, 3), gputest.At[uint32](a, 4))
		},
	}, {
		Kernel: AtomicMinMaxKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 2000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Buffer(gputest.AnyInts(r, 8)), gputest.Buffer(gputest.AnyUints(r, 8)), gputest.Buffer(gputest.AnyInts(r, n)), gputest.Buffer(gputest.AnyUints(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicMinMax(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[int32](a, 2), buf[uint32](a, 3), gputest.At[uint32](a, 4))
		},
	}, {
		Kernel: AtomicBitsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 2000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Buffer(gputest.AnyInts(r, 3)), gputest.Buffer(gputest.AnyUints(r, 3)), gputest.Buffer(gputest.AnyInts(r, n)), gputest.Buffer(gputest.AnyUints(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicBits(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[int32](a, 2), buf[uint32](a, 3), gputest.At[uint32](a, 4))
		},
	}, {
		Kernel: AtomicExchangeKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Buffer(gputest.AnyUints(r, n)), gputest.Poisoned[uint32](n), gputest.Buffer(gputest.AnyUints(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicExchange(s, g, buf[uint32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2), gputest.At[uint32](a, 3))
		},
	}, {
		Kernel: AtomicCompareExchangeKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 1000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Buffer(gputest.Ints(r, n, 0, 3)), gputest.Poisoned[int32](n), gputest.Poisoned[uint32](n),
				gputest.Buffer(gputest.Ints(r, n, 0, 3)), gputest.Buffer(gputest.AnyInts(r, n)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicCompareExchange(s, g, buf[int32](a, 0), buf[int32](a, 1), buf[uint32](a, 2),
				buf[int32](a, 3), buf[int32](a, 4), gputest.At[uint32](a, 5))
		},
	}, {
		Kernel: AtomicAddFloatKernel,
		Tol:    gputest.Tolerance{Name: "sums of small integers are exact in any order"},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 4000
			return gputest.Inputs{Groups: line(n, 64), Args: []gputest.Arg{
				gputest.Buffer(gputest.WholeFloats(r, 8, -100, 100)), gputest.Buffer(gputest.WholeFloats(r, n, -50, 50)), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicAddFloat(s, g, buf[float32](a, 0), buf[float32](a, 1), gputest.At[uint32](a, 2))
		},
	}}
}
