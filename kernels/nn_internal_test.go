package kernels

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/nn"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/tune"
)

// TestSoftmaxForm checks that the softmax runs the form its registry's
// tuner answers (SoftmaxFormPays): with each form forced, the registry's
// result is the one that form's kernel gives, bit for bit, and the two
// forms' results differ somewhere, so that the comparison tells them
// apart.
func TestSoftmaxForm(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		const rows, cols = 64, 1000
		r := rand.New(rand.NewPCG(23, 24))
		s := d.Stream()
		buf := func(v []float32) *gpu.Buffer[float32] { return uploaded(t, d, v) }
		nan := gputest.FillFrom(rows*cols, func(int) float32 { return float32(math.NaN()) })
		x := buf(gputest.Floats(r, rows*cols, -8, 8))
		xt, _ := tensor.Dense(x, rows, cols)
		direct := map[string][]float32{}
		for _, f := range []struct {
			name string
			form nn.SoftmaxForm
		}{{"stored", nn.SoftmaxForm{}}, {"online", nn.SoftmaxForm{Online: true}}} {
			y, yd := buf(nan), buf(nan)
			yt, _ := tensor.Dense(y, rows, cols)
			reg := dispatch.New(ops, automatic)
			reg.Tuner = &tune.Tuner{Force: map[string]string{"pays/" + SoftmaxFormPays: f.name}}
			if err := reg.Run(s, nil, OpSoftmax, nil, yt, xt); err != nil {
				t.Fatalf("%s: %v", f.name, err)
			}
			if err := nn.LaunchSoftmax(s, nn.RowGroups(rows), f.form, yd, x, rows, cols); err != nil {
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
				t.Errorf("forced %s: the registry's result is not that form's", f.name)
			}
			direct[f.name] = want
		}
		if slices.Equal(direct["stored"], direct["online"]) {
			t.Error("the two forms agree to the bit on every row: the test cannot tell which ran")
		}
	})
}

// uploaded returns v uploaded to d, released when t ends.
func uploaded(t *testing.T, d *gpu.Device, v []float32) *gpu.Buffer[float32] {
	t.Helper()
	b, err := gpu.Upload(d, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}
