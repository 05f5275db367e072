package nn_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/nn"
	"github.com/goxpu/xpu/kernels/nn/nntest"
)

// This file checks the layers against plain-Go definitions computed in
// float64, independently of the reference runner: what the kernels
// compute is the layer, not only what their own code says.

func upload[T any](t *testing.T, d *gpu.Device, v []T) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.Upload(d, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}

func download(t *testing.T, s *gpu.Stream, b *gpu.Buffer[float32]) []float32 {
	t.Helper()
	if err := s.Sync(); err != nil {
		t.Fatal(err)
	}
	v, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// near checks got against want, NaN matching NaN, within rel of the
// larger magnitude or abs.
func near(t *testing.T, what string, got []float32, want []float64, rel, abs float64) {
	t.Helper()
	for i, w := range want {
		g := float64(got[i])
		if math.IsNaN(w) && math.IsNaN(g) {
			continue
		}
		if d := math.Abs(g - w); !(d <= abs || d <= rel*math.Max(math.Abs(w), math.Abs(g))) {
			t.Fatalf("%s: element %d is %v, want %v", what, i, g, w)
		}
	}
}

// The bounds against exact arithmetic: float32 sums of up to 700 terms
// and a handful of library functions of a few ulp each.
const (
	rowRel = 1e-4
	rowAbs = 1e-6
)

func TestNumerics(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(7, 8))
		s := d.Stream()
		const rows, cols = 6, 600
		x := nntest.Seasoned(r, rows*cols, cols, -4, 4)
		// Row 2 holds +Inf (NaN throughout, as IEEE has exp(Inf - Inf)),
		// row 3 only -Inf (NaN throughout: exp(-Inf + Inf)), row 5 a NaN
		// with its sign bit set (below every key of a number).
		x[2*cols+cols/3] = float32(math.Inf(1))
		for j := range cols {
			x[3*cols+j] = float32(math.Inf(-1))
		}
		x[5*cols+7] = math.Float32frombits(0xffc00001)
		const many, few = 70001, 3
		xm := gputest.Floats(r, many*few, -4, 4)
		for _, f := range []nn.SoftmaxForm{{}, {Online: true}} {
			name := fmt.Sprintf("softmax %+v", f)
			y := upload(t, d, gputest.FillFrom(rows*cols, func(int) float32 { return 7 }))
			if err := nn.LaunchSoftmax(s, nn.RowGroups(rows), f, y, upload(t, d, x), rows, cols); err != nil {
				t.Fatal(err)
			}
			near(t, name, download(t, s, y), softmax(x, rows, cols), rowRel, rowAbs)

			// More rows than a WebGPU grid holds along X: RowGroups' grid
			// runs folded there.
			ym := upload(t, d, gputest.FillFrom(many*few, func(int) float32 { return float32(math.NaN()) }))
			if err := nn.LaunchSoftmax(s, nn.RowGroups(many), f, ym, upload(t, d, xm), many, few); err != nil {
				t.Fatal(err)
			}
			near(t, name+" of 70001 rows", download(t, s, ym), softmax(xm, many, few), rowRel, rowAbs)
		}

		y := upload(t, d, make([]float32, rows*cols))
		x = gputest.Floats(r, rows*cols, -1, 1)
		w, b := gputest.Floats(r, cols, 0.5, 1.5), gputest.Floats(r, cols, -1, 1)
		xb, wb, bb := upload(t, d, x), upload(t, d, w), upload(t, d, b)
		if err := nn.LaunchRMSNorm(s, nn.RowGroups(rows), y, xb, wb, rows, cols, 1e-5); err != nil {
			t.Fatal(err)
		}
		near(t, "rmsnorm", download(t, s, y), norm(x, w, nil, rows, cols, 1e-5), rowRel, rowAbs)
		if err := nn.LaunchLayerNorm(s, nn.RowGroups(rows), y, xb, wb, bb, rows, cols, 1e-5); err != nil {
			t.Fatal(err)
		}
		near(t, "layernorm", download(t, s, y), norm(x, w, b, rows, cols, 1e-5), rowRel, 1e-5)

		const n = 4096
		v := gputest.Floats(r, n, -8, 8)
		vb, out := upload(t, d, v), upload(t, d, make([]float32, n))
		silu, gelu := make([]float64, n), make([]float64, n)
		for i, e := range v {
			x := float64(e)
			silu[i] = x / (1 + math.Exp(-x))
			gelu[i] = 0.5 * x * (1 + math.Erf(x/math.Sqrt2))
		}
		if err := nn.LaunchSiLU(s, nn.ElemGroups(n), out, vb, n); err != nil {
			t.Fatal(err)
		}
		near(t, "silu", download(t, s, out), silu, 1e-5, 1e-6)
		// The tanh approximation is within 5e-4 of the erf definition.
		if err := nn.LaunchGELU(s, nn.ElemGroups(n), out, vb, n); err != nil {
			t.Fatal(err)
		}
		near(t, "gelu", download(t, s, out), gelu, 0, 5e-4)

		const tokens, heads, dim = 6, 4, 16
		q := gputest.Floats(r, tokens*heads*dim, -1, 1)
		pos := []uint32{0, 1, 7, 100, 511, 2047}
		qo := upload(t, d, make([]float32, len(q)))
		if err := nn.LaunchRoPE(s, nn.ElemGroups(tokens*heads*dim/2), qo, upload(t, d, q), upload(t, d, pos), tokens, heads, dim, 10000); err != nil {
			t.Fatal(err)
		}
		near(t, "rope", download(t, s, qo), rope(q, pos, heads, dim, 10000), 0, 2e-3)
	})
}

// softmax is the row-wise softmax in float64: NaN for a row holding one.
func softmax(x []float32, rows, cols int) []float64 {
	y := make([]float64, len(x))
	for r := range rows {
		row := x[r*cols : (r+1)*cols]
		m := math.Inf(-1)
		nan := false
		for _, v := range row {
			m = math.Max(m, float64(v))
			nan = nan || math.IsNaN(float64(v))
		}
		var s float64
		for _, v := range row {
			s += math.Exp(float64(v) - m)
		}
		for j, v := range row {
			y[r*cols+j] = math.Exp(float64(v)-m) / s
			if nan {
				y[r*cols+j] = math.NaN()
			}
		}
	}
	return y
}

// norm is RMSNorm (b nil) or LayerNorm in float64.
func norm(x, w, b []float32, rows, cols int, eps float64) []float64 {
	y := make([]float64, len(x))
	for r := range rows {
		row := x[r*cols : (r+1)*cols]
		var mean float64
		if b != nil {
			for _, v := range row {
				mean += float64(v)
			}
			mean /= float64(cols)
		}
		var q float64
		for _, v := range row {
			q += (float64(v) - mean) * (float64(v) - mean)
		}
		scale := 1 / math.Sqrt(q/float64(cols)+eps)
		for j, v := range row {
			y[r*cols+j] = (float64(v) - mean) * scale * float64(w[j])
			if b != nil {
				y[r*cols+j] += float64(b[j])
			}
		}
	}
	return y
}

// rope rotates each head's pairs by pos * theta^(-2i/dim), in float64.
func rope(x []float32, pos []uint32, heads, dim int, theta float64) []float64 {
	y := make([]float64, len(x))
	for tok, p := range pos {
		for h := range heads {
			for i := range dim / 2 {
				at := (tok*heads+h)*dim + 2*i
				a := float64(p) * math.Pow(theta, -2*float64(i)/float64(dim))
				c, s := math.Cos(a), math.Sin(a)
				y[at] = float64(x[at])*c - float64(x[at+1])*s
				y[at+1] = float64(x[at])*s + float64(x[at+1])*c
			}
		}
	}
	return y
}
