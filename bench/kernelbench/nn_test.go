package kernelbench_test

import (
	"fmt"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels"
	"github.com/goxpu/xpu/kernels/layout"
	"github.com/goxpu/xpu/kernels/nn"
	"github.com/goxpu/xpu/kernels/tensor"
)

// The row-wise layers' benchmark shapes: 4 Mi elements (16 MiB) in rows of 4096
// columns, a model's width, and of 1000 and 32768 columns beside it.
const benchElems = 1 << 22

var benchCols = []uint32{4096, 1000, 32768}

// BenchmarkRows times the library's softmax (kernels.Softmax, the form
// its tuner measures faster on the device), nn's two softmax members,
// RMSNorm and LayerNorm of about benchElems elements, rows of each of
// benchCols, on every device present beside layout.Copy of the same
// elements in the same rounds.
// Each layer reads its input and writes its output at least once, the
// bytes the copy moves, so layer/copy, the copy's time over the layer's,
// is the share of the device's copy bandwidth the layer reaches.
func BenchmarkRows(b *testing.B) {
	for _, d := range gputest.Devices(b) {
		s := d.Stream()
		buf := func(n int) *gpu.Buffer[float32] {
			return upload(b, d, gputest.FillFrom(n, func(i int) float32 { return float32(i%13)/13 - 0.5 }))
		}
		for _, cols := range benchCols {
			rows := uint32(benchElems) / cols
			n := rows * cols
			x, y, w, bias := buf(int(n)), buf(int(n)), buf(int(cols)), buf(int(cols))
			g := nn.RowGroups(rows)
			xt, err := tensor.Dense(x, int(rows), int(cols))
			if err != nil {
				b.Fatal(err)
			}
			yt, err := tensor.Dense(y, int(rows), int(cols))
			if err != nil {
				b.Fatal(err)
			}
			for _, l := range []struct {
				name string
				run  func() error
			}{
				{"softmax", func() error { return kernels.Softmax(s, nil, yt, xt) }},
				{"softmax-stored", func() error { return nn.LaunchSoftmaxStored(s, g, y, x, rows, cols) }},
				{"softmax-online", func() error { return nn.LaunchSoftmaxOnline(s, g, y, x, rows, cols) }},
				{"rmsnorm", func() error { return nn.LaunchRMSNorm(s, g, y, x, w, rows, cols, 1e-5) }},
				{"layernorm", func() error { return nn.LaunchLayerNorm(s, g, y, x, w, bias, rows, cols, 1e-5) }},
			} {
				b.Run(fmt.Sprintf("%s/%s/cols=%d", d.Backend(), l.name, cols), func(b *testing.B) {
					cp := func() error { return layout.LaunchCopy(s, layout.CopyGroups(n), y, x, n) }
					ts := gputest.Beside(b, s, l.run, cp)
					tl, tc := ts[0], ts[1]
					b.ReportMetric(8*float64(n)*float64(b.N)/tl.Seconds()/1e9, "layer-GB/s")
					b.ReportMetric(8*float64(n)*float64(b.N)/tc.Seconds()/1e9, "copy-GB/s")
					b.ReportMetric(tc.Seconds()/tl.Seconds(), "layer/copy")
				})
			}
		}
	}
}
