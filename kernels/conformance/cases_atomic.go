package conformance

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

func atomicCases() []*Case {
	return []*Case{{
		Kernel: HistogramKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 5000
			return Inputs{Groups: line(n, 64), Args: []Arg{Buffer(make([]uint32, histBins)), Buffer(anyUints(r, n)), Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchHistogram(s, g, buf[uint32](a, 0), buf[uint32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: HistogramSharedKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 5000
			return Inputs{Groups: line(n, 64), Args: []Arg{Buffer(make([]uint32, histBins)), Buffer(anyUints(r, n)), Scalar(uint32(n))}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchHistogramShared(s, g, buf[uint32](a, 0), buf[uint32](a, 1), arg[uint32](a, 2))
		},
	}, {
		Kernel: AtomicAddKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 3000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Buffer(ints(r, 4, -1000, 1000)), Buffer(make([]uint32, 1)), Poisoned[uint32](n),
				Buffer(ints(r, n, -1000, 1000)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicAdd(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2), buf[int32](a, 3), arg[uint32](a, 4))
		},
	}, {
		Kernel: AtomicSubKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 2000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Buffer(anyInts(r, 4)), Buffer(anyUints(r, 4)), Buffer(anyInts(r, n)), Buffer(anyUints(r, n)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicSub(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[int32](a, 2), buf[uint32](a, 3), arg[uint32](a, 4))
		},
	}, {
		Kernel: AtomicMinMaxKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 2000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Buffer(anyInts(r, 8)), Buffer(anyUints(r, 8)), Buffer(anyInts(r, n)), Buffer(anyUints(r, n)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicMinMax(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[int32](a, 2), buf[uint32](a, 3), arg[uint32](a, 4))
		},
	}, {
		Kernel: AtomicBitsKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 2000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Buffer(anyInts(r, 3)), Buffer(anyUints(r, 3)), Buffer(anyInts(r, n)), Buffer(anyUints(r, n)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicBits(s, g, buf[int32](a, 0), buf[uint32](a, 1), buf[int32](a, 2), buf[uint32](a, 3), arg[uint32](a, 4))
		},
	}, {
		Kernel: AtomicExchangeKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Buffer(anyUints(r, n)), Poisoned[uint32](n), Buffer(anyUints(r, n)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicExchange(s, g, buf[uint32](a, 0), buf[uint32](a, 1), buf[uint32](a, 2), arg[uint32](a, 3))
		},
	}, {
		Kernel: AtomicCompareExchangeKernel, Tol: Exact,
		Setup: func(r *rand.Rand) Inputs {
			const n = 1000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Buffer(ints(r, n, 0, 3)), Poisoned[int32](n), Poisoned[uint32](n),
				Buffer(ints(r, n, 0, 3)), Buffer(anyInts(r, n)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicCompareExchange(s, g, buf[int32](a, 0), buf[int32](a, 1), buf[uint32](a, 2),
				buf[int32](a, 3), buf[int32](a, 4), arg[uint32](a, 5))
		},
	}, {
		Kernel: AtomicAddFloatKernel,
		Tol:    Tolerance{Name: "sums of small integers are exact in any order"},
		Setup: func(r *rand.Rand) Inputs {
			const n = 4000
			return Inputs{Groups: line(n, 64), Args: []Arg{
				Buffer(wholeFloats(r, 8, -100, 100)), Buffer(wholeFloats(r, n, -50, 50)), Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchAtomicAddFloat(s, g, buf[float32](a, 0), buf[float32](a, 1), arg[uint32](a, 2))
		},
	}}
}
