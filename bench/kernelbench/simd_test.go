package kernelbench

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/simd"
	"github.com/goxpu/xpu/kernels/tensor"
)

// BenchmarkSIMDMatVec times simd's mat-vec of a 4096 x 4096 weight in
// Q8_0, Q4_0 and Q4_K on the host, at the path cpuid chose (simd.Path), beside
// a copy of the weight's bytes (copy, one goroutine) in the same rounds:
// matvec/copy is the mat-vec's rate of reading W over the copy's rate of
// reading and writing it. It is what the CPU backend's registry runs for
// a quantized mat-vec of row-major blocks.
func BenchmarkSIMDMatVec(b *testing.B) {
	const rows, cols = 4096, 4096
	r := rand.New(rand.NewPCG(21, 22))
	w32 := gputest.Floats(r, rows*cols, -1, 1)
	x := gputest.Floats(r, cols, -1, 1)
	y := make([]float32, rows)
	for _, f := range []tensor.Format{tensor.Q8_0, tensor.Q4_0, tensor.Q4_K} {
		b.Run(fmt.Sprintf("%s/%v/%dx%d", simd.Path(), f, rows, cols), func(b *testing.B) {
			w, err := quant.Encode(f, w32)
			if err != nil {
				b.Fatal(err)
			}
			matVec := simd.MatVecQ8_0
			switch f {
			case tensor.Q4_0:
				matVec = simd.MatVecQ4_0
			case tensor.Q4_K:
				matVec = simd.MatVecQ4_K
			}
			dst := make([]byte, len(w))
			var tm, tc time.Duration
			for b.Loop() {
				t0 := time.Now()
				if err := matVec(y, w, x, rows, cols); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				copy(dst, w)
				tm, tc = tm+t1.Sub(t0), tc+time.Since(t1)
			}
			bytes := float64(len(w)) * float64(b.N)
			b.ReportMetric(bytes/tm.Seconds()/1e9, "matvec-GB/s")
			b.ReportMetric(bytes/tc.Seconds()/1e9, "copy-GB/s")
			b.ReportMetric(tc.Seconds()/tm.Seconds(), "matvec/copy")
		})
	}
}
