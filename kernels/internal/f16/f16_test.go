package f16

import (
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"testing"
)

// halfValue returns the value of the float16 bits h from the format's
// definition, in big.Float (exact): (-1)^s * 2^(e-15) * (1 + m/1024) for a
// normal, (-1)^s * 2^-14 * m/1024 for a subnormal. It reports false for
// infinities and NaNs.
func halfValue(h uint16) (*big.Float, bool) {
	s, e, m := h>>15, int(h>>10)&0x1F, int64(h&0x3FF)
	if e == 0x1F {
		return nil, false
	}
	v := new(big.Float).SetInt64(m)
	if e == 0 {
		v.SetMantExp(v, -14-10)
	} else {
		v.SetInt64(1024 + m)
		v.SetMantExp(v, e-15-10)
	}
	if s == 1 {
		v.Neg(v)
	}
	return v, true
}

// TestHalfToFloat32 checks the conversion of every float16 against its
// value by the definition, and of the infinities and NaNs bit for bit.
func TestHalfToFloat32(t *testing.T) {
	for i := range 1 << 16 {
		h := uint16(i)
		got := ToFloat32(h)
		want, finite := halfValue(h)
		if !finite {
			wantBits := uint32(h&0x8000)<<16 | 0x7F800000 | uint32(h&0x3FF)<<13
			if math.Float32bits(got) != wantBits {
				t.Fatalf("half %#04x: %#08x, want %#08x", h, math.Float32bits(got), wantBits)
			}
			continue
		}
		if g := new(big.Float).SetFloat64(float64(got)); g.Cmp(want) != 0 || math.Signbit(float64(got)) != (h>>15 == 1) {
			t.Fatalf("half %#04x: %v, want %v", h, got, want)
		}
	}
}

// nearestHalf returns f rounded to float16 by the definition of rounding
// to nearest, ties to even: of the two finite float16s around |f| (found
// by search over all of them, in float64, exactly), the nearer, the one
// with an even last bit on a tie; infinity from 65520, halfway between
// the largest float16 and 2^16, up.
func nearestHalf(f float32) uint16 {
	sign := uint16(0)
	if math.Signbit(float64(f)) {
		sign = 0x8000
	}
	a := math.Abs(float64(f))
	if math.IsNaN(a) {
		return sign | 0x7E00
	}
	if a >= 65520 {
		return sign | 0x7C00
	}
	i := sort.Search(len(positiveHalves), func(i int) bool { return positiveHalves[i] >= a })
	if positiveHalves[i] == a {
		return sign | uint16(i)
	}
	lo, hi := positiveHalves[i-1], positiveHalves[i]
	switch {
	case a-lo < hi-a:
		return sign | uint16(i-1)
	case a-lo > hi-a:
		return sign | uint16(i)
	case i%2 == 0:
		return sign | uint16(i)
	}
	return sign | uint16(i-1)
}

// positiveHalves are the values of the float16s 0 to 0x7BFF (the largest
// finite one) and 2^16 as 0x7C00, in float64: increasing, as their bits.
var positiveHalves = func() []float64 {
	v := make([]float64, 0x7C01)
	for h := range 0x7C00 {
		b, _ := halfValue(uint16(h))
		v[h], _ = b.Float64()
	}
	v[0x7C00] = 65536
	return v
}()

// TestFloat32ToHalf checks the rounding to float16 against nearestHalf
// on every float16, the midpoints between neighbours and their float32
// neighbours (where ties and carries happen), and random float32 bits.
func TestFloat32ToHalf(t *testing.T) {
	check := func(f float32) {
		if got, want := FromFloat32(f), nearestHalf(f); got != want {
			t.Fatalf("%g (%#08x): %#04x, want %#04x", f, math.Float32bits(f), got, want)
		}
	}
	for i := range 1 << 16 {
		h := uint16(i)
		f := ToFloat32(h)
		check(f)
		if f != f {
			continue
		}
		if got := FromFloat32(f); got != h {
			t.Fatalf("half %#04x does not come back: %#04x", h, got)
		}
	}
	for i := 1; i < len(positiveHalves); i++ {
		mid := float32((positiveHalves[i-1] + positiveHalves[i]) / 2) // exact: 12 bits
		for _, f := range []float32{mid, math.Nextafter32(mid, 0), math.Nextafter32(mid, 1e9)} {
			check(f)
			check(-f)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		check(math.Float32frombits(r.Uint32()))
	}
	for _, f := range []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), math.MaxFloat32, math.SmallestNonzeroFloat32, 0x1p-25, 0x1p-24, 0x1.8p-25, 65504, 65519.99, 65520} {
		check(f)
	}
}
