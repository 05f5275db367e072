package kernelbench_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels"
	"github.com/goxpu/xpu/kernels/sort"
	"github.com/goxpu/xpu/kernels/tensor"
)

// benchLengths are the lengths the benchmark sorts: 4M and 16M keys.
var benchLengths = []int{1 << 22, 1 << 24}

// BenchmarkKeys times sort.Sorter.Keys of random keys on every device
// present beside slices.Sort of the same keys on the host in the same
// run: keys/s is the keys Keys sorts per second of device time,
// host-keys/s slices.Sort's, and device/host the ratio. Each round writes
// the unsorted keys afresh, outside the timing.
func BenchmarkKeys(b *testing.B) {
	for _, d := range gputest.Devices(b) {
		for _, n := range benchLengths {
			b.Run(fmt.Sprintf("%s/n=%d", d.Backend(), n), func(b *testing.B) {
				so, err := sort.New(d, n)
				if err != nil {
					b.Fatal(err)
				}
				defer so.Release()
				benchKeys(b, d, n, func(s *gpu.Stream, buf *gpu.Buffer[uint32]) error { return so.Keys(s, buf) })
			})
		}
	}
}

// BenchmarkSort is BenchmarkKeys through the library's call, kernels.Sort,
// which takes the registry's choice for the device: on the CPU the host's
// radix sort (kernels/simd.SortUint32), elsewhere sort.Sorter.Keys.
func BenchmarkSort(b *testing.B) {
	for _, d := range gputest.Devices(b) {
		for _, n := range benchLengths {
			b.Run(fmt.Sprintf("%s/n=%d", d.Backend(), n), func(b *testing.B) {
				benchKeys(b, d, n, func(s *gpu.Stream, buf *gpu.Buffer[uint32]) error {
					x, err := tensor.Dense(buf, buf.Len())
					if err != nil {
						return err
					}
					return kernels.Sort(s, nil, x)
				})
			})
		}
	}
}

// benchKeys times sort of n random keys on d beside slices.Sort. It
// times its rounds itself, not by gputest.Beside: each round rewrites the
// keys untimed, and the host's sort is timed by the wall clock.
func benchKeys(b *testing.B, d *gpu.Device, n int, sort func(*gpu.Stream, *gpu.Buffer[uint32]) error) {
	keys := gputest.AnyUints(rand.New(rand.NewPCG(5, 6)), n)
	buf := upload(b, d, keys)
	s := d.Stream()
	run := func() error { return sort(s, buf) }
	if err := run(); err != nil { // compiles and warms up
		b.Fatal(err)
	}
	host := make([]uint32, n)
	var td, th time.Duration
	for b.Loop() {
		if err := buf.Write(keys); err != nil {
			b.Fatal(err)
		}
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
		t, err := s.Time(run)
		if err != nil {
			b.Fatal(err)
		}
		td += t
		copy(host, keys)
		start := time.Now()
		slices.Sort(host)
		th += time.Since(start)
	}
	got, err := buf.Download()
	if err != nil {
		b.Fatal(err)
	}
	if !slices.Equal(got, host) {
		b.Fatal("the sort and slices.Sort differ")
	}
	dev := float64(n) * float64(b.N) / td.Seconds()
	hostRate := float64(n) * float64(b.N) / th.Seconds()
	b.ReportMetric(dev, "keys/s")
	b.ReportMetric(hostRate, "host-keys/s")
	b.ReportMetric(dev/hostRate, "device/host")
}
