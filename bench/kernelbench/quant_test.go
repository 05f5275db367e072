package kernelbench_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/layout"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// quantFormats are the formats the benchmarks time each kernel in.
var quantFormats = []tensor.Format{tensor.Q8_0, tensor.Q4_0, tensor.Q4_K}

// BenchmarkMatVec times quant.MatVec of a 4096 x 4096 W in each format
// on every device present, beside a copy of a buffer of the same bytes
// as W (layout.CopyWords) and quant.MatVecInputMajorForm of the same W
// packed input-major (quant.Pack) in each form, split and whole, timed
// in the same rounds: a mat-vec reads each weight once, so the copy's
// rate of reading is the mark it can approach. It reports the rates in
// GB/s of W's bytes (the copy writes as many again), each mat-vec's over
// the copy's, and the split form over row-major. Short mode takes 1024
// x 1024.
func BenchmarkMatVec(b *testing.B) {
	rows, cols := 4096, 4096
	if testing.Short() {
		rows, cols = 1024, 1024
	}
	r := rand.New(rand.NewPCG(11, 12))
	w32 := gputest.Floats(r, rows*cols, -1, 1)
	x := gputest.Floats(r, cols, -1, 1)
	for _, d := range gputest.Devices(b) {
		for _, f := range quantFormats {
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
				inputMajor := func() error { return quant.MatVecInputMajorForm(st, quant.Split, f, yBuf, packed, xBuf, rows, cols) }
				whole := func() error { return quant.MatVecInputMajorForm(st, quant.Whole, f, yBuf, packed, xBuf, rows, cols) }
				n := uint32(len(words))
				copyWords := func() error { return layout.LaunchCopyWords(st, layout.CopyGroups(n), dst, src, n) }
				ts := gputest.Beside(b, st, matVec, inputMajor, copyWords, whole)
				tm, ti, tc, tw := ts[0], ts[1], ts[2], ts[3]
				bytes := float64(len(wb)) * float64(b.N)
				b.ReportMetric(bytes/tm.Seconds()/1e9, "matvec-GB/s")
				b.ReportMetric(bytes/ti.Seconds()/1e9, "inputmajor-GB/s")
				b.ReportMetric(bytes/tc.Seconds()/1e9, "copy-GB/s")
				b.ReportMetric(tc.Seconds()/tm.Seconds(), "matvec/copy")
				b.ReportMetric(tc.Seconds()/ti.Seconds(), "inputmajor/copy")
				b.ReportMetric(bytes/tw.Seconds()/1e9, "whole-GB/s")
				b.ReportMetric(tc.Seconds()/tw.Seconds(), "whole/copy")
				b.ReportMetric(tm.Seconds()/ti.Seconds(), "inputmajor/rowmajor")
			})
		}
	}
}

// BenchmarkMatMul times quant.MatMul of a 2048 x 2048 W in each format by
// a batch of 16 activations (a prefill of 16 tokens) on every device
// present, beside quant.MatVec run once per activation in the same
// rounds, the way a decoder without a batched kernel would run the
// prefill. It reports both in GB/s of W's bytes times the batch (the
// rate W would have to stream at if each activation read it) and the
// speed-up, mat-vecs' time over mat-mul's. Short mode takes 1024 x 1024.
func BenchmarkMatMul(b *testing.B) {
	rows, cols, batch := 2048, 2048, 16
	if testing.Short() {
		rows, cols = 1024, 1024
	}
	r := rand.New(rand.NewPCG(13, 14))
	w32 := gputest.Floats(r, rows*cols, -1, 1)
	x := gputest.Floats(r, cols*batch, -1, 1)
	for _, d := range gputest.Devices(b) {
		for _, f := range quantFormats {
			b.Run(fmt.Sprintf("%s/%v/%dx%dx%d", d.Backend(), f, rows, cols, batch), func(b *testing.B) {
				wb, err := quant.Encode(f, w32)
				if err != nil {
					b.Fatal(err)
				}
				wBuf, xBuf, yBuf := upload(b, d, quant.Words(wb)), upload(b, d, x), upload(b, d, make([]float32, rows*batch))
				// The mat-vecs' activations, one buffer each: column n of X.
				xs := make([]*gpu.Buffer[float32], batch)
				for n := range xs {
					col := make([]float32, cols)
					for c := range col {
						col[c] = x[c*batch+n]
					}
					xs[n] = upload(b, d, col)
				}
				ys := upload(b, d, make([]float32, rows))
				st := d.Stream()
				matMul := func() error { return quant.MatMul(st, f, yBuf, wBuf, xBuf, rows, cols, batch) }
				matVecs := func() error {
					for _, xn := range xs {
						if err := quant.MatVec(st, f, ys, wBuf, xn, rows, cols); err != nil {
							return err
						}
					}
					return nil
				}
				ts := gputest.Beside(b, st, matMul, matVecs)
				tm, tv := ts[0], ts[1]
				bytes := float64(len(wb)) * float64(batch) * float64(b.N)
				b.ReportMetric(bytes/tm.Seconds()/1e9, "matmul-GB/s")
				b.ReportMetric(bytes/tv.Seconds()/1e9, "matvecs-GB/s")
				b.ReportMetric(tv.Seconds()/tm.Seconds(), "matvecs/matmul")
			})
		}
	}
}
