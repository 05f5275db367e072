package kernels_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/tensor"
	"github.com/goxpu/xpu/schema"
)

// matrix uploads rows x cols random values in [0, 1) as a contiguous
// tensor, and returns them too.
func matrix(t *testing.T, d *gpu.Device, r *rand.Rand, shape ...int) (tensor.Tensor, []float32) {
	t.Helper()
	n := 1
	for _, s := range shape {
		n *= s
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()
	}
	return upload(t, d, v, shape...), v
}

// poisoned uploads a tensor of NaNs.
func poisoned(t *testing.T, d *gpu.Device, shape ...int) tensor.Tensor {
	t.Helper()
	n := 1
	for _, s := range shape {
		n *= s
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(math.NaN())
	}
	return upload(t, d, v, shape...)
}

func upload(t *testing.T, d *gpu.Device, v []float32, shape ...int) tensor.Tensor {
	t.Helper()
	b, err := gpu.Upload(d, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	x, err := tensor.Dense(b, shape...)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// product is the plain-Go product of a (m x k) and b (k x n), in float64.
func product(a, b []float32, m, n, k int) []float64 {
	c := make([]float64, m*n)
	for i := range m {
		for j := range n {
			for q := range k {
				c[i*n+j] += float64(a[i*k+q]) * float64(b[q*n+j])
			}
		}
	}
	return c
}

// agree checks got against want: sums of k positive products in any
// order, each perhaps fused, differ from the exact sum by at most k
// roundings of 2^-24 relative each; 2k*2^-24 leaves room for the
// product's own rounding.
func agree(t *testing.T, what string, c tensor.Tensor, want []float64, k int) {
	t.Helper()
	b, err := tensor.Buffer[float32](c)
	if err != nil {
		t.Fatal(err)
	}
	got, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	tol := float64(2*k) * 0x1p-24
	for i, w := range want {
		if d := math.Abs(float64(got[i]) - w); !(d <= tol*w) {
			t.Fatalf("%s: element %d is %v, want %v (relative tolerance %.3g: k=%d roundings)", what, i, got[i], w, tol, k)
		}
	}
}

// sgemmOn is the kernel the registry picks for a matmul of float32
// matrices BLAS stores on d: package simd's provider on the CPU backend,
// the portable kernel elsewhere.
func sgemmOn(d *gpu.Device) string {
	if d.Backend() == schema.BackendCPU {
		return "kernels/simd.Sgemm"
	}
	return "kernels/matmul.Sgemm"
}

// TestMatMul runs the library's matmul and matvec through the registry
// on every device against plain Go.
func TestMatMul(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(1, 2))
		const m, n, k = 37, 29, 45
		a, av := matrix(t, d, r, m, k)
		b, bv := matrix(t, d, r, k, n)
		c := poisoned(t, d, m, n)
		p, err := kernels.Registry.Lookup(d, kernels.OpMatMul, nil, c, a, b)
		if err != nil || p.Kernel == nil || p.Kernel.Name != sgemmOn(d) {
			t.Fatalf("lookup: %+v, %v", p, err)
		}
		s := d.Stream()
		if err := kernels.MatMul(s, nil, c, a, b); err != nil {
			t.Fatal(err)
		}
		if err := s.Sync(); err != nil {
			t.Fatal(err)
		}
		agree(t, "matmul", c, product(av, bv, m, n, k), k)

		x, xv := matrix(t, d, r, k)
		y := poisoned(t, d, m)
		if err := kernels.MatVec(s, nil, y, a, x); err != nil {
			t.Fatal(err)
		}
		if err := s.Sync(); err != nil {
			t.Fatal(err)
		}
		agree(t, "matvec", y, product(av, xv, m, 1, k), k)

		if err := kernels.MatMul(s, nil, c, b, a); !errors.Is(err, gpu.ErrSize) || !strings.Contains(err.Error(), "c (m x n) = a (m x k) · b (k x n)") {
			t.Errorf("shapes that disagree: %v", err)
		}
	})
}

// TestStrided checks the strided operands: a transposed a runs Sgemm
// (sgemmOn) directly; a broadcast one (stride 0), which BLAS stores no
// way, is gathered by the layout adapter first, visibly (it needs the
// caller's scope); and a transposed c, which no adapter converts (it is an
// output), runs the operation's host reference. All three are correct.
func TestStrided(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(3, 4))
		const m, n, k = 9, 7, 11
		at, atv := matrix(t, d, r, k, m) // a stored transposed
		a, err := at.Transpose()
		if err != nil {
			t.Fatal(err)
		}
		av := make([]float32, m*k)
		for i := range m {
			for q := range k {
				av[i*k+q] = atv[q*m+i]
			}
		}
		b, bv := matrix(t, d, r, k, n)
		want := product(av, bv, m, n, k)
		c := poisoned(t, d, m, n)
		s := d.Stream()
		p, err := kernels.Registry.Lookup(d, kernels.OpMatMul, nil, c, a, b)
		if err != nil || p.Adapter != nil || p.Kernel.Name != sgemmOn(d) {
			t.Fatalf("a transposed a: %+v, %v", p, err)
		}
		if err := kernels.MatMul(s, nil, c, a, b); err != nil {
			t.Fatal(err)
		}
		agree(t, fmt.Sprintf("matmul of %s", a), c, want, k)

		// Every row of a the same row: stride 0.
		rowb, row := matrix(t, d, r, k)
		rb, _ := tensor.Buffer[float32](rowb)
		ab, err := tensor.View(rb, []int{m, k}, []int{0, 1})
		if err != nil {
			t.Fatal(err)
		}
		p, err = kernels.Registry.Lookup(d, kernels.OpMatMul, nil, c, ab, b)
		if err != nil || p.Adapter == nil || p.Adapter.Name != "kernels/layout.Contiguous" || p.Operand != 1 || p.Kernel.Name != sgemmOn(d) {
			t.Fatalf("a broadcast a: %+v, %v", p, err)
		}
		if err := kernels.MatMul(s, nil, c, ab, b); !errors.Is(err, gpu.ErrArgs) || !strings.Contains(err.Error(), "no Scope") {
			t.Errorf("an adapted call without a scope: %v", err)
		}
		sc := dispatch.NewScope()
		defer sc.Release()
		if err := kernels.MatMul(s, sc, c, ab, b); err != nil {
			t.Fatal(err)
		}
		agree(t, "matmul of a broadcast a", c, product(slices.Repeat(row, m), bv, m, n, k), k)

		// c transposed: the reference writes through its strides.
		ct := poisoned(t, d, n, m)
		cs, err := ct.Transpose()
		if err != nil {
			t.Fatal(err)
		}
		if p, err := kernels.Registry.Lookup(d, kernels.OpMatMul, nil, cs, a, b); err != nil || !p.Fallback {
			t.Fatalf("a strided c: %+v, %v", p, err)
		}
		if err := kernels.MatMul(s, sc, cs, a, b); err != nil {
			t.Fatal(err)
		}
		wantT := make([]float64, m*n)
		for i := range m {
			for j := range n {
				wantT[j*m+i] = want[i*n+j]
			}
		}
		agree(t, "matmul into a transposed c", ct, wantT, k)

		// A matvec of a transposed w runs Sgemv on its stored matrix.
		x, xv := matrix(t, d, r, k)
		y := poisoned(t, d, m)
		if err := kernels.MatVec(s, nil, y, a, x); err != nil {
			t.Fatal(err)
		}
		agree(t, "matvec of a transposed w", y, product(av, xv, m, 1, k), k)
	})
}
