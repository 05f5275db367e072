package kernels

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/tune"
)

// TestInputMajorForm checks that the input-major mat-vec runs the form
// its registry's tuner answers (MatVecFormPays): with each form forced,
// the registry's result is the one quant.MatVecInputMajorForm of that
// form gives, bit for bit, and the two forms' results differ somewhere,
// so that the comparison tells them apart.
func TestInputMajorForm(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		const rows, cols = 40, 1024
		r := rand.New(rand.NewPCG(21, 22))
		s := d.Stream()
		buf := func(v []float32) *gpu.Buffer[float32] { return uploaded(t, d, v) }
		for _, f := range quantFormats {
			wb, err := quant.Encode(f, gputest.Floats(r, rows*cols, -1, 1))
			if err != nil {
				t.Fatal(err)
			}
			packed, err := quant.InputMajor(f, wb, rows, cols)
			if err != nil {
				t.Fatal(err)
			}
			w, err := gpu.Upload(d, quant.Words(packed))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(w.Release)
			x := buf(gputest.Floats(r, cols, -1, 1))
			wt, err := tensor.Blocked(w, f, tensor.BlockedInputMajor, rows, cols)
			if err != nil {
				t.Fatal(err)
			}
			xt, _ := tensor.Dense(x, cols)
			direct := map[quant.Form][]float32{}
			for _, fm := range []quant.Form{quant.Split, quant.Whole} {
				nan := make([]float32, rows)
				for i := range nan {
					nan[i] = float32(math.NaN())
				}
				y, yd := buf(nan), buf(nan)
				yt, _ := tensor.Dense(y, rows)
				reg := dispatch.New(ops, automatic)
				reg.Tuner = &tune.Tuner{Force: map[string]string{"pays/" + MatVecFormPays(f): fm.String()}}
				if err := reg.Run(s, nil, OpMatVec, nil, yt, wt, xt); err != nil {
					t.Fatalf("%v %v: %v", f, fm, err)
				}
				if err := quant.MatVecInputMajorForm(s, fm, f, yd, w, x, rows, cols); err != nil {
					t.Fatal(err)
				}
				got, err := y.Download()
				if err != nil {
					t.Fatal(err)
				}
				want, err := yd.Download()
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%v forced %v: the registry's result is not that form's", f, fm)
				}
				direct[fm] = want
			}
			if slices.Equal(direct[quant.Split], direct[quant.Whole]) {
				t.Errorf("%v: the two forms agree to the bit on every row: the test cannot tell which ran", f)
			}
		}
	})
}
