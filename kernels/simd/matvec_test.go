package simd

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// shapes are rows x cols: no columns, one row, cols of one block, rows
// fewer than and not a multiple of the goroutines, odd block counts per
// row.
var shapes = [][2]int{{3, 0}, {1, 32}, {1, 224}, {2, 32}, {3, 96}, {5, 32}, {7, 160}, {17, 256}, {64, 1024}}

func TestMatVec(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 8))
		for _, p := range []int{1, 2, 3, 4} {
			runtime.GOMAXPROCS(p)
			for _, f := range formats {
				for _, sh := range shapes {
					rows, cols := sh[0], sh[1]
					w, x := guarded(f.blocks(r, rows*cols/BlockValues, modest), floats(r, cols))
					y := make([]float32, rows+3)
					for i := range y {
						y[i] = float32(math.NaN())
					}
					if err := f.matVec(y[:rows], w, x, rows, cols); err != nil {
						t.Fatalf("%s %dx%d: %v", f.name, rows, cols, err)
					}
					rowBytes := cols / BlockValues * f.size
					for i := range rows {
						checkDot(t, fmt.Sprintf("%s %dx%d GOMAXPROCS %d row %d", f.name, rows, cols, p, i),
							f, w[i*rowBytes:(i+1)*rowBytes], x, y[i])
					}
					for i := rows; i < len(y); i++ {
						if !math.IsNaN(float64(y[i])) {
							t.Fatalf("%s %dx%d: y[%d] past rows written", f.name, rows, cols, i)
						}
					}
				}
			}
		}
	})
}

func TestMatVecArgs(t *testing.T) {
	for _, f := range formats {
		w := make([]byte, 4*2*f.size)
		x := make([]float32, 64)
		y := make([]float32, 4)
		cases := []struct {
			name       string
			y          []float32
			w          []byte
			x          []float32
			rows, cols int
		}{
			{"negative rows", y, w, x, -1, 64},
			{"negative cols", y, w, x, 4, -32},
			{"cols not a multiple of 32", y, w, x, 4, 48},
			{"short y", y[:3], w, x, 4, 64},
			{"short x", y, w, x[:63], 4, 64},
			{"short w", y, w[:len(w)-1], x, 4, 64},
		}
		for _, c := range cases {
			err := f.matVec(c.y, c.w, c.x, c.rows, c.cols)
			if !errors.Is(err, ErrArgs) {
				t.Errorf("%s %s: got %v, want an error wrapping ErrArgs", f.name, c.name, err)
			} else {
				t.Logf("%s %s: %v", f.name, c.name, err)
			}
		}
		if err := f.matVec(nil, nil, nil, 0, 0); err != nil {
			t.Errorf("%s 0x0: %v", f.name, err)
		}
	}
}

// TestMatVecAllocs checks that a mat-vec on one goroutine allocates
// nothing, and on more allocates only for the goroutines.
func TestMatVecAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, f := range formats {
		w := f.blocks(r, 16*8, modest)
		x := floats(r, 256)
		y := make([]float32, 16)
		for _, p := range []int{1, 4} {
			n := allocsPerCall(p, func() {
				if err := f.matVec(y, w, x, 16, 256); err != nil {
					t.Fatal(err)
				}
			})
			if limit := allocsAllowed(p); n > limit {
				t.Errorf("%s GOMAXPROCS %d: %d allocations a call, want at most %d", f.name, p, n, limit)
			}
			t.Logf("%s GOMAXPROCS %d: %d allocations a call", f.name, p, n)
		}
	}
}
