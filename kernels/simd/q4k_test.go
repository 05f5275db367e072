package simd

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// superBlocks makes n random Q4_K super-blocks, d and dmin from sc, the
// packed scales and the quants random bytes.
func superBlocks(r *rand.Rand, n int, sc scale) []byte {
	b := make([]byte, n*BlockQ4_K)
	for k := range n {
		blk := b[k*BlockQ4_K : (k+1)*BlockQ4_K]
		binary.LittleEndian.PutUint16(blk, sc(r))
		binary.LittleEndian.PutUint16(blk[2:], sc(r))
		fill(r, blk[4:])
	}
	return b
}

// refScaleMin is sub-block j's 6-bit scale and min by the format's
// definition (llama.cpp's get_scale_min_k4), written apart from
// q4KScales.
func refScaleMin(s []byte, j int) (sc, m float64) {
	if j < 4 {
		return float64(s[j] & 63), float64(s[j+4] & 63)
	}
	return float64(s[j+4]&0xF | (s[j-4]>>6)<<4), float64(s[j+4]>>4 | (s[j]>>6)<<4)
}

// refQ4_K is DotQ4_K by the definition in float64 (each term exact) and
// the sum of the absolute values of the terms d*sc*q*x and dmin*m*x.
func refQ4_K(blocks []byte, x []float32) (dot, abs float64) {
	for k := range len(x) / SuperBlockValues {
		blk := blocks[k*BlockQ4_K : (k+1)*BlockQ4_K]
		d := refHalf(binary.LittleEndian.Uint16(blk))
		dmin := refHalf(binary.LittleEndian.Uint16(blk[2:]))
		for j := range 8 {
			sc, m := refScaleMin(blk[4:16], j)
			for l := range 32 {
				b := blk[16+32*(j/2)+l]
				q := float64(b & 0xF)
				if j%2 == 1 {
					q = float64(b >> 4)
				}
				xv := float64(x[k*SuperBlockValues+32*j+l])
				a, c := d*sc*q*xv, dmin*m*xv
				dot += a - c
				abs += math.Abs(a) + math.Abs(c)
			}
		}
	}
	return dot, abs
}

// checkQ4_K fails t where got is not within the package's bound of the
// reference: tolerance with n values in n/32 sub-blocks, the min's term
// and the scale's summed apart, each through no more roundings than
// that.
func checkQ4_K(t *testing.T, what string, blocks []byte, x []float32, got float32) {
	t.Helper()
	want, abs := refQ4_K(blocks, x)
	n := len(x) / SuperBlockValues * SuperBlockValues
	if tol := tolerance(n, n/BlockValues, abs); math.Abs(float64(got)-want) > tol || math.IsNaN(float64(got)) {
		t.Errorf("%s: got %v, want %v (error %g > tolerance %g)", what, got, want, math.Abs(float64(got)-want), tol)
	}
}

// superBlockCounts are DotQ4_K's lengths in super-blocks.
var superBlockCounts = []int{1, 2, 3, 5, 8, 17}

func TestDotQ4_K(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 22))
		for _, s := range scales {
			for _, n := range superBlockCounts {
				b, x := guarded(superBlocks(r, n, s.sc), floats(r, n*SuperBlockValues))
				checkQ4_K(t, fmt.Sprintf("%s %d super-blocks", s.name, n), b, x, DotQ4_K(b, x))
			}
		}
	})
}

// TestDotQ4_KValues checks one super-block whose dot product is exact
// in float32 on every path, against a sum written out by hand.
func TestDotQ4_KValues(t *testing.T) {
	// One super-block whose every value is known: d = 1, dmin = 0.5,
	// sub-block j's scale j+1 and min 2j, quant l%16; x all ones.
	b := make([]byte, BlockQ4_K)
	binary.LittleEndian.PutUint16(b, 0x3c00)
	binary.LittleEndian.PutUint16(b[2:], 0x3800)
	for j := range 8 {
		sc, m := byte(j+1), byte(2*j)
		if j < 4 {
			b[4+j] |= sc
			b[8+j] |= m
		} else {
			b[12+j-4] |= sc&0xF | (m&0xF)<<4
			b[4+j-4] |= sc >> 4 << 6
			b[8+j-4] |= m >> 4 << 6
		}
	}
	for p := range 4 {
		for l := range 32 {
			b[16+32*p+l] = byte(l%16) | byte(15-l%16)<<4
		}
	}
	x := make([]float32, SuperBlockValues)
	for i := range x {
		x[i] = 1
	}
	// Sub-block j: Σ (sc*q - m/2) over 32 values, Σq = 2*120 either nibble.
	var want float32
	for j := range 8 {
		want += float32(j+1)*240 - float32(j)*32
	}
	forEachPath(t, func(t *testing.T) {
		if got := DotQ4_K(b, x); got != want {
			t.Errorf("known block: got %v, want %v", got, want)
		}
	})
}

// TestDotQ4_KEdges checks no super-blocks, zero scales, a tail past the
// last super-block, and blocks too short for x.
func TestDotQ4_KEdges(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(25, 26))
		if got := DotQ4_K(nil, floats(r, SuperBlockValues-1)); got != 0 {
			t.Errorf("no super-blocks: got %v", got)
		}
		b, x := guarded(superBlocks(r, 3, zeroScale), floats(r, 3*SuperBlockValues))
		if got := DotQ4_K(b, x); got != 0 {
			t.Errorf("zero d and dmin: got %v", got)
		}
		b = superBlocks(r, 3, modest)
		x = floats(r, 3*SuperBlockValues+37)
		if got, want := DotQ4_K(b, x), DotQ4_K(b, x[:3*SuperBlockValues]); got != want {
			t.Errorf("with a tail of 37: got %v, want %v", got, want)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("2 super-blocks for 3 super-blocks' floats: no panic")
				}
			}()
			DotQ4_K(b[:2*BlockQ4_K:2*BlockQ4_K], x)
		}()
	})
}

// q4KShapes are rows x cols for MatVecQ4_K: no columns, one row, one
// super-block a row, rows fewer than and not a multiple of the
// goroutines.
var q4KShapes = [][2]int{{3, 0}, {1, 256}, {1, 768}, {2, 256}, {3, 512}, {5, 256}, {7, 1280}, {17, 512}}

func TestMatVecQ4_K(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(27, 28))
		for _, p := range []int{1, 2, 3, 4} {
			runtime.GOMAXPROCS(p)
			for _, sh := range q4KShapes {
				rows, cols := sh[0], sh[1]
				w, x := guarded(superBlocks(r, rows*cols/SuperBlockValues, modest), floats(r, cols))
				y := make([]float32, rows+3)
				for i := range y {
					y[i] = float32(math.NaN())
				}
				if err := MatVecQ4_K(y[:rows], w, x, rows, cols); err != nil {
					t.Fatalf("%dx%d: %v", rows, cols, err)
				}
				rowBytes := cols / SuperBlockValues * BlockQ4_K
				for i := range rows {
					checkQ4_K(t, fmt.Sprintf("%dx%d GOMAXPROCS %d row %d", rows, cols, p, i),
						w[i*rowBytes:(i+1)*rowBytes], x, y[i])
				}
				for i := rows; i < len(y); i++ {
					if !math.IsNaN(float64(y[i])) {
						t.Fatalf("%dx%d: y[%d] past rows written", rows, cols, i)
					}
				}
			}
		}
	})
}

func TestMatVecQ4_KArgs(t *testing.T) {
	w := make([]byte, 4*2*BlockQ4_K)
	x := make([]float32, 512)
	y := make([]float32, 4)
	cases := []struct {
		name       string
		y          []float32
		w          []byte
		x          []float32
		rows, cols int
	}{
		{"negative rows", y, w, x, -1, 512},
		{"negative cols", y, w, x, 4, -256},
		{"cols not a multiple of 256", y, w, x, 4, 480},
		{"short y", y[:3], w, x, 4, 512},
		{"short x", y, w, x[:511], 4, 512},
		{"short w", y, w[:len(w)-1], x, 4, 512},
	}
	for _, c := range cases {
		if err := MatVecQ4_K(c.y, c.w, c.x, c.rows, c.cols); !errors.Is(err, ErrArgs) {
			t.Errorf("%s: got %v, want an error wrapping ErrArgs", c.name, err)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
	if err := MatVecQ4_K(nil, nil, nil, 0, 0); err != nil {
		t.Errorf("0x0: %v", err)
	}
}

// TestMatVecQ4_KAllocs checks that MatVecQ4_K on one goroutine
// allocates nothing, and on more only for the goroutines.
func TestMatVecQ4_KAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 30))
	w := superBlocks(r, 16*2, modest)
	x := floats(r, 512)
	y := make([]float32, 16)
	for _, p := range []int{1, 4} {
		n := allocsPerCall(p, func() {
			if err := MatVecQ4_K(y, w, x, 16, 512); err != nil {
				t.Fatal(err)
			}
		})
		if limit := allocsAllowed(p); n > limit {
			t.Errorf("GOMAXPROCS %d: %d allocations a call, want at most %d", p, n, limit)
		}
		t.Logf("GOMAXPROCS %d: %d allocations a call", p, n)
	}
}
