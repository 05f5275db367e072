package cpu

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// referenceStrip is the loop DotStrip documents, run work-item after
// work-item.
func referenceStrip(s *DotStrip) {
	ni, nj := max(s.I, 1), max(s.J, 1)
	for r := range s.Rows {
		for l := range s.Lanes {
			for i := range ni {
				for j := range nj {
					o := s.AccOff + r*s.AccRow + i*s.AccI + j*s.AccJ + l
					acc := s.Acc[o]
					for t := range s.K {
						acc = acc + s.A[s.AOff+r*s.ARow+i*s.AI+t*s.AK]*s.B[s.BOff+r*s.BRow+j*s.BJ+t*s.BK+l]
					}
					s.Acc[o] = acc
				}
			}
		}
	}
}

// guard is the NaN band around every slice of a test strip.
const guard = 5

func randomFloats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()*2 - 1
	}
	return v
}

// randomStrip returns a strip of ni x nj cells per work-item with NaN
// guard bands before and after each slice; the accumulators no work-item
// owns are NaN too.
func randomStrip(r *rand.Rand, lanes, rows, k, ni, nj int) *DotStrip {
	s := &DotStrip{Lanes: lanes, Rows: rows, AccRow: lanes + r.IntN(3), K: k, I: ni, J: nj,
		ARow: r.IntN(20), AK: r.IntN(20), BRow: r.IntN(2) * r.IntN(40), BK: lanes + r.IntN(9),
		AOff: r.IntN(10), BOff: r.IntN(10), AccOff: r.IntN(4)}
	s.AccJ = rows*s.AccRow + r.IntN(3)
	s.AccI = nj*s.AccJ + r.IntN(3)
	s.AI = r.IntN(30)
	s.BJ = r.IntN(30)
	band := func(n int) []float32 {
		v := randomFloats(r, n+2*guard)
		for i := range guard {
			v[i], v[len(v)-1-i] = float32(math.NaN()), float32(math.NaN())
		}
		return v[guard : guard+n]
	}
	kk := max(k, 1)
	s.Acc = band(s.AccOff + (rows-1)*s.AccRow + (ni-1)*s.AccI + (nj-1)*s.AccJ + lanes)
	owned := make([]bool, len(s.Acc))
	for q := range rows {
		for i := range ni {
			for j := range nj {
				for l := range lanes {
					owned[s.AccOff+q*s.AccRow+i*s.AccI+j*s.AccJ+l] = true
				}
			}
		}
	}
	for i := range s.Acc {
		if !owned[i] {
			s.Acc[i] = float32(math.NaN())
		}
	}
	s.A = band(s.AOff + (rows-1)*s.ARow + (ni-1)*s.AI + (kk-1)*s.AK + 1)
	s.B = band(s.BOff + (rows-1)*s.BRow + (nj-1)*s.BJ + (kk-1)*s.BK + lanes)
	return s
}

// checkStrip runs the strip and compares it bit for bit with the
// reference, guard bands and gaps included.
func checkStrip(t *testing.T, r *rand.Rand, lanes, rows, k, ni, nj int) {
	t.Helper()
	s := randomStrip(r, lanes, rows, k, ni, nj)
	want := *s
	want.Acc = slices.Clone(s.Acc[:len(s.Acc)+guard][:len(s.Acc)])
	referenceStrip(&want)
	if !s.Run() {
		t.Fatalf("%dx%d k=%d cells %dx%d: Run refused a strip that fits", rows, lanes, k, ni, nj)
	}
	full := s.Acc[: len(s.Acc)+guard : len(s.Acc)+guard]
	for i := range full {
		w := float32(math.NaN())
		if i < len(want.Acc) {
			w = want.Acc[i]
		}
		if math.Float32bits(full[i]) != math.Float32bits(w) {
			t.Fatalf("%dx%d k=%d cells %dx%d: acc[%d] = %v, reference %v", rows, lanes, k, ni, nj, i, full[i], w)
		}
	}
}

func testStrips(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 11))
	for _, lanes := range []int{1, 3, 8, 15, 16, 17, 32} {
		for _, rows := range []int{1, 2, 4, 5, 16} {
			for _, k := range []int{0, 1, 2, 16, 33} {
				checkStrip(t, r, lanes, rows, k, 1, 1)
			}
		}
	}
	for _, cells := range [][2]int{{1, 4}, {4, 1}, {2, 3}, {4, 4}, {5, 2}, {8, 3}} {
		for _, lanes := range []int{3, 8, 16, 20} {
			for _, rows := range []int{1, 3, 4, 16} {
				checkStrip(t, r, lanes, rows, 1+r.IntN(20), cells[0], cells[1])
				checkStrip(t, r, lanes+16, rows, 1+r.IntN(20), 1, cells[1])
			}
		}
	}
}

// TestDotStrip checks the strip as this build selects it.
func TestDotStrip(t *testing.T) { testStrips(t) }

// TestDotStripRefuses checks that a strip reaching outside its slices is
// refused untouched.
func TestDotStripRefuses(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, spoil := range map[string]func(s *DotStrip){
		"acc":      func(s *DotStrip) { s.Acc = s.Acc[:(s.Rows-1)*s.AccRow+s.Lanes-1] },
		"a":        func(s *DotStrip) { s.A = s.A[:len(s.A)-1] },
		"b":        func(s *DotStrip) { s.B = s.B[:len(s.B)-1] },
		"negative": func(s *DotStrip) { s.AK = -1 },
		"overlap":  func(s *DotStrip) { s.AccRow = s.Lanes - 1 },
		"cells":    func(s *DotStrip) { s.AccI = s.AccJ },
		"acc-end":  func(s *DotStrip) { s.Acc = s.Acc[:s.AccOff+(s.Rows-1)*s.AccRow+s.AccI+s.AccJ+s.Lanes-1] },
		"uint32":   func(s *DotStrip) { s.BOff = math.MaxUint32 + 1 },
	} {
		s := randomStrip(r, 8, 4, 3, 2, 2)
		spoil(s)
		before := slices.Clone(s.Acc)
		if s.Run() {
			t.Errorf("%s: Run accepted a strip that does not fit", name)
		}
		if !slices.Equal(floatBits(before), floatBits(s.Acc)) {
			t.Errorf("%s: a refused strip changed its accumulator", name)
		}
	}
}

func floatBits(v []float32) []uint32 {
	b := make([]uint32, len(v))
	for i, f := range v {
		b[i] = math.Float32bits(f)
	}
	return b
}

// TestDotStripOverflow checks that a strip whose last index passes 2^63
// (a step times a count near 2^32 each) is refused, not let through by a
// sum that wrapped to a small or negative index.
func TestDotStripOverflow(t *testing.T) {
	for name, s := range map[string]*DotStrip{
		"acc i": {Acc: make([]float32, 64), Lanes: 8, Rows: 1, I: math.MaxUint32 - 1, AccI: math.MaxUint32,
			A: make([]float32, 1), B: make([]float32, 8), K: 1},
		"acc row": {Acc: make([]float32, 64), Lanes: 8, Rows: math.MaxUint32, AccRow: math.MaxUint32,
			A: make([]float32, 1), B: make([]float32, 8), K: 1},
		"a k": {Acc: make([]float32, 8), Lanes: 8, Rows: 1, A: make([]float32, 1), AK: math.MaxUint32,
			B: make([]float32, 8), K: math.MaxUint32},
		"b j": {Acc: make([]float32, 8), Lanes: 8, Rows: 1, J: math.MaxUint32, AccJ: 8,
			A: make([]float32, 1), B: make([]float32, 8), BJ: math.MaxUint32, K: 1},
	} {
		before := slices.Clone(s.Acc)
		if s.Run() {
			t.Errorf("%s: Run accepted a strip whose indices overflow", name)
		}
		if !slices.Equal(floatBits(before), floatBits(s.Acc)) {
			t.Errorf("%s: a refused strip changed its accumulator", name)
		}
	}
}
