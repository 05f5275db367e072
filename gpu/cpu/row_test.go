package cpu

import (
	"math"
	"slices"
	"testing"
)

// TestCopyRow checks the row copy against the lanes' loop, with NaN
// guard bands around the destination, and its refusals.
func TestCopyRow(t *testing.T) {
	src := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, c := range []struct {
		d, s  uint32
		lanes int
		ok    bool
	}{
		{0, 0, 4, true}, {2, 5, 5, true}, {0, 6, 4, true}, {0, 0, 0, true},
		{0, 7, 4, false}, {5, 0, 4, false}, {math.MaxUint32, 0, 2, false}, {0, 0, -1, false},
	} {
		band := make([]float32, 8+2*guard)
		for i := range band {
			band[i] = float32(math.NaN())
		}
		dst := band[guard : guard+8]
		want := slices.Clone(band)
		if c.ok {
			for l := range c.lanes {
				want[guard+int(c.d)+l] = src[int(c.s)+l]
			}
		}
		if got := CopyRow(dst, c.d, src, c.s, c.lanes); got != c.ok {
			t.Fatalf("CopyRow(d=%d, s=%d, lanes=%d) = %v, want %v", c.d, c.s, c.lanes, got, c.ok)
		}
		if !slices.Equal(floatBits(band), floatBits(want)) {
			t.Fatalf("CopyRow(d=%d, s=%d, lanes=%d): %v, want %v", c.d, c.s, c.lanes, band, want)
		}
	}
}
