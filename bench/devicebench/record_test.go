package devicebench_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
)

// BenchmarkRecord measures what recording launches costs (Device.SetRecord):
// batches of 100 Saxpy launches and a sync, on each device, unrecorded
// (the reference point) and recorded into a temporary folder, in the
// same iterations, alternating which runs first, for buffers of 256 and
// 65,536 elements. It reports microseconds a launch for each, their
// ratio, and the bytes a recorded launch writes.
func BenchmarkRecord(b *testing.B) { onBenchDevices(b, benchRecord) }

func benchRecord(b *testing.B, d *gpu.Device) {
	for _, n := range []uint32{256, 1 << 16} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchRecordN(b, d, n) })
	}
}

func benchRecordN(b *testing.B, d *gpu.Device, n uint32) {
	const launches = 100
	y, err := gpu.NewBuffer[float32](d, int(n))
	if err != nil {
		b.Fatal(err)
	}
	defer y.Release()
	x, err := gpu.NewBuffer[float32](d, int(n))
	if err != nil {
		b.Fatal(err)
	}
	defer x.Release()
	s := d.Stream()
	groups := xpu.Dim3{X: xpu.GroupsFor(n, 256)}
	root := b.TempDir()
	var written int64
	batch := func(record bool) time.Duration {
		dir := ""
		if record {
			dir = root
		}
		if err := d.SetRecord(dir); err != nil {
			b.Fatal(err)
		}
		rec := d.Recording()
		t0 := time.Now()
		for range launches {
			if err := kernels.LaunchSaxpy(s, groups, y, x, 0.5, n); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
		took := time.Since(t0)
		if err := d.SetRecord(""); err != nil {
			b.Fatal(err)
		}
		if record {
			written += dirBytes(b, rec)
			os.RemoveAll(rec)
		}
		return took
	}
	batch(false) // compile
	var off, on time.Duration
	i := 0
	for b.Loop() {
		if i%2 == 0 {
			off += batch(false)
			on += batch(true)
		} else {
			on += batch(true)
			off += batch(false)
		}
		i++
	}
	per := func(t time.Duration) float64 { return float64(t) / float64(time.Microsecond) / float64(b.N*launches) }
	b.ReportMetric(per(off), "off-us/launch")
	b.ReportMetric(per(on), "record-us/launch")
	b.ReportMetric(float64(on)/float64(off), "record/off")
	b.ReportMetric(float64(written)/float64(b.N*launches), "B/launch")
}

// dirBytes returns the bytes of the files in dir.
func dirBytes(b *testing.B, dir string) int64 {
	es, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var sum int64
	for _, e := range es {
		fi, err := os.Stat(filepath.Join(dir, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		sum += fi.Size()
	}
	return sum
}
