package refuse

import "github.com/goxpu/xpu"

//xpu:kernel block=64
func HalfArith(t xpu.Thread, y []xpu.Float16, f []float32) {
	a, b := y[0], y[1]
	y[2] = a + b // ERROR "[xpu-float16-arith] operator + on the xpu.Float16 a"
	if a < b {   // ERROR "[xpu-float16-arith] operator < on the xpu.Float16 a"
		y[3] = -a // ERROR "[xpu-float16-arith] operator - on the xpu.Float16 a"
	}
	y[4] += b                // ERROR "[xpu-float16-arith] operator + on the xpu.Float16 y[4]"
	y[5] = xpu.Float16(f[0]) // ERROR "[xpu-float16-arith] conversion xpu.Float16(f[0]) converts the integer bits"
	f[1] = float32(a)        // ERROR "[xpu-float16-arith] conversion float32(a) converts the integer bits"
	// Bits are fine, and so are the conversions.
	y[6] = xpu.Float16(uint16(a) ^ 0x8000)
	y[7] = xpu.Float16From(a.Float32() * 2)
}
