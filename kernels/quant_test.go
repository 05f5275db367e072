package kernels_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// quantized uploads rows x cols random values in [-1, 1) encoded in f,
// and returns the tensor and the values its blocks decode to.
func quantized(t *testing.T, d *gpu.Device, r *rand.Rand, f tensor.Format, rows, cols int) (tensor.Tensor, []float32) {
	t.Helper()
	b, err := quant.Encode(f, gputest.Floats(r, rows*cols, -1, 1))
	if err != nil {
		t.Fatal(err)
	}
	vals, err := quant.Decode(f, b)
	if err != nil {
		t.Fatal(err)
	}
	wb, err := gpu.Upload(d, quant.Words(b))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(wb.Release)
	w, err := tensor.Blocked(wb, f, tensor.BlockedRowMajor, rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	return w, vals
}

// TestQuantized checks the quantized operands: a mat-vec of each block
// format runs quant.MatVec, bit for bit what it computes when launched
// directly; a product with a quantized left operand, which no kernel
// takes, runs the reference rather than dequantize the weight every
// call, with the plan naming Convert; and the weight converted once runs
// the float32 product. Both agree with plain Go on the decoded values.
func TestQuantized(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(15, 16))
		s := d.Stream()
		const rows, cols = 20, 512
		x, _ := matrix(t, d, r, cols)
		for _, f := range []tensor.Format{tensor.Q8_0, tensor.Q4_0, tensor.Q4_K} {
			w, _ := quantized(t, d, r, f, rows, cols)
			y, want := poisoned(t, d, rows), poisoned(t, d, rows)
			if err := kernels.MatVec(s, nil, y, w, x); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			wb, _ := tensor.Buffer[uint32](w)
			xb, _ := tensor.Buffer[float32](x)
			yb, _ := tensor.Buffer[float32](want)
			if err := quant.MatVec(s, f, yb, wb, xb, rows, cols); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(download(t, s, y), download(t, s, want)) {
				t.Errorf("%s: the operation's mat-vec differs from quant.MatVec's", f)
			}
		}

		const m, n, k = 6, 5, 64
		a, av := quantized(t, d, r, tensor.Q4_0, m, k)
		b, bv := matrix(t, d, r, k, n)
		c := poisoned(t, d, m, n)
		p, err := kernels.Registry.Lookup(d, kernels.OpMatMul, nil, c, a, b)
		if err != nil || !p.Fallback || len(p.Why) != 1 || !strings.Contains(p.Why[0], "convert it once at load (Registry.Convert to f32/contiguous)") {
			t.Fatalf("a Q4_0 left operand: %+v, %v", p, err)
		}
		sc := dispatch.NewScope()
		defer sc.Release()
		if err := kernels.MatMul(s, sc, c, a, b); err != nil {
			t.Fatal(err)
		}
		want := product(av, bv, m, n, k)
		agreeSigned(t, "the reference's product of a Q4_0 a", c, want, av, bv, m, n, k)
		af, err := kernels.Registry.Convert(s, sc, tensor.Descriptor{Format: tensor.F32, Layout: tensor.Contiguous}, a)
		if err != nil {
			t.Fatal(err)
		}
		c2 := poisoned(t, d, m, n)
		if err := kernels.MatMul(s, sc, c2, af, b); err != nil {
			t.Fatal(err)
		}
		agreeSigned(t, "the product of a converted at load", c2, want, av, bv, m, n, k)
	})
}

// agreeSigned checks a product of operands of either sign: each element
// within k roundings of 2^-24 of the sum of its terms' magnitudes.
func agreeSigned(t *testing.T, what string, c tensor.Tensor, want []float64, a, b []float32, m, n, k int) {
	t.Helper()
	got := download(t, c.Device().Stream(), c)
	for i := range m {
		for j := range n {
			var mag float64
			for q := range k {
				v := float64(a[i*k+q]) * float64(b[q*n+j])
				mag += max(v, -v)
			}
			if d := float64(got[i*n+j]) - want[i*n+j]; !(max(d, -d) <= float64(2*k)*0x1p-24*mag) {
				t.Fatalf("%s: element %d,%d is %v, want %v", what, i, j, got[i*n+j], want[i*n+j])
			}
		}
	}
}
