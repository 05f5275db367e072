package devicebench_test

import (
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
)

// copyN is the length the copy benchmark copies: 64 MiB of floats, past
// every device's caches.
const copyN = 1 << 24

// BenchmarkCopy measures the copy kernel on each device (at each tier or
// driver) in GB/s moved
// (read and written). On the CPU the reference point is Go's copy of the
// same slices in the same run (copy/go, the kernel's rate over it); on a
// GPU it is the driver's device-to-device copy, which scripts/device-check
// measures beside it.
func BenchmarkCopy(b *testing.B) { onBenchDevices(b, benchCopy) }

func benchCopy(b *testing.B, d *gpu.Device) {
	x, err := gpu.Upload(d, make([]float32, copyN))
	if err != nil {
		b.Fatal(err)
	}
	defer x.Release()
	y, err := gpu.NewBuffer[float32](d, copyN)
	if err != nil {
		b.Fatal(err)
	}
	defer y.Release()
	s := d.Stream()
	g := xpu.Dim3{X: xpu.GroupsFor(copyN, kernels.CopyKernel.Block().X)}
	run := func() time.Duration {
		t0 := time.Now()
		if err := kernels.LaunchCopy(s, g, y, x, copyN); err != nil {
			b.Fatal(err)
		}
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	run() // compile and first launch
	src, dst := make([]float32, copyN), make([]float32, copyN)
	var kernel, host time.Duration
	for b.Loop() {
		kernel += run()
		t0 := time.Now()
		copy(dst, src)
		host += time.Since(t0)
	}
	gbs := func(t time.Duration) float64 { return 8 * copyN * float64(b.N) / t.Seconds() / 1e9 }
	b.ReportMetric(gbs(kernel), "copy-GB/s")
	b.ReportMetric(gbs(host), "go-copy-GB/s")
	b.ReportMetric(gbs(kernel)/gbs(host), "copy/go")
	b.ReportMetric(0, "ns/op")
}
