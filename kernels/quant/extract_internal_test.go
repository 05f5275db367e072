package quant

import (
	"math"
	"testing"

	"github.com/goxpu/xpu/kernels/internal/f16"
)

// TestHalfBits checks the device function halfBits against the plain-Go
// conversion on every float16, bit for bit: signed zeros, subnormals,
// infinities and NaN payloads included.
func TestHalfBits(t *testing.T) {
	for h := range uint32(1 << 16) {
		got, want := math.Float32bits(halfBits(h)), math.Float32bits(f16.ToFloat32(uint16(h)))
		if got != want {
			t.Fatalf("halfBits(%#04x) = %#08x, want %#08x", h, got, want)
		}
	}
}
