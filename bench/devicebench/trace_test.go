package devicebench_test

import (
	"io"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/trace"
)

// BenchmarkTrace measures what tracing costs a launch: batches of 1,000
// small launches and a sync, on each device, with no sink (the reference
// point), a sink that drops every event, and a Chrome writer to
// io.Discard, in the same iterations, the order rotating so that none
// always runs first. It reports microseconds a launch for each and their
// ratios to the untraced batch.
func BenchmarkTrace(b *testing.B) { onBenchDevices(b, benchTrace) }

func benchTrace(b *testing.B, d *gpu.Device) {
	const launches, n = 1000, 256
	y, err := gpu.NewBuffer[float32](d, n)
	if err != nil {
		b.Fatal(err)
	}
	defer y.Release()
	x, err := gpu.NewBuffer[float32](d, n)
	if err != nil {
		b.Fatal(err)
	}
	defer x.Release()
	s := d.Stream()
	batch := func(sink trace.Sink) time.Duration {
		d.SetTrace(sink)
		defer d.SetTrace(nil)
		t0 := time.Now()
		for range launches {
			if err := kernels.LaunchSaxpy(s, xpu.Dim3{X: 1}, y, x, 0.5, n); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	chrome := trace.NewChrome(io.Discard)
	defer chrome.Close()
	sinks := []trace.Sink{nil, trace.Func(func(trace.Event) {}), chrome}
	batch(nil) // compile
	var took [3]time.Duration
	i := 0
	for b.Loop() {
		for j := range sinks {
			k := (i + j) % len(sinks)
			took[k] += batch(sinks[k])
		}
		i++
	}
	per := func(t time.Duration) float64 { return float64(t) / float64(time.Microsecond) / float64(b.N*launches) }
	b.ReportMetric(per(took[0]), "off-us/launch")
	b.ReportMetric(per(took[1]), "drop-us/launch")
	b.ReportMetric(per(took[2]), "chrome-us/launch")
	b.ReportMetric(float64(took[1])/float64(took[0]), "drop/off")
	b.ReportMetric(float64(took[2])/float64(took[0]), "chrome/off")
}
