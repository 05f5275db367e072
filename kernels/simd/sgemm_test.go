package simd

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// guardBits is the NaN that fills every element around and between the
// matrices' elements: a read of one makes a result NaN, and a write to
// one is seen after the call.
const guardBits = 0x7fc0dead

// gemmShapes are m, n, k: single elements, a tile and less, one more
// than a tile, k past one and two panels (KC), m past packed A (MC), n
// past packed B (NC) on one goroutine, skinny products, odd sizes to
// about 300, and rows enough for a team (sgemmTeam) of 2 and of 3, one
// of them past NC columns.
var gemmShapes = [][3]int{
	{1, 1, 1}, {1, 1, 7}, {2, 3, 1}, {6, 16, 1}, {6, 16, 4}, {6, 16, 5}, {5, 15, 3}, {7, 17, 9},
	{12, 32, 256}, {13, 31, 257}, {1, 300, 20}, {300, 1, 20}, {37, 29, 45}, {64, 64, 64},
	{40, 50, 513}, {145, 20, 30}, {7, 4113, 5}, {150, 170, 260}, {293, 300, 271},
	{600, 40, 300}, {1000, 21, 520}, {900, 4200, 3},
}

// gemmScalars are the alpha, beta pairs the cases cycle through: 0 and 1
// each, where BLAS treats them apart, and neither.
var gemmScalars = [][2]float32{{1, 0}, {1, 1}, {-0.5, 2}, {1.5, -1}, {2, 0}, {0.75, 0.25}}

// stored is a row-major matrix of rows x cols elements, rows ld apart,
// inside a backing slice of guard NaNs that starts before it and ends
// after it.
type storedMatrix struct {
	rows, cols, ld int
	back           []float32
	at             int // offset of element 0 in back
}

// newStored makes the matrix with ld at least cols plus extra, its
// elements from fill (nil: guard NaNs).
func newStored(r *rand.Rand, rows, cols, extra int, fill func() float32) storedMatrix {
	s := storedMatrix{rows: rows, cols: cols, ld: max(1, cols) + extra, at: 1 + r.IntN(9)}
	s.back = make([]float32, s.at+s.need()+1+r.IntN(17))
	for i := range s.back {
		s.back[i] = math.Float32frombits(guardBits)
	}
	if fill != nil {
		for i := range rows {
			for j := range cols {
				s.back[s.at+i*s.ld+j] = fill()
			}
		}
	}
	return s
}

// need is the length BLAS requires of the matrix's slice.
func (s storedMatrix) need() int {
	if s.rows == 0 {
		return 0
	}
	return (s.rows-1)*s.ld + s.cols
}

// slice is the matrix as Sgemm takes it: exactly need long.
func (s storedMatrix) slice() []float32 { return s.back[s.at : s.at+s.need()] }

func (s storedMatrix) get(i, j int) float32 { return s.back[s.at+i*s.ld+j] }

func (s storedMatrix) clone() storedMatrix {
	s.back = append([]float32(nil), s.back...)
	return s
}

// guardsKept reports the first element outside the matrix that is no
// longer the guard NaN.
func (s storedMatrix) guardsKept() (int, bool) {
	for i, v := range s.back {
		o := i - s.at
		if o >= 0 && o < s.need() && o%s.ld < s.cols {
			continue
		}
		if math.Float32bits(v) != guardBits {
			return i, false
		}
	}
	return 0, true
}

// gemmCase is one product's operands.
type gemmCase struct {
	tA, tB      blas.Transpose
	m, n, k     int
	alpha, beta float32
	a, b, c     storedMatrix
}

func (g gemmCase) String() string {
	return fmt.Sprintf("%c%c m=%d n=%d k=%d alpha=%v beta=%v lda=%d ldb=%d ldc=%d", g.tA, g.tB, g.m, g.n, g.k, g.alpha, g.beta, g.a.ld, g.b.ld, g.c.ld)
}

// newGemmCase makes random operands: values in [-1, 1), leading
// dimensions at or past the least, C NaN where beta is 0 (it must not be
// read) and A and B NaN where alpha is 0 (likewise).
func newGemmCase(r *rand.Rand, tA, tB blas.Transpose, m, n, k int, alpha, beta float32) gemmCase {
	g := gemmCase{tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, beta: beta}
	value := func() float32 { return 2*r.Float32() - 1 }
	nan := func() float32 { return float32(math.NaN()) }
	extra := func() int { return []int{0, 0, 1, 5, 16}[r.IntN(5)] }
	in := value
	if alpha == 0 {
		in = nan
	}
	ar, ac := m, k
	if tA != blas.NoTrans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB != blas.NoTrans {
		br, bc = n, k
	}
	g.a, g.b = newStored(r, ar, ac, extra(), in), newStored(r, br, bc, extra(), in)
	out := value
	if beta == 0 {
		out = nan
	}
	g.c = newStored(r, m, n, extra(), out)
	return g
}

func (g gemmCase) opA(i, p int) float64 {
	if g.tA != blas.NoTrans {
		return float64(g.a.get(p, i))
	}
	return float64(g.a.get(i, p))
}

func (g gemmCase) opB(p, j int) float64 {
	if g.tB != blas.NoTrans {
		return float64(g.b.get(j, p))
	}
	return float64(g.b.get(p, j))
}

// reference is the result by the definition in float64, row-major m x
// n, and the bound each element's error is relative to: |alpha| times
// the sum of the products' absolute values plus |beta*c|. Where alpha is
// 0 A and B are not read; where beta is 0, C is not.
func (g gemmCase) reference() (want, abs []float64) {
	want, abs = make([]float64, g.m*g.n), make([]float64, g.m*g.n)
	if g.alpha != 0 {
		a, bt := make([]float64, g.m*g.k), make([]float64, g.n*g.k) // op(A) and op(B)'s transpose
		for p := range g.k {
			for i := range g.m {
				a[i*g.k+p] = g.opA(i, p)
			}
			for j := range g.n {
				bt[j*g.k+p] = g.opB(p, j)
			}
		}
		for i := range g.m {
			for j := range g.n {
				var s, t float64
				for p, x := range a[i*g.k : (i+1)*g.k] {
					x *= bt[j*g.k+p]
					s, t = s+x, t+math.Abs(x)
				}
				want[i*g.n+j], abs[i*g.n+j] = float64(g.alpha)*s, math.Abs(float64(g.alpha))*t
			}
		}
	}
	if g.beta != 0 {
		for i := range g.m {
			for j := range g.n {
				bc := float64(g.beta) * float64(g.c.get(i, j))
				want[i*g.n+j] += bc
				abs[i*g.n+j] += math.Abs(bc)
			}
		}
	}
	return want, abs
}

// gemmRoundings is the tolerance of a product of depth k in roundings of
// the bound reference returns: one per multiply-add along k, one per
// block of k added into C, the scaling by alpha, the addition of beta*C,
// and one to spare.
func gemmRoundings(k int) float64 { return float64(k + k/sgemmKC + 4) }

// run calls Sgemm on a copy of g's C and returns the copy.
func (g gemmCase) run() (storedMatrix, error) {
	c := g.c.clone()
	err := Sgemm(g.tA, g.tB, g.m, g.n, g.k, g.alpha, g.a.slice(), g.a.ld, g.b.slice(), g.b.ld, g.beta, c.slice(), c.ld)
	return c, err
}

// gonum is gonum's Sgemm of g on a copy of its C.
func (g gemmCase) gonum() storedMatrix {
	c := g.c.clone()
	gonum.Implementation{}.Sgemm(g.tA, g.tB, g.m, g.n, g.k, g.alpha, g.a.slice(), g.a.ld, g.b.slice(), g.b.ld, g.beta, c.slice(), c.ld)
	return c
}

// check fails t where got, Sgemm's result, is not within tolerance of
// the float64 reference, or of gonum's result within twice that (both
// are within it of the exact result), or where an element around C
// changed. Where alpha is 0 gonum is not compared: it multiplies A and B
// (here NaN) by 0 where reference BLAS, and Sgemm, read neither.
func (g gemmCase) check(t *testing.T, got storedMatrix) {
	t.Helper()
	if i, ok := got.guardsKept(); !ok {
		t.Fatalf("%v: element %d of C's backing, outside C, written: %v", g, i-got.at, got.back[i])
	}
	var ref storedMatrix
	if g.alpha != 0 {
		ref = g.gonum()
	}
	tol := gemmRoundings(g.k) * 0x1p-24
	wants, abss := g.reference()
	for i := range g.m {
		for j := range g.n {
			want, abs := wants[i*g.n+j], abss[i*g.n+j]
			v := float64(got.get(i, j))
			if d := math.Abs(v - want); !(d <= tol*abs) {
				t.Fatalf("%v: C[%d][%d] = %v, want %v (error %.3g > tolerance %.3g: %v roundings of %.3g)", g, i, j, v, want, d, tol*abs, gemmRoundings(g.k), abs)
			}
			if g.alpha == 0 {
				continue
			}
			if d := math.Abs(v - float64(ref.get(i, j))); !(d <= 2*tol*abs) {
				t.Fatalf("%v: C[%d][%d] = %v, gonum's %v (difference %.3g > twice the tolerance %.3g)", g, i, j, v, ref.get(i, j), d, 2*tol*abs)
			}
		}
	}
}

var transposes = []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans}

// TestSgemm checks every path, on one goroutine and on several, over the
// shapes, both transposes of each operand and the scalars. In short mode
// and under the race detector each shape of over 2^20 products runs on
// several goroutines alone, at one pair of transposes per goroutine
// count, the pairs in turn over the shapes.
func TestSgemm(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(31, 32))
		for _, p := range []int{1, 2, 3} {
			runtime.GOMAXPROCS(p)
			c := 0
			for s, sh := range gemmShapes {
				big := (testing.Short() || underRace) && sh[0]*sh[1]*sh[2] > 1<<20
				if big && p == 1 {
					continue // the one goroutine's blocking is the smaller shapes'
				}
				for ta, tA := range transposes[:2] {
					for tb, tB := range transposes[:2] {
						if big && (2*ta+tb) != (s+p)%4 {
							continue // one pair of transposes a big shape, in turn
						}
						ab := gemmScalars[c%len(gemmScalars)]
						c++
						g := newGemmCase(r, tA, tB, sh[0], sh[1], sh[2], ab[0], ab[1])
						got, err := g.run()
						if err != nil {
							t.Fatalf("%v: %v", g, err)
						}
						g.check(t, got)
					}
				}
			}
		}
	})
}

// TestSgemmScalars checks BLAS's special cases on every path: alpha of 0
// and k of 0 (A and B not read, C scaled by beta), beta of 0 and -0 (C
// not read), beta of 1 with alpha 0 (C untouched), ConjTrans, empty m or
// n (nothing written).
func TestSgemmScalars(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(33, 34))
		negZero := float32(math.Copysign(0, -1))
		for _, c := range []struct {
			tA, tB      blas.Transpose
			m, n, k     int
			alpha, beta float32
		}{
			{blas.NoTrans, blas.NoTrans, 9, 20, 11, 0, 0},
			{blas.NoTrans, blas.NoTrans, 9, 20, 11, 0, 1},
			{blas.Trans, blas.NoTrans, 9, 20, 11, 0, -3},
			{blas.NoTrans, blas.Trans, 9, 20, 0, 2, 0.5},
			{blas.NoTrans, blas.NoTrans, 9, 20, 0, 1, 0},
			{blas.ConjTrans, blas.ConjTrans, 9, 20, 11, 1, negZero},
			{blas.ConjTrans, blas.NoTrans, 13, 35, 300, -1, 1},
			{blas.NoTrans, blas.NoTrans, 0, 20, 11, 1, 1},
			{blas.NoTrans, blas.Trans, 9, 0, 11, 1, 0},
			{blas.Trans, blas.Trans, 0, 0, 0, 1, 0},
		} {
			g := newGemmCase(r, c.tA, c.tB, c.m, c.n, c.k, c.alpha, c.beta)
			got, err := g.run()
			if err != nil {
				t.Fatalf("%v: %v", g, err)
			}
			g.check(t, got)
		}
	})
}

// TestSgemmArgs checks that each of BLAS's rules broken is an error
// wrapping ErrArgs that names it, and that C is then not written.
func TestSgemmArgs(t *testing.T) {
	a, b, c := make([]float32, 4*5), make([]float32, 5*6), make([]float32, 4*6)
	n, tr := blas.NoTrans, blas.Trans
	for _, x := range []struct {
		name    string
		tA, tB  blas.Transpose
		m, n, k int
		a       []float32
		lda     int
		b       []float32
		ldb     int
		c       []float32
		ldc     int
		rule    string
	}{
		{"tA", 'X', n, 4, 6, 5, a, 5, b, 6, c, 6, "tA is 'X'"},
		{"tB", n, 0, 4, 6, 5, a, 5, b, 6, c, 6, "tB is '\\x00'"},
		{"negative m", n, n, -1, 6, 5, a, 5, b, 6, c, 6, "each size at least 0"},
		{"negative k", n, n, 4, 6, -5, a, 5, b, 6, c, 6, "each size at least 0"},
		{"lda", n, n, 4, 6, 5, a, 4, b, 6, c, 6, "lda 4 is less than max(1, 5)"},
		{"lda transposed", tr, n, 4, 6, 5, a, 3, b, 6, c, 6, "lda 3 is less than max(1, 4)"},
		{"ldb", n, n, 4, 6, 5, a, 5, b, 5, c, 6, "ldb 5 is less than max(1, 6)"},
		{"ldb transposed", n, tr, 4, 6, 5, a, 5, b, 4, c, 6, "ldb 4 is less than max(1, 5)"},
		{"ldc", n, n, 4, 6, 5, a, 5, b, 6, c, 5, "ldc 5 is less than max(1, 6)"},
		{"ldc of an empty C", n, n, 0, 0, 5, a, 5, b, 6, c, 0, "ldc 0 is less than max(1, 0)"},
		{"short a", n, n, 4, 6, 5, a[:19], 5, b, 6, c, 6, "len(a) 19 is less than (4-1)*lda+5"},
		{"short b", n, tr, 4, 6, 5, a, 5, b[:29], 5, c, 6, "len(b) 29 is less than (6-1)*ldb+5"},
		{"short c", n, n, 4, 6, 5, a, 5, b, 6, c[:23], 6, "len(c) 23 is less than (4-1)*ldc+6"},
		{"huge ldc", n, n, 4, 6, 5, a, 5, b, 6, c, math.MaxInt / 2, "len(c) 24 is less than"},
	} {
		for i := range c {
			c[i] = math.Float32frombits(guardBits)
		}
		err := Sgemm(x.tA, x.tB, x.m, x.n, x.k, 1, x.a, x.lda, x.b, x.ldb, 0, x.c, x.ldc)
		if !errors.Is(err, ErrArgs) || !strings.Contains(err.Error(), x.rule) {
			t.Errorf("%s: got %v, want an error wrapping ErrArgs that says %q", x.name, err, x.rule)
			continue
		}
		t.Logf("%s: %v", x.name, err)
		for i, v := range c {
			if math.Float32bits(v) != guardBits {
				t.Fatalf("%s: c[%d] written", x.name, i)
			}
		}
	}
	if err := Sgemm(n, n, 0, 0, 0, 1, nil, 1, nil, 1, 0, nil, 1); err != nil {
		t.Errorf("0x0x0: %v", err)
	}
}

// TestSgemmAllocs checks that a product on one goroutine allocates
// nothing once the pool holds its buffers, and on more allocates only
// its state and each goroutine's start, split (m 70) or as a team (m
// 200).
func TestSgemmAllocs(t *testing.T) {
	if underRace {
		t.Skip("under the race detector sync.Pool drops a quarter of what is put in it")
	}
	r := rand.New(rand.NewPCG(35, 36))
	const n, k = 90, 300
	for _, m := range []int{70, 200} {
		a, b, c := floats(r, m*k), floats(r, k*n), make([]float32, m*n)
		for _, p := range []int{1, 4} {
			allocs := allocsPerCall(p, func() {
				if err := Sgemm(blas.NoTrans, blas.Trans, m, n, k, 1, a, k, b, k, 0, c, n); err != nil {
					t.Fatal(err)
				}
			})
			if limit := allocsAllowed(p); allocs > limit {
				t.Errorf("m %d, GOMAXPROCS %d: %d allocations a call, want at most %d", m, p, allocs, limit)
			}
			t.Logf("m %d, GOMAXPROCS %d: %d allocations a call", m, p, allocs)
		}
	}
}
