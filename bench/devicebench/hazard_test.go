package devicebench_test

import (
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
)

// BenchmarkHazard measures what ordering streams costs a launch: batches
// of 1,000 small launches and a sync, on each device, three ways in the
// same iterations, the order rotating so that none always runs first:
//
//	alone-us/launch    the default stream, the device's only one (no
//	                   claims tracked: the reference point)
//	tracked-us/launch  the default stream, with a second stream live, so
//	                   that every launch checks and claims its buffers
//	two-us/launch      the launches alternating between the two streams,
//	                   on buffers of their own (checked, never in conflict)
//
// and the ratios of the last two to the first.
func BenchmarkHazard(b *testing.B) { onBenchDevices(b, benchHazard) }

func benchHazard(b *testing.B, d *gpu.Device) {
	const launches, n = 1000, 256
	newBuf := func() *gpu.Buffer[float32] {
		buf, err := gpu.NewBuffer[float32](d, n)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(buf.Release)
		return buf
	}
	y, x, y2, x2 := newBuf(), newBuf(), newBuf(), newBuf()
	def := d.Stream()
	batch := func(way int) time.Duration {
		var s2 *gpu.Stream
		if way > 0 {
			var err error
			if s2, err = d.NewStream(); err != nil {
				b.Fatal(err)
			}
			defer s2.Close()
		}
		t0 := time.Now()
		for i := range launches {
			s, yb, xb := def, y, x
			if way == 2 && i%2 == 1 {
				s, yb, xb = s2, y2, x2
			}
			if err := kernels.LaunchSaxpy(s, xpu.Dim3{X: 1}, yb, xb, 0.5, n); err != nil {
				b.Fatal(err)
			}
		}
		if err := d.Sync(); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0)
	}
	batch(0) // compile
	var took [3]time.Duration
	i := 0
	for b.Loop() {
		for j := range took {
			k := (i + j) % len(took)
			took[k] += batch(k)
		}
		i++
	}
	per := func(t time.Duration) float64 { return float64(t) / float64(time.Microsecond) / float64(b.N*launches) }
	b.ReportMetric(per(took[0]), "alone-us/launch")
	b.ReportMetric(per(took[1]), "tracked-us/launch")
	b.ReportMetric(per(took[2]), "two-us/launch")
	b.ReportMetric(float64(took[1])/float64(took[0]), "tracked/alone")
	b.ReportMetric(float64(took[2])/float64(took[0]), "two/alone")
}
