package xpu

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The tests compare Float16's bit manipulation with an independent
// implementation in float64 arithmetic (no module that offers one is
// available to the build): the value of a binary16 from its fields, and
// rounding by math.RoundToEven of the value scaled to its unit in the
// last place.

// halfValue returns the value of the binary16 bits h, which is not a NaN.
func halfValue(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	switch e {
	case 0x1f:
		return math.Inf(int(sign))
	case 0:
		return sign * math.Ldexp(m, -24)
	}
	return sign * math.Ldexp(1024+m, e-25)
}

// halfOf returns the binary16 nearest to the finite f, ties to even.
func halfOf(f float32) uint16 {
	v := math.Abs(float64(f))
	var sign uint16
	if math.Signbit(float64(f)) {
		sign = 0x8000
	}
	if math.IsInf(v, 0) {
		return sign | 0x7c00
	}
	if v < 0x1p-14 { // subnormal: a multiple of 2^-24
		return sign | uint16(math.RoundToEven(math.Ldexp(v, 24))) // 1024 is the smallest normal
	}
	_, exp := math.Frexp(v) // v = frac * 2^exp, frac in [0.5, 1)
	e := exp - 1            // v in [2^e, 2^(e+1))
	q := math.RoundToEven(math.Ldexp(v, 10-e))
	if q == 2048 {
		q, e = 1024, e+1
	}
	if e > 15 {
		return sign | 0x7c00
	}
	return sign | uint16(e+15)<<10 | uint16(q-1024)
}

func TestFloat16AllValues(t *testing.T) {
	for i := range 1 << 16 {
		h := Float16(i)
		f := h.Float32()
		if isNaN16(uint16(i)) {
			b := math.Float32bits(f)
			if f == f || b&0x400000 == 0 || b>>31 != uint32(i)>>15 || b>>13&0x3ff != uint32(i)&0x3ff|0x200 {
				t.Fatalf("Float16(%#04x).Float32() = %#08x, want the quiet NaN of its sign and payload", i, b)
			}
			if back := Float16From(f); !isNaN16(uint16(back)) || back>>15 != h>>15 || back&0x200 == 0 {
				t.Fatalf("Float16From(%#08x) = %#04x, want a quiet NaN of its sign", b, back)
			}
			continue
		}
		if want := halfValue(uint16(i)); float64(f) != want || math.Signbit(float64(f)) != (i&0x8000 != 0) {
			t.Fatalf("Float16(%#04x).Float32() = %g, want %g", i, f, want)
		}
		if back := Float16From(f); back != h {
			t.Fatalf("Float16From(Float16(%#04x).Float32()) = %#04x", i, back)
		}
	}
}

func isNaN16(h uint16) bool { return h&0x7c00 == 0x7c00 && h&0x3ff != 0 }

func TestFloat16FromRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 32))
	check := func(f float32) {
		t.Helper()
		got := uint16(Float16From(f))
		if f != f {
			if !isNaN16(got) || got&0x200 == 0 || got>>15 != uint16(math.Float32bits(f)>>31) {
				t.Fatalf("Float16From(%#08x) = %#04x, want a quiet NaN of its sign", math.Float32bits(f), got)
			}
			return
		}
		if want := halfOf(f); got != want {
			t.Fatalf("Float16From(%g = %#08x) = %#04x, want %#04x", f, math.Float32bits(f), got, want)
		}
	}
	// Every bit pattern, then values near binary16's range, its
	// rounding midpoints and its subnormals.
	for range 1 << 20 {
		check(math.Float32frombits(r.Uint32()))
	}
	for range 1 << 20 {
		check(float32(math.Ldexp(r.Float64()*2-1, r.IntN(50)-30)))
	}
	for i := range 1 << 16 {
		if isNaN16(uint16(i)) || uint16(i)&0x7fff == 0x7c00 {
			continue
		}
		// Halfway to the next binary16 up in magnitude, and a hair
		// either side.
		mid := (halfValue(uint16(i)) + halfValue(uint16(i+1)&^0x8000|uint16(i)&0x8000)) / 2
		m := float32(mid)
		check(m)
		check(math.Nextafter32(m, 0))
		check(math.Nextafter32(m, float32(math.Inf(1))))
	}
	for _, f := range []float32{65504, 65519.996, 65520, 65536, 0x1p-24, 0x1p-25, 0x1.000002p-25, 0x1p-26, 0x1.ffcp-15, 0x1p-14, 0, float32(math.Copysign(0, -1))} {
		check(f)
		check(-f)
	}
}
