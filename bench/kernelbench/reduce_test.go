package kernelbench_test

import (
	"fmt"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/layout"
	"github.com/goxpu/xpu/kernels/reduce"
	"github.com/goxpu/xpu/tune"
)

// benchN is the length the benchmark sums: 16 MiB of floats.
const benchN = 1 << 22

// BenchmarkSum times a reduce.Reducer's Sum of benchN floats on every
// device present, in each form, beside a copy kernel over the same buffer
// in the same run: sum-GB/s is the bytes Sum reads per second of device
// time, copy-GB/s the bytes layout.Copy reads and writes, and sum/copy
// the ratio of the two, how near Sum comes to the bandwidth the device
// gives a kernel.
func BenchmarkSum(b *testing.B) {
	for _, d := range gputest.Devices(b) {
		for _, form := range []string{"shared", "wave"} {
			b.Run(fmt.Sprintf("%s/%s", d.Backend(), form), func(b *testing.B) { benchSum(b, d, form) })
		}
	}
}

// benchSum times Sum in form ("shared" or "wave"), which a tuner told to
// answer so forces (reduce.PaysName), beside layout.Copy.
func benchSum(b *testing.B, d *gpu.Device, form string) {
	if !runsKernel(d, reduce.SumWaveKernel) && form == "wave" {
		b.Skipf("%s runs no wave form", d.Backend())
	}
	buf := func(n int) *gpu.Buffer[float32] {
		return upload(b, d, gputest.FillFrom(n, func(i int) float32 { return float32(i%7) - 3 }))
	}
	x, y, dst := buf(benchN), buf(benchN), buf(1)
	r, err := reduce.New(d, &tune.Tuner{Force: map[string]string{"pays/" + reduce.PaysName("sum"): form}})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Release()
	s := d.Stream()
	sum := func() error { return r.Sum(s, dst, x) }
	cp := func() error { return layout.LaunchCopy(s, layout.CopyGroups(benchN), y, x, benchN) }
	ts := gputest.Beside(b, s, sum, cp)
	tsum, tc := ts[0], ts[1]
	sumGBs := 4 * benchN * float64(b.N) / tsum.Seconds() / 1e9
	copyGBs := 8 * benchN * float64(b.N) / tc.Seconds() / 1e9
	b.ReportMetric(sumGBs, "sum-GB/s")
	b.ReportMetric(copyGBs, "copy-GB/s")
	b.ReportMetric(sumGBs/copyGBs, "sum/copy")
}

// runsKernel reports whether d runs k: k is not refused, and d has code
// for its backend that fits it, at a wave width d has. It is the test a
// Reducer makes before it lets a tuner choose the wave form.
func runsKernel(d *gpu.Device, k *gpu.Kernel) bool {
	if k.Refused() != "" {
		return false
	}
	if ok, err := d.KernelAvailable(k); !ok || err != nil {
		return false
	}
	_, ok := d.Manifest(k)
	return ok
}
