package reduce

import (
	"fmt"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/layout"
	"github.com/goxpu/xpu/tune"
)

// benchN is the length the benchmark sums: 16 MiB of floats.
const benchN = 1 << 22

// BenchmarkSum times Sum of benchN floats on every device present, in
// each form, beside a copy kernel over the same buffer in the same run:
// sum-GB/s is the bytes Sum reads per second of device time, copy-GB/s
// the bytes layout.Copy reads and writes, and sum/copy the ratio of the two,
// how near Sum comes to the bandwidth the device gives a kernel.
func BenchmarkSum(b *testing.B) {
	for _, d := range gputest.Devices(b) {
		for _, form := range []string{"shared", "wave"} {
			b.Run(fmt.Sprintf("%s/%s", d.Backend(), form), func(b *testing.B) { benchSum(b, d, form) })
		}
	}
}

func benchSum(b *testing.B, d *gpu.Device, form string) {
	if !runs(d, SumWaveKernel) && form == "wave" {
		b.Skipf("%s runs no wave form", d.Backend())
	}
	buf := func(n int) *gpu.Buffer[float32] {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(i%7) - 3
		}
		x, err := gpu.Upload(d, v)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(x.Release)
		return x
	}
	x, y, dst := buf(benchN), buf(benchN), buf(1)
	r, err := New(d, &tune.Tuner{Force: map[string]string{"pays/" + PaysName("sum"): form}})
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
