package kernels_test

import (
	"fmt"
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
	"github.com/goxpu/xpu/schema"
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
// directly, or on the CPU backend, for Q8_0 and Q4_0, package simd's
// provider (within the bound of its order of additions), and the weight
// packed once into input-major blocks
// (Registry.Convert) runs quant.MatVecInputMajor; a product with a
// quantized left operand runs quant.MatMul; one with a quantized right
// operand, which no kernel takes, runs the reference rather than
// dequantize the weight every call, the plan naming Convert, and the
// weight converted once runs Sgemm; a product of input-major blocks,
// which nothing takes or converts, runs the reference too, which reads
// them. All agree with plain Go on the decoded values.
func TestQuantized(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(15, 16))
		s := d.Stream()
		sc := dispatch.NewScope()
		defer sc.Release()
		const rows, cols = 20, 512
		x, xv := matrix(t, d, r, cols)
		for _, f := range []tensor.Format{tensor.Q8_0, tensor.Q4_0, tensor.Q4_K} {
			w, wv := quantized(t, d, r, f, rows, cols)
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
			p, err := kernels.Registry.Lookup(d, kernels.OpMatVec, nil, y, w, x)
			if err != nil {
				t.Fatal(err)
			}
			simd := d.Backend() == schema.BackendCPU
			if got := p.Kernel.Name; simd != strings.HasPrefix(got, "kernels/simd.") {
				t.Errorf("%s on %s runs %s", f, d.Backend(), got)
			}
			if simd { // the provider adds in its own order
				agreeSigned(t, fmt.Sprintf("%s SIMD mat-vec", f), y, product(wv, xv, rows, 1, cols), wv, xv, rows, 1, cols)
			} else if !slices.Equal(download(t, s, y), download(t, s, want)) {
				t.Errorf("%s: the operation's mat-vec differs from quant.MatVec's", f)
			}
			wi, err := kernels.Registry.Convert(s, sc, tensor.Descriptor{Format: f, Layout: tensor.BlockedInputMajor}, w)
			if err != nil {
				t.Fatal(err)
			}
			p, err = kernels.Registry.Lookup(d, kernels.OpMatVec, nil, y, wi, x)
			if err != nil || p.Kernel == nil || p.Kernel.Name != "kernels/quant.MatVecInputMajor" {
				t.Fatalf("%s input-major: %+v, %v", f, p, err)
			}
			if err := kernels.MatVec(s, nil, y, wi, x); err != nil {
				t.Fatal(err)
			}
			agreeSigned(t, fmt.Sprintf("%s input-major mat-vec", f), y, product(wv, xv, rows, 1, cols), wv, xv, rows, 1, cols)
		}

		const m, n, k = 6, 5, 64
		a, av := quantized(t, d, r, tensor.Q4_0, m, k)
		b, bv := matrix(t, d, r, k, n)
		c := poisoned(t, d, m, n)
		if p, err := kernels.Registry.Lookup(d, kernels.OpMatMul, nil, c, a, b); err != nil || p.Kernel == nil || p.Kernel.Name != "kernels/quant.MatMul" {
			t.Fatalf("a Q4_0 left operand: %+v, %v", p, err)
		}
		if err := kernels.MatMul(s, nil, c, a, b); err != nil {
			t.Fatal(err)
		}
		agreeSigned(t, "quant.MatMul's product of a Q4_0 a", c, product(av, bv, m, n, k), av, bv, m, n, k)

		a2, a2v := matrix(t, d, r, m, k)
		bq, bqv := quantized(t, d, r, tensor.Q8_0, k, 32) // b is k x 32: whole blocks a row
		c2 := poisoned(t, d, m, 32)
		p, err := kernels.Registry.Lookup(d, kernels.OpMatMul, nil, c2, a2, bq)
		if err != nil || !p.Fallback || !slices.ContainsFunc(p.Why, func(w string) bool {
			return strings.Contains(w, "convert it once at load (Registry.Convert to f32/contiguous)")
		}) {
			t.Fatalf("a Q8_0 right operand: %+v, %v", p, err)
		}
		if err := kernels.MatMul(s, sc, c2, a2, bq); err != nil {
			t.Fatal(err)
		}
		want := product(a2v, bqv, m, 32, k)
		agreeSigned(t, "the reference's product of a Q8_0 b", c2, want, a2v, bqv, m, 32, k)
		bf, err := kernels.Registry.Convert(s, sc, tensor.Descriptor{Format: tensor.F32, Layout: tensor.Contiguous}, bq)
		if err != nil {
			t.Fatal(err)
		}
		c3 := poisoned(t, d, m, 32)
		if err := kernels.MatMul(s, sc, c3, a2, bf); err != nil {
			t.Fatal(err)
		}
		agreeSigned(t, "the product of b converted at load", c3, want, a2v, bqv, m, 32, k)

		ai, err := kernels.Registry.Convert(s, sc, tensor.Descriptor{Format: tensor.Q4_0, Layout: tensor.BlockedInputMajor}, a)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := kernels.Registry.Lookup(d, kernels.OpMatMul, nil, c, ai, b); err != nil || !p.Fallback {
			t.Fatalf("an input-major a: %+v, %v", p, err)
		}
		if err := kernels.MatMul(s, sc, c, ai, b); err != nil {
			t.Fatal(err)
		}
		agreeSigned(t, "the reference's product of an input-major a", c, product(av, bv, m, n, k), av, bv, m, n, k)
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
