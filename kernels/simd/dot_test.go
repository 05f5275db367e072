package simd

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// blockCounts are the dot products' lengths in blocks: one, the pairs
// the assembly unrolls and their odd tails, and longer runs.
var blockCounts = []int{1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 128}

var scales = []struct {
	name string
	sc   scale
}{
	{"modest", modest},
	{"zero", zeroScale},
	{"subnormal", subnormal},
	{"mixed", func(r *rand.Rand) uint16 {
		return []scale{modest, zeroScale, subnormal}[r.IntN(3)](r)
	}},
}

func TestDot(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for _, f := range formats {
			for _, s := range scales {
				for _, n := range blockCounts {
					b, x := guarded(f.blocks(r, n, s.sc), floats(r, n*BlockValues))
					checkDot(t, fmt.Sprintf("%s %s %d blocks", f.name, s.name, n), f, b, x, f.dot(b, x))
				}
			}
		}
	})
}

// TestDotZero checks that no blocks make zero and that zero scales make
// exactly zero.
func TestDotZero(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		for _, f := range formats {
			if got := f.dot(nil, nil); got != 0 {
				t.Errorf("%s: no blocks: got %v", f.name, got)
			}
			b, x := guarded(f.blocks(r, 9, zeroScale), floats(r, 9*BlockValues))
			if got := f.dot(b, x); got != 0 {
				t.Errorf("%s: zero scales: got %v", f.name, got)
			}
		}
	})
}

// TestDotTail checks that floats past the last whole block of x are
// ignored.
func TestDotTail(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, f := range formats {
			b := f.blocks(r, 3, modest)
			x := floats(r, 3*BlockValues+5)
			got, want := f.dot(b, x), f.dot(b, x[:3*BlockValues])
			if got != want {
				t.Errorf("%s: with a tail of 5: got %v, want %v", f.name, got, want)
			}
		}
	})
}

// TestDotShortBlocks checks that blocks shorter than x asks for panic
// before the assembly could read past them.
func TestDotShortBlocks(t *testing.T) {
	forEachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(13, 14))
		for _, f := range formats {
			b := f.blocks(r, 2, modest)
			x := floats(r, 3*BlockValues)
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s: 2 blocks for 3 blocks' floats: no panic", f.name)
					}
				}()
				f.dot(b, x)
			}()
		}
	})
}
