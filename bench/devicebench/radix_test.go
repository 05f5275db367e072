package devicebench_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/sort"
)

// BenchmarkReferenceRadixPass times one pass of kernels/sort's radix sort
// over 1Mi keys through the reference runner, with the race check on:
// Histogram, an exclusive scan of its counts in Go (the sort scans with
// kernels/reduce), ScatterKeys; as a loop and with goroutines,
// alternating. The pass is its work-items' loops over runs of keys,
// 512 work-items in 64 blocks, so the two differ little: it shows what
// a large barrier-free launch with shared memory costs the race check.
func BenchmarkReferenceRadixPass(b *testing.B) {
	const n, run, items = 1 << 20, 2048, 512 // as sort's plan cuts 1Mi keys
	keys, out := make([]uint32, n), make([]uint32, n)
	for i := range keys {
		keys[i] = rand.Uint32()
	}
	hist, offsets := make([]uint32, 256*items), make([]uint32, 256*items)
	groups := xpu.Dim3{X: items / sort.HistogramKernel.Block().X}
	pass := func(goroutines bool) time.Duration {
		o := gpu.ReferenceOptions{RaceCheck: xpu.RaceCheckOn, Goroutines: goroutines}
		start := time.Now()
		if err := sort.HistogramKernel.ReferenceWith(o, groups, hist, keys, uint32(n), uint32(run), uint32(0)); err != nil {
			b.Fatal(err)
		}
		var sum uint32
		for i, c := range hist {
			offsets[i], sum = sum, sum+c
		}
		if err := sort.ScatterKeysKernel.ReferenceWith(o, groups, out, keys, offsets, uint32(n), uint32(run), uint32(0)); err != nil {
			b.Fatal(err)
		}
		d := time.Since(start)
		for i := 1; i < n; i++ {
			if out[i-1]&0xff > out[i]&0xff {
				b.Fatalf("after the pass, key %d's digit %#x follows %#x", i, out[i]&0xff, out[i-1]&0xff)
			}
		}
		return d
	}
	var gor, loop time.Duration
	for b.Loop() {
		gor += pass(true)
		loop += pass(false)
	}
	b.ReportMetric(gor.Seconds()/float64(b.N), "goroutines-s/op")
	b.ReportMetric(loop.Seconds()/float64(b.N), "loop-s/op")
	b.ReportMetric(float64(gor)/float64(loop), "goroutines/loop")
}
