package quant_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/quant/quanttest"
)

// TestMatMulEntry checks quant.MatMul on every device present against a
// plain-Go dequantize-then-multiply in float64: each element within
// 2*cols roundings of 2^-24 of the sum of its terms' magnitudes |w||x|
// (the decoded weights are exact, so only the sums round). Batch 1,
// batches under, over and not a multiple of the tile's 16, rows of one
// and not a multiple of the tile's 64.
func TestMatMulEntry(t *testing.T) {
	shapes := [][3]int{{1, 1, 1}, {3, 2, 5}, {65, 3, 16}, {33, 2, 17}}
	if !testing.Short() && !underRace {
		shapes = append(shapes, [3]int{130, 5, 40})
	}
	r := rand.New(rand.NewPCG(19, 20))
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, f := range quanttest.Formats {
			for _, sh := range shapes {
				rows, cols, batch := sh[0], sh[1]*f.BlockSize(), sh[2]
				wb, err := quant.Encode(f, gputest.Floats(r, rows*cols, -1, 1))
				if err != nil {
					t.Fatal(err)
				}
				wf, err := quant.Decode(f, wb)
				if err != nil {
					t.Fatal(err)
				}
				x := gputest.Floats(r, cols*batch, -1, 1)
				y := upload(t, d, poisoned(rows*batch+16))
				if err := quant.MatMul(d.Stream(), f, y, upload(t, d, quant.Words(wb)), upload(t, d, x), rows, cols, batch); err != nil {
					t.Fatal(err)
				}
				got := download(t, y)
				for i := range rows {
					for n := range batch {
						var want, mag float64
						for c := range cols {
							p := float64(wf[i*cols+c]) * float64(x[c*batch+n])
							want += p
							mag += math.Abs(p)
						}
						v := got[i*batch+n]
						if e := math.Abs(float64(v) - want); !(e <= 2*float64(cols)*0x1p-24*mag) {
							t.Fatalf("%v %dx%dx%d: Y[%d, %d] = %g, want %g (off by %g, bound %g)", f, rows, cols, batch, i, n, v, want, e, 2*float64(cols)*0x1p-24*mag)
						}
					}
				}
				for i := rows * batch; i < len(got); i++ {
					if got[i] == got[i] {
						t.Fatalf("%v %dx%dx%d: wrote past the end: value %d = %g", f, rows, cols, batch, i, got[i])
					}
				}
			}
		}
	})
}
