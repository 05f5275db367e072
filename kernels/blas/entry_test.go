package blas_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/blas"
	"github.com/goxpu/xpu/kernels/blas/blastest"
	gblas "gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// within reports whether got is want within the error of sums of terms
// whose magnitudes add up to mag, each side rounding up to steps times
// (2^-23 a step, both sides): the bound of the entry points' comparisons
// with gonum, whose sums run in other orders and may cancel. A NaN got
// is never within, a NaN want is a gap got must have left alone.
func within(got, want float32, mag float64, steps int) bool {
	if math.IsNaN(float64(want)) {
		return math.IsNaN(float64(got))
	}
	return !math.IsNaN(float64(got)) && math.Abs(float64(got)-float64(want)) <= float64(2*steps)*0x1p-23*mag+0x1p-126
}

// upload puts v on d, released when t ends.
func upload(t *testing.T, d *gpu.Device, v []float32) *gpu.Buffer[float32] {
	t.Helper()
	b, err := gpu.Upload(d, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}

// download reads b back.
func download(t *testing.T, b *gpu.Buffer[float32]) []float32 {
	t.Helper()
	v, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSgemv runs Sgemv on every device present against gonum's
// blas32.Sgemv (pure Go), on operands in [-1, 1) (so that terms cancel:
// each element is bounded by the sums' error over the terms' magnitudes,
// which the test adds up in float64), every transpose in every layout of
// TestGemv, and alpha 0 over NaN A and x, which neither may read.
func TestSgemv(t *testing.T) {
	ls := append(blastest.GemvLayouts(testing.Short() || underRace), blastest.GemvLayout{M: 20, N: 30, Pad: 2, IncX: 1, IncY: -1, Alpha: 0, Beta: 3})
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		seed, err := gputest.Seed()
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 13))
		for _, tA := range []gblas.Transpose{gblas.NoTrans, gblas.Trans, gblas.ConjTrans} {
			for _, l := range ls {
				t.Run(fmt.Sprintf("%c/%v", tA, l), func(t *testing.T) { checkSgemv(t, d, r, tA, l) })
			}
		}
	})
}

// checkSgemv runs one Sgemv on d and on gonum and compares y.
func checkSgemv(t *testing.T, d *gpu.Device, r *rand.Rand, tA gblas.Transpose, l blastest.GemvLayout) {
	lenX, lenY := l.N, l.M
	if tA != gblas.NoTrans {
		lenX, lenY = l.M, l.N
	}
	lda := l.N + l.Pad
	a, x := blastest.Matrix(r, l.M, l.N, lda, -1), blastest.Strided(r, lenX, l.IncX, -1, false)
	if l.Alpha == 0 {
		a, x = blastest.Strided(r, len(a), 1, 0, true), blastest.Strided(r, len(x), 1, 0, true)
	}
	y := blastest.Strided(r, lenY, l.IncY, -1, l.Beta == 0)
	want := append([]float32(nil), y...)
	blas32.Implementation().Sgemv(tA, l.M, l.N, l.Alpha, a, lda, x, l.IncX, l.Beta, want, l.IncY)

	Y := upload(t, d, y)
	if err := blas.Sgemv(d.Stream(), tA, l.M, l.N, l.Alpha, upload(t, d, a), lda, upload(t, d, x), l.IncX, l.Beta, Y, l.IncY); err != nil {
		t.Fatal(err)
	}
	got := download(t, Y)
	for i := range lenY {
		var mag float64
		if l.Alpha != 0 {
			for j := range lenX {
				row, col := i, j
				if tA != gblas.NoTrans {
					row, col = j, i
				}
				aij := a[row*lda+col]
				mag += math.Abs(float64(aij) * float64(element(x, lenX, l.IncX, j)))
			}
			mag *= math.Abs(float64(l.Alpha))
		}
		if l.Beta != 0 {
			mag += math.Abs(float64(l.Beta) * float64(element(y, lenY, l.IncY, i)))
		}
		if g, w := element(got, lenY, l.IncY, i), element(want, lenY, l.IncY, i); !within(g, w, mag, lenX+2) {
			t.Fatalf("y[%d] = %g, gonum's %g", i, g, w)
		}
	}
	for e := range got {
		if !within(got[e], want[e], math.Abs(float64(want[e]))+1, lenX+2) {
			t.Fatalf("y's element %d = %g, gonum's %g: a gap was written", e, got[e], want[e])
		}
	}
}

// TestLevel1Entries runs Saxpy and Sscal on every device present against
// gonum's blas32 in every layout of TestLevel1: one multiply-add or
// multiply an element, within an ulp or so of gonum's.
func TestLevel1Entries(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		seed, err := gputest.Seed()
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 17))
		for _, l := range blastest.VectorLayouts {
			t.Run(l.String(), func(t *testing.T) {
				x, y := blastest.Strided(r, l.N, l.IncX, -1, false), blastest.Strided(r, l.N, l.IncY, -1, false)
				want := append([]float32(nil), y...)
				blas32.Implementation().Saxpy(l.N, l.Alpha, x, l.IncX, want, l.IncY)
				Y := upload(t, d, y)
				if err := blas.Saxpy(d.Stream(), l.N, l.Alpha, upload(t, d, x), l.IncX, Y, l.IncY); err != nil {
					t.Fatal(err)
				}
				for e, g := range download(t, Y) {
					if !within(g, want[e], math.Abs(float64(y[e]))+math.Abs(float64(want[e]-y[e])), 1) {
						t.Fatalf("Saxpy: y's element %d = %g, gonum's %g", e, g, want[e])
					}
				}
				inc := max(l.IncX, -l.IncX) // gonum's Sscal does nothing for a negative increment
				x = blastest.Strided(r, l.N, inc, -1, l.Alpha == 0)
				want = append([]float32(nil), x...)
				blas32.Implementation().Sscal(l.N, l.Alpha, want, inc)
				X := upload(t, d, x)
				if err := blas.Sscal(d.Stream(), l.N, l.Alpha, X, inc); err != nil {
					t.Fatal(err)
				}
				for e, g := range download(t, X) {
					if g != want[e] && !(math.IsNaN(float64(g)) && math.IsNaN(float64(want[e]))) {
						t.Fatalf("Sscal: x's element %d = %g, gonum's %g", e, g, want[e])
					}
				}
			})
		}
	})
}

// TestRefuses checks the entry points' refusals, each naming its rule,
// and the calls BLAS makes nothing of.
func TestRefuses(t *testing.T) {
	d, err := gpu.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s := d.Stream()
	v := upload(t, d, make([]float32, 12))
	N := gblas.NoTrans
	for _, c := range []struct {
		name string
		err  error
		rule string
		call func() error
	}{
		{"Sgemv tA of X", gpu.ErrArgs, "tA is 'X'", func() error { return blas.Sgemv(s, 'X', 3, 4, 1, v, 4, v, 1, 0, v, 1) }},
		{"Sgemv n of -1", gpu.ErrArgs, "at least 0", func() error { return blas.Sgemv(s, N, 3, -1, 1, v, 4, v, 1, 0, v, 1) }},
		{"Sgemv lda below n", gpu.ErrArgs, "lda = 3, below max(1, n) = 4", func() error { return blas.Sgemv(s, N, 3, 4, 1, v, 3, v, 1, 0, v, 1) }},
		{"Sgemv incX of 0", gpu.ErrArgs, "incX is 0", func() error { return blas.Sgemv(s, N, 3, 4, 1, v, 4, v, 0, 0, v, 1) }},
		{"Sgemv incY past int32", gpu.ErrArgs, "int32", func() error { return blas.Sgemv(s, N, 3, 4, 1, v, 4, v, 1, 0, v, 1<<31) }},
		{"Sgemv A short", gpu.ErrBufferLen, "A holds 12 elements, (3-1)*lda+4 = 14", func() error { return blas.Sgemv(s, N, 3, 4, 1, v, 5, v, 1, 0, v, 1) }},
		{"Sgemv x short", gpu.ErrBufferLen, "x holds 12 elements, (4-1)*|incX|+1 = 13", func() error { return blas.Sgemv(s, N, 3, 4, 1, v, 4, v, -4, 0, v, 1) }},
		{"Sgemv y nil", gpu.ErrBufferLen, "y holds 0 elements", func() error { return blas.Sgemv(s, N, 3, 4, 1, v, 4, v, 1, 0, nil, 1) }},
		{"Sgemv A past 2^32", gpu.ErrArgs, "uint32", func() error { return blas.Sgemv(s, N, 3, 4, 1, v, 1<<31, v, 1, 0, v, 1) }},
		{"Saxpy n of -1", gpu.ErrArgs, "n = -1", func() error { return blas.Saxpy(s, -1, 1, v, 1, v, 1) }},
		{"Saxpy incY of 0", gpu.ErrArgs, "incY is 0", func() error { return blas.Saxpy(s, 4, 1, v, 1, v, 0) }},
		{"Saxpy y short", gpu.ErrBufferLen, "(5-1)*|incY|+1 = 13", func() error { return blas.Saxpy(s, 5, 1, v, 1, v, 3) }},
		{"Sscal incX of 0", gpu.ErrArgs, "incX is 0", func() error { return blas.Sscal(s, 4, 1, v, 0) }},
		{"Sscal x short", gpu.ErrBufferLen, "x holds 12 elements", func() error { return blas.Sscal(s, 13, 1, v, 1) }},
	} {
		if err := c.call(); !errors.Is(err, c.err) || !strings.Contains(fmt.Sprint(err), c.rule) {
			t.Errorf("%s: %v, want %v naming %q", c.name, err, c.err, c.rule)
		}
	}
	for name, call := range map[string]func() error{
		"Sgemv m of 0":         func() error { return blas.Sgemv(s, N, 0, 4, 1, nil, 4, nil, 1, 0, nil, 1) },
		"Saxpy n of 0":         func() error { return blas.Saxpy(s, 0, 1, nil, 1, nil, 1) },
		"Sscal negative incX":  func() error { return blas.Sscal(s, 4, 1, nil, -1) },
		"Sgemv alpha 0 beta 1": func() error { return blas.Sgemv(s, N, 3, 4, 0, v, 4, v, 1, 1, v, 1) },
	} {
		if err := call(); err != nil {
			t.Errorf("%s: %v, want nothing done", name, err)
		}
	}
}
