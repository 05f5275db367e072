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

// TestMatVecInputMajorEntry checks quant.MatVecInputMajor, and
// quant.MatVecInputMajorForm in each form, on every device present, on
// weights packed on the device by quant.Pack, against the plain-Go
// dequantize-then-dot in float64 of the row-major weights, with
// TestMatVecEntry's bound, and that it agrees with quant.MatVec of the
// same weights within twice that bound.
func TestMatVecInputMajorEntry(t *testing.T) {
	shapes := [][2]int{{1, 1}, {3, 2}, {33, 9}, {257, 1}, {70, 17}, {513, 3}}
	r := rand.New(rand.NewPCG(17, 18))
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		s := d.Stream()
		for _, f := range quanttest.Formats {
			for _, sh := range shapes {
				rows, cols := sh[0], sh[1]*f.BlockSize()
				wb, err := quant.Encode(f, gputest.Floats(r, rows*cols, -1, 1))
				if err != nil {
					t.Fatal(err)
				}
				wf, err := quant.Decode(f, wb)
				if err != nil {
					t.Fatal(err)
				}
				x := gputest.Floats(r, cols, -1, 1)
				want, mag := dot64(f, wb, wf, x, rows, cols)
				rowMajor := upload(t, d, quant.Words(wb))
				packed := upload(t, d, make([]uint32, len(quant.Words(wb))))
				if err := quant.Pack(s, f, packed, rowMajor, rows, cols); err != nil {
					t.Fatal(err)
				}
				xb := upload(t, d, x)
				yr := upload(t, d, poisoned(rows))
				if err := quant.MatVec(s, f, yr, rowMajor, xb, rows, cols); err != nil {
					t.Fatal(err)
				}
				byRow := download(t, yr)
				for _, form := range []string{"default", "split", "whole"} {
					y := upload(t, d, poisoned(rows+16))
					var err error
					switch form {
					case "default":
						err = quant.MatVecInputMajor(s, f, y, packed, xb, rows, cols)
					case "split":
						err = quant.MatVecInputMajorForm(s, quant.Split, f, y, packed, xb, rows, cols)
					default:
						err = quant.MatVecInputMajorForm(s, quant.Whole, f, y, packed, xb, rows, cols)
					}
					if err != nil {
						t.Fatal(err)
					}
					got := download(t, y)
					for i := range rows {
						bound := 2 * float64(cols) * 0x1p-24 * mag[i]
						if e := math.Abs(float64(got[i]) - want[i]); !(e <= bound) {
							t.Fatalf("%s %v %dx%d: y[%d] = %g, want %g (off by %g, bound %g)", form, f, rows, cols, i, got[i], want[i], e, bound)
						}
						if e := math.Abs(float64(got[i]) - float64(byRow[i])); !(e <= 2*bound) {
							t.Fatalf("%s %v %dx%d: y[%d] = %g, quant.MatVec's %g (off by %g, bound %g)", form, f, rows, cols, i, got[i], byRow[i], e, 2*bound)
						}
					}
					for i := rows; i < len(got); i++ {
						if got[i] == got[i] {
							t.Fatalf("%s %v %dx%d: wrote past the end: y[%d] = %g", form, f, rows, cols, i, got[i])
						}
					}
				}
			}
		}
	})
}
