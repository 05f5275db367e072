package kernelbench_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/matmul"
)

// benchShapes are the products the benchmark times every member at:
// small, mid-sized and large squares and a wide one.
var benchShapes = []matmul.Shape{{M: 64, N: 64, K: 64}, {M: 512, N: 512, K: 512}, {M: 1024, N: 1024, K: 1024}, {M: 64, N: 2048, K: 512}}

// BenchmarkTiled times every member of matmul.Tiled on every device
// present at each of benchShapes, in GFLOP/s of device time
// (Stream.Time): the members are each other's reference point, and which
// one is fastest differs by device and shape. A software adapter takes
// minutes over the large shapes (pick with -bench, raise -timeout); short
// mode times the smallest alone.
func BenchmarkTiled(b *testing.B) {
	ss := benchShapes
	if testing.Short() {
		ss = ss[:1]
	}
	for _, d := range gputest.Devices(b) {
		for _, s := range ss {
			for _, k := range matmul.TiledTemplate.Members() {
				name := k.Name()[strings.LastIndex(k.Name(), ".")+1:]
				b.Run(fmt.Sprintf("%s/%s/%s", d.Backend(), s, name), func(b *testing.B) {
					benchMember(b, d, k, s)
				})
			}
		}
	}
}

// benchMember times member k of matmul.Tiled at shape p on d, after one
// launch that warms the device and the kernel's pipeline up. It launches
// k through the stream as its generated launcher does, with the
// arguments of Tiled.
func benchMember(b *testing.B, d *gpu.Device, k *gpu.Kernel, p matmul.Shape) {
	c, ok := k.Comptime().(matmul.Tile)
	if !ok {
		b.Fatalf("%s: comptime value %#v is not a matmul.Tile", k.Name(), k.Comptime())
	}
	m, n, depth := uint32(p.M), uint32(p.N), uint32(p.K)
	buf := func(n uint32, v float32) *gpu.Buffer[float32] {
		return upload(b, d, gputest.FillFrom(int(n), func(int) float32 { return v }))
	}
	C, A, B := buf(m*n, 0), buf(m*depth, 0.5), buf(depth*n, 0.25)
	st := d.Stream()
	g := matmul.Groups(c, m, n)
	launch := func() error {
		return st.Launch(k, g, C, A, B, uint32(0), uint32(0), m, n, depth, depth, n, n, float32(1), float32(0))
	}
	total := gputest.Beside(b, st, launch)[0]
	b.ReportMetric(2*float64(m)*float64(n)*float64(depth)*float64(b.N)/total.Seconds()/1e9, "GFLOP/s")
}
