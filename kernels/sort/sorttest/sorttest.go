// Package sorttest holds the cases of package sort's kernels: the radix
// passes' histogram and scatters and the bitonic sort, each launched
// through its generated launcher on fresh random keys (of any value, and
// of few values) against the reference runner, bit for bit. The package's
// tests run them on every device, and so does any program that checks the
// library where tests cannot run (the browser demo). It sits above sort
// and gputest.
package sorttest

import (
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/sort"
)

// pass is one radix pass over n keys in runs of run, a work-item per
// run and blocks of 8 work-items, at the digit of shift.
type pass struct{ n, run, shift uint32 }

func (p pass) groups() uint32 { return ((p.n+p.run-1)/p.run + 7) / 8 }
func (p pass) items() uint32  { return 8 * p.groups() }

// kernelPasses are the passes the radix kernels are checked at: one key;
// part of a block's runs; runs into a second block, the last partial;
// many blocks of short runs of no power of two; and the Sorter's runs of
// 1024 over several blocks; at the lowest, middle and highest digits.
var kernelPasses = []pass{{1, 1024, 0}, {1000, 300, 8}, {9000, 1024, 24}, {5000, 37, 16}, {40000, 1024, 0}}

func u32(a []any, i int) *gpu.Buffer[uint32] { return gputest.At[*gpu.Buffer[uint32]](a, i) }
func num(a []any, i int) uint32              { return gputest.At[uint32](a, i) }

// fewKeys returns n keys whose digits repeat a lot: each key is one of
// eight, so that runs of equal digits cross work-items and blocks.
func fewKeys(r *rand.Rand, n uint32) []uint32 {
	few := make([]uint32, 8)
	for i := range few {
		few[i] = r.Uint32()
	}
	k := make([]uint32, n)
	for i := range k {
		k[i] = few[r.IntN(len(few))]
	}
	return k
}

func anyKeys(r *rand.Rand, n uint32) []uint32 { return gputest.AnyUints(r, int(n)) }

// offsets returns a pass's scatter offsets as the Sorter computes them,
// in plain Go: the exclusive scan of the digit-major histogram of the
// runs of keys.
func offsets(keys []uint32, p pass) []uint32 {
	items := p.items()
	hist := make([]uint32, 256*items)
	for i, k := range keys {
		hist[((k>>p.shift)&255)*items+uint32(i)/p.run]++
	}
	var acc uint32
	for i, h := range hist {
		hist[i] = acc
		acc += h
	}
	return hist
}

func histogramCase(p pass, keys func(*rand.Rand, uint32) []uint32) *gputest.Case {
	return &gputest.Case{
		Kernel: sort.HistogramKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: p.groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(256 * p.items())), gputest.Buffer(keys(r, p.n)),
				gputest.Scalar(p.n), gputest.Scalar(p.run), gputest.Scalar(p.shift),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return sort.LaunchHistogram(s, g, u32(a, 0), u32(a, 1), num(a, 2), num(a, 3), num(a, 4))
		},
	}
}

func scatterKeysCase(p pass, keys func(*rand.Rand, uint32) []uint32) *gputest.Case {
	return &gputest.Case{
		Kernel: sort.ScatterKeysKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			k := keys(r, p.n)
			return gputest.Inputs{Groups: xpu.Dim3{X: p.groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(p.n)), gputest.Buffer(k), gputest.Buffer(offsets(k, p)),
				gputest.Scalar(p.n), gputest.Scalar(p.run), gputest.Scalar(p.shift),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return sort.LaunchScatterKeys(s, g, u32(a, 0), u32(a, 1), u32(a, 2), num(a, 3), num(a, 4), num(a, 5))
		},
	}
}

// scatterPairsCase carries each key's index as its value, so that a
// value that lands at another place than its key's is caught, as is an
// order among equal digits other than the reference's.
func scatterPairsCase(p pass, keys func(*rand.Rand, uint32) []uint32) *gputest.Case {
	return &gputest.Case{
		Kernel: sort.ScatterPairsKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			k := keys(r, p.n)
			v := gputest.FillFrom(int(p.n), func(i int) uint32 { return uint32(i) })
			return gputest.Inputs{Groups: xpu.Dim3{X: p.groups()}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](int(p.n)), gputest.Poisoned[uint32](int(p.n)),
				gputest.Buffer(k), gputest.Buffer(v), gputest.Buffer(offsets(k, p)),
				gputest.Scalar(p.n), gputest.Scalar(p.run), gputest.Scalar(p.shift),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return sort.LaunchScatterPairs(s, g, u32(a, 0), u32(a, 1), u32(a, 2), u32(a, 3), u32(a, 4), num(a, 5), num(a, 6), num(a, 7))
		},
	}
}

// run is a launch of the bitonic sort: n keys in runs of length, on a
// grid of rows of x blocks (all of them on one row when x is 0).
type run struct{ n, length, x uint32 }

func (b run) grid() xpu.Dim3 {
	g := (b.n + b.length - 1) / b.length
	if b.x == 0 {
		return xpu.Dim3{X: g}
	}
	return xpu.Dim3{X: b.x, Y: (g + b.x - 1) / b.x}
}

// runs are the bitonic sort's launches: one key; a power of two; one run
// padded to 1024; several runs of 1024, the last partial; runs of a
// length no power of two; and runs on rows of blocks, the last row with
// blocks past the last run, as SortRuns launches more than 65535 runs.
var runs = []run{{1, 1, 0}, {256, 256, 0}, {1000, 1000, 0}, {1024*3 + 5, 1024, 0}, {2000, 300, 0}, {2000, 100, 3}}

func bitonicCase(b run, keys func(*rand.Rand, uint32) []uint32) *gputest.Case {
	return &gputest.Case{
		Kernel: sort.BitonicKernel, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: b.grid(), Args: []gputest.Arg{
				gputest.Buffer(keys(r, b.n)), gputest.Scalar(b.n), gputest.Scalar(b.length),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return sort.LaunchBitonic(s, g, u32(a, 0), num(a, 1), num(a, 2))
		},
	}
}

// Cases returns the cases of every kernel at every pass and run, on keys
// of any value and keys of few values. short keeps the first three passes
// and runs, for short mode, a binary built with the race detector and the
// browser, where the reference runner's goroutine per work-item is slow.
func Cases(short bool) []*gputest.Case {
	ps, bs := kernelPasses, runs
	if short {
		ps, bs = ps[:3], bs[:3]
	}
	var cs []*gputest.Case
	for _, p := range ps {
		for _, keys := range []func(*rand.Rand, uint32) []uint32{anyKeys, fewKeys} {
			cs = append(cs, histogramCase(p, keys), scatterKeysCase(p, keys), scatterPairsCase(p, keys))
		}
	}
	for _, b := range bs {
		cs = append(cs, bitonicCase(b, anyKeys), bitonicCase(b, fewKeys))
	}
	return cs
}
