package matmul_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/matmul"
	"github.com/goxpu/xpu/kernels/matmul/matmultest"
	"github.com/goxpu/xpu/tune"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// sgemmCall is one call of Sgemm, in gonum's argument order, its matrices
// stored as stored makes them.
type sgemmCall struct {
	tA, tB      blas.Transpose
	m, n, k     int
	alpha, beta float32
	pad         int  // how far each leading dimension exceeds its stored row
	nanA        bool // A and B all NaN: alpha 0 must read neither
}

func (c sgemmCall) String() string {
	return fmt.Sprintf("%c%c/%dx%dx%d/pad%d/alpha%g/beta%g", c.tA, c.tB, c.m, c.n, c.k, c.pad, c.alpha, c.beta)
}

// dims returns the stored rows and columns of A and B, and the leading
// dimensions of A, B and C.
func (c sgemmCall) dims() (ar, ac, br, bc, lda, ldb, ldc int) {
	ar, ac, br, bc = c.m, c.k, c.k, c.n
	if c.tA != blas.NoTrans {
		ar, ac = c.k, c.m
	}
	if c.tB != blas.NoTrans {
		br, bc = c.n, c.k
	}
	return ar, ac, br, bc, max(1, ac) + c.pad, max(1, bc) + c.pad, max(1, c.n) + c.pad
}

// sgemmCalls are every pair of transposes (ConjTrans standing for Trans
// once) with beta 0 over a NaN C, with both scalars set and signs mixed,
// and the calls BLAS treats apart: k of 0 (C = beta*C), alpha 0 over NaN
// A and B (which the reference BLAS does not read), and beta 1 with
// alpha 0 (C kept).
var sgemmCalls = func() []sgemmCall {
	var cs []sgemmCall
	for _, ta := range []blas.Transpose{blas.NoTrans, blas.Trans} {
		for _, tb := range []blas.Transpose{blas.NoTrans, blas.ConjTrans} {
			cs = append(cs, sgemmCall{tA: ta, tB: tb, m: 37, n: 29, k: 23, alpha: 1.5, pad: 2},
				sgemmCall{tA: ta, tB: tb, m: 37, n: 29, k: 23, alpha: -0.75, beta: 0.5, pad: 3})
		}
	}
	return append(cs,
		sgemmCall{tA: blas.Trans, tB: blas.NoTrans, m: 9, n: 70, k: 0, alpha: 2, beta: -3, pad: 1},
		sgemmCall{tA: blas.NoTrans, tB: blas.Trans, m: 17, n: 5, k: 12, alpha: 0, beta: 0.25, nanA: true},
		sgemmCall{tA: blas.NoTrans, tB: blas.NoTrans, m: 3, n: 4, k: 5, alpha: 0, beta: 1, nanA: true},
	)
}()

// TestSgemm runs Sgemm on every device present against gonum's
// blas32.Sgemm (pure Go), an implementation independent of the kernel, on
// the same inputs. Their sums run in different orders, and the scalars'
// signs differ, so terms may cancel: each element is bounded by the error
// of a k-term dot product on either side, (2k+4)*2^-23 times the sum of
// the terms' magnitudes, which the test adds up in float64. The gaps past
// each row of C must stay NaN, and C is all NaN where beta is 0.
func TestSgemm(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		seed, err := gputest.Seed()
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 11))
		for _, c := range sgemmCalls {
			t.Run(c.String(), func(t *testing.T) { checkSgemm(t, d, r, c) })
		}
	})
}

// checkSgemm runs c on d and on gonum and compares C.
func checkSgemm(t *testing.T, d *gpu.Device, r *rand.Rand, c sgemmCall) {
	ar, ac, br, bc, lda, ldb, ldc := c.dims()
	matrix := func(rows, cols, ld int, nan bool) []float32 {
		if rows == 0 {
			return []float32{}
		}
		v := matmultest.Stored(r, uint32(rows), uint32(cols), uint32(ld))
		for i := range v {
			if nan {
				v[i] = float32(math.NaN())
			}
		}
		return v
	}
	a, b := matrix(ar, ac, lda, c.nanA), matrix(br, bc, ldb, c.nanA)
	cv := matrix(c.m, c.n, ldc, c.beta == 0)
	want := append([]float32(nil), cv...)
	ga, gb := a, b
	if c.nanA {
		// gonum multiplies by alpha 0 all the same (NaN*0 is NaN), where
		// the reference BLAS, and Sgemm, read neither A nor B: gonum is
		// given the zeros that stand for them.
		ga, gb = make([]float32, len(a)), make([]float32, len(b))
	}
	blas32.Implementation().Sgemm(c.tA, c.tB, c.m, c.n, c.k, c.alpha, ga, lda, gb, ldb, c.beta, want, ldc)

	A, B, C := upload(t, d, append(a, 0)), upload(t, d, append(b, 0)), upload(t, d, cv)
	if err := matmul.Sgemm(&tune.Tuner{Pinned: true}, d.Stream(), c.tA, c.tB, c.m, c.n, c.k, c.alpha, A, lda, B, ldb, c.beta, C, ldc); err != nil {
		t.Fatal(err)
	}
	got, err := C.Download()
	if err != nil {
		t.Fatal(err)
	}
	at := func(v []float32, ld, i, j int, trans bool) float64 {
		if trans {
			i, j = j, i
		}
		return float64(v[i*ld+j])
	}
	for i := range c.m {
		for j := range c.n {
			e := i*ldc + j
			var mag float64
			if c.alpha != 0 {
				for q := range c.k {
					mag += math.Abs(at(a, lda, i, q, c.tA != blas.NoTrans) * at(b, ldb, q, j, c.tB != blas.NoTrans))
				}
				mag *= math.Abs(float64(c.alpha))
			}
			if c.beta != 0 {
				mag += math.Abs(float64(c.beta) * float64(cv[e]))
			}
			bound := float64(2*c.k+4)*0x1p-23*mag + 0x1p-126
			if g, w := got[e], want[e]; math.IsNaN(float64(g)) || !(math.Abs(float64(g)-float64(w)) <= bound) {
				t.Fatalf("C[%d,%d] = %g, gonum's %g, bound %g", i, j, g, w, bound)
			}
		}
	}
	for e := range got {
		if e%ldc >= c.n && !math.IsNaN(float64(got[e])) {
			t.Fatalf("C[%d], in the gap past row %d, was written: %g", e, e/ldc, got[e])
		}
	}
}

// TestSgemmRefuses checks Sgemm's refusals, each naming its rule: a
// transpose of no kind, a negative size, a leading dimension below its
// row, a buffer shorter than its stored matrix, a nil one, a matrix past
// the kernel's uint32 indices; and that m of 0 is a call that does
// nothing, buffers or not.
func TestSgemmRefuses(t *testing.T) {
	d, err := gpu.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, tu := d.Stream(), &tune.Tuner{Pinned: true}
	A, B, C := upload(t, d, make([]float32, 12)), upload(t, d, make([]float32, 12)), upload(t, d, make([]float32, 12))
	N, T := blas.NoTrans, blas.Trans
	for _, c := range []struct {
		name   string
		err    error
		rule   string
		tA     blas.Transpose
		m, k   int
		lda    int
		a, c   *gpu.Buffer[float32]
		ldc    int
		useNil bool
	}{
		{name: "tA of X", err: gpu.ErrArgs, rule: "tA is 'X'", tA: 'X', m: 3, k: 4, lda: 4, a: A, c: C, ldc: 3},
		{name: "m of -1", err: gpu.ErrArgs, rule: "at least 0", tA: N, m: -1, k: 4, lda: 4, a: A, c: C, ldc: 3},
		{name: "lda below k", err: gpu.ErrArgs, rule: "lda = 3, below max(1, 4)", tA: N, m: 3, k: 4, lda: 3, a: A, c: C, ldc: 3},
		{name: "lda below m, transposed", err: gpu.ErrArgs, rule: "lda = 2, below max(1, 3)", tA: T, m: 3, k: 4, lda: 2, a: A, c: C, ldc: 3},
		{name: "A short", err: gpu.ErrBufferLen, rule: "A holds 12 elements, (3-1)*lda+4 = 14", tA: N, m: 3, k: 4, lda: 5, a: A, c: C, ldc: 3},
		{name: "A nil", err: gpu.ErrBufferLen, rule: "A holds 0 elements", tA: N, m: 3, k: 4, lda: 4, c: C, ldc: 3},
		{name: "C past 2^32", err: gpu.ErrArgs, rule: "past 2^32", tA: N, m: 3, k: 4, lda: 4, a: A, c: C, ldc: 1 << 31},
	} {
		err := matmul.Sgemm(tu, s, c.tA, N, c.m, 3, c.k, 1, c.a, c.lda, B, 3, 0, c.c, c.ldc)
		if !errors.Is(err, c.err) || !strings.Contains(fmt.Sprint(err), c.rule) {
			t.Errorf("%s: %v, want %v naming %q", c.name, err, c.err, c.rule)
		}
	}
	if err := matmul.Sgemm(tu, s, N, N, 0, 3, 4, 1, nil, 4, nil, 3, 0, nil, 3); err != nil {
		t.Errorf("m of 0: %v, want nothing done", err)
	}
}
