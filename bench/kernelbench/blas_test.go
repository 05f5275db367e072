package kernelbench_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/blas"
	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// benchGemv is the matrix the Sgemv benchmark times: 1024 x 1024, 4 MiB
// of A read once a call (short mode: 256 x 256).
func benchGemv() (m, n int) {
	if testing.Short() {
		return 256, 256
	}
	return 1024, 1024
}

// BenchmarkSgemv times blas.Sgemv in both transposes on every device
// present, in GB/s of A read a second of device time (Stream.Time),
// beside gonum's pure-Go Sgemv on the host (wall time), the reference
// point.
func BenchmarkSgemv(b *testing.B) {
	m, n := benchGemv()
	a, x, y := make([]float32, m*n), make([]float32, max(m, n)), make([]float32, max(m, n))
	for i := range a {
		a[i] = float32(i%7) / 7
	}
	for _, tA := range []gblas.Transpose{gblas.NoTrans, gblas.Trans} {
		b.Run(fmt.Sprintf("gonum/%c/%dx%d", tA, m, n), func(b *testing.B) {
			start := time.Now()
			for b.Loop() {
				blas32.Implementation().Sgemv(tA, m, n, 1, a, n, x, 1, 0, y, 1)
			}
			b.ReportMetric(4*float64(m*n)*float64(b.N)/time.Since(start).Seconds()/1e9, "GB/s")
		})
		for _, d := range gputest.Devices(b) {
			b.Run(fmt.Sprintf("%s/%c/%dx%d", d.Backend(), tA, m, n), func(b *testing.B) {
				A, X, Y := upload(b, d, a), upload(b, d, x), upload(b, d, y)
				s := d.Stream()
				call := func() error { return blas.Sgemv(s, tA, m, n, 1, A, n, X, 1, 0, Y, 1) }
				total := gputest.Beside(b, s, call)[0]
				b.ReportMetric(4*float64(m*n)*float64(b.N)/total.Seconds()/1e9, "GB/s")
			})
		}
	}
}
