package matmul_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/matmul"
)

// benchShapes are the products the benchmark times every member at:
// small, mid-sized and large squares and a wide one.
var benchShapes = []shape{{64, 64, 64}, {512, 512, 512}, {1024, 1024, 1024}, {64, 2048, 512}}

// BenchmarkTiled times every member of Tiled on every device present at
// each of benchShapes, in GFLOP/s of device time (Stream.Time): the
// members are each other's reference point, and which one is fastest
// differs by device and shape. A software adapter takes minutes over
// the large shapes (pick with -bench, raise -timeout); short mode times
// the smallest alone.
func BenchmarkTiled(b *testing.B) {
	ss := benchShapes
	if testing.Short() {
		ss = ss[:1]
	}
	for _, d := range gputest.Devices(b) {
		for _, s := range ss {
			for _, mb := range members {
				b.Run(fmt.Sprintf("%s/%s/%s", d.Backend(), s, mb.name()), func(b *testing.B) {
					benchMember(b, d, mb, s)
				})
			}
		}
	}
}

// benchMember times one member at one shape on d, after one launch that
// warms the device and the kernel's pipeline up.
func benchMember(b *testing.B, d *gpu.Device, mb member, s shape) {
	c := tile(b, mb.kernel)
	buf := func(n uint32, v float32) *gpu.Buffer[float32] {
		data := make([]float32, n)
		for i := range data {
			data[i] = v
		}
		x, err := gpu.Upload(d, data)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { x.Release() })
		return x
	}
	C, A, B := buf(s.m*s.n, 0), buf(s.m*s.k, 0.5), buf(s.k*s.n, 0.25)
	st := d.Stream()
	g := matmul.Groups(c, s.m, s.n)
	launch := func() error { return mb.launch(st, g, C, A, B, 0, 0, s.m, s.n, s.k, s.k, s.n, s.n, 1, 0) }
	if err := launch(); err != nil {
		b.Fatal(err)
	}
	if err := st.Sync(); err != nil {
		b.Fatal(err)
	}
	var total time.Duration
	for b.Loop() {
		t, err := st.Time(launch)
		if err != nil {
			b.Fatal(err)
		}
		total += t
	}
	b.ReportMetric(2*float64(s.m)*float64(s.n)*float64(s.k)*float64(b.N)/total.Seconds()/1e9, "GFLOP/s")
}
