package quant_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/quant/internal/bandwidth"
)

// BenchmarkMatVec times quant.MatVec of a 4096 x 4096 W in each format
// on every device present, beside a copy of a buffer of the same bytes
// as W (bandwidth.Copy, 32-bit words) and quant.MatVecInputMajor of the
// same W packed input-major (quant.Pack), timed in the same rounds: a
// mat-vec reads each weight once, so the copy's rate of reading is the
// mark it can approach. It reports the three rates in GB/s of W's bytes
// (the copy writes as many again), each mat-vec's over the copy's, and
// input-major over row-major. Short mode takes 1024 x 1024.
func BenchmarkMatVec(b *testing.B) {
	rows, cols := 4096, 4096
	if testing.Short() {
		rows, cols = 1024, 1024
	}
	r := rand.New(rand.NewPCG(11, 12))
	w32 := gputest.Floats(r, rows*cols, -1, 1)
	x := gputest.Floats(r, cols, -1, 1)
	for _, d := range gputest.Devices(b) {
		for _, f := range formats {
			b.Run(fmt.Sprintf("%s/%v/%dx%d", d.Backend(), f, rows, cols), func(b *testing.B) {
				wb, err := quant.Encode(f, w32)
				if err != nil {
					b.Fatal(err)
				}
				words := quant.Words(wb)
				wBuf, xBuf, yBuf := upload(b, d, words), upload(b, d, x), upload(b, d, make([]float32, rows))
				src, dst := upload(b, d, words), upload(b, d, make([]uint32, len(words)))
				st := d.Stream()
				packed := upload(b, d, make([]uint32, len(words)))
				if err := quant.Pack(st, f, packed, wBuf, rows, cols); err != nil {
					b.Fatal(err)
				}
				matVec := func() error { return quant.MatVec(st, f, yBuf, wBuf, xBuf, rows, cols) }
				inputMajor := func() error { return quant.MatVecInputMajor(st, f, yBuf, packed, xBuf, rows, cols) }
				n := uint32(len(words))
				copyWords := func() error { return bandwidth.LaunchCopy(st, xpu.Dim3{X: xpu.GroupsFor(n, 256)}, dst, src, n) }
				for _, warm := range []func() error{matVec, inputMajor, copyWords} {
					if err := warm(); err != nil {
						b.Fatal(err)
					}
				}
				if err := st.Sync(); err != nil {
					b.Fatal(err)
				}
				var tm, ti, tc time.Duration
				for b.Loop() {
					for _, run := range []struct {
						f   func() error
						sum *time.Duration
					}{{matVec, &tm}, {inputMajor, &ti}, {copyWords, &tc}} {
						e, err := st.Time(run.f)
						if err != nil {
							b.Fatal(err)
						}
						*run.sum += e
					}
				}
				bytes := float64(len(wb)) * float64(b.N)
				b.ReportMetric(bytes/tm.Seconds()/1e9, "matvec-GB/s")
				b.ReportMetric(bytes/ti.Seconds()/1e9, "inputmajor-GB/s")
				b.ReportMetric(bytes/tc.Seconds()/1e9, "copy-GB/s")
				b.ReportMetric(tc.Seconds()/tm.Seconds(), "matvec/copy")
				b.ReportMetric(tc.Seconds()/ti.Seconds(), "inputmajor/copy")
				b.ReportMetric(tm.Seconds()/ti.Seconds(), "inputmajor/rowmajor")
			})
		}
	}
}
