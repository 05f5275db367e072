package refuse

import "github.com/goxpu/xpu"

type Scale struct{ S float32 }

// Overflow computes a float32 constant beyond the type's range from a
// comptime field: an overflow, not a 64-bit value.
//
//xpu:kernel block=64
//xpu:instance Overflow38 Scale{S: 1e38}
func Overflow(t xpu.Thread, c Scale, y []float32) {
	y[0] = c.S * 100 // ERROR "[xpu-const-overflow] constant 1e+40 overflows float32"
}
