package simd

import (
	"math"
	"testing"
)

// TestHalfToFloat checks every binary16 value against its definition:
// (-1)^s * 2^(e-15) * (1 + m/1024) for normals, 2^-14 * m/1024 for
// subnormals and zeros, infinities and NaNs with the payload kept.
func TestHalfToFloat(t *testing.T) {
	for h := range 1 << 16 {
		got := halfToFloat(uint16(h))
		s, e, m := h>>15, h>>10&0x1f, h&0x3ff
		var want float64
		switch {
		case e == 0x1f && m == 0:
			want = math.Inf(1)
		case e == 0x1f:
			if !math.IsNaN(float64(got)) || math.Float32bits(got)&0x7fffff != uint32(m)<<13 {
				t.Fatalf("%#04x: got %v (%#08x), want NaN with payload %#x", h, got, math.Float32bits(got), m)
			}
			continue
		case e == 0:
			want = math.Ldexp(float64(m), -24)
		default:
			want = math.Ldexp(float64(1024+m), e-25)
		}
		if s == 1 {
			want = -want
		}
		if float64(got) != want || math.Signbit(float64(got)) != (s == 1) {
			t.Fatalf("%#04x: got %v, want %v", h, got, want)
		}
	}
}
