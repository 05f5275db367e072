package refuse

import (
	"math"
	"math/bits"

	"github.com/goxpu/xpu"
)

//xpu:kernel block=64
func Library(t xpu.Thread, y []float32, u []uint32, n uint32, k int32) {
	i := t.GlobalX()
	x := u[i]
	// The device forms, under their Go names: no errors.
	u[0] = uint32(bits.OnesCount32(x)) + uint32(bits.LeadingZeros32(x)) + uint32(int32(bits.TrailingZeros32(x)))
	u[1] = bits.RotateLeft32(x, int(k)) ^ bits.RotateLeft32(x, -1) ^ bits.Reverse32(x) ^ bits.ReverseBytes32(x)
	hi, lo := bits.Mul32(x, n)
	u[2] = hi + lo + math.Float32bits(y[0]) + uint32(bits.Len32(x))
	y[1] = math.Float32frombits(x) + float32(math.Inf(-1)) + float32(math.NaN()) + math.MaxFloat32 + xpu.Rsqrt(y[2])

	c := /* ERROR "[xpu-no-64bit] bits.OnesCount32 yields an int; convert it: uint32(bits.OnesCount32(x))" */ bits.OnesCount32(x)
	_ = c
	u[3] = uint32( /* ERROR "[xpu-import] bits.OnesCount64 has no device form; call bits.OnesCount32" */ bits.OnesCount64(uint64(x)))
	y[3] = float32( /* ERROR "[xpu-import] math.Sinh has no device form; call xpu.Sin" */ math.Sinh(1))
	y[4] = float32( /* ERROR "[xpu-import] math.Abs has no device form; call xpu.Abs" */ math.Abs(2))
	u[4] = uint32( /* ERROR "[xpu-import] bits.LeadingZeros has no device form; call bits.LeadingZeros32" */ bits.LeadingZeros(uint(x)))
	if /* ERROR "[xpu-import] math.IsNaN has no device form; compare the float32 with itself" */ math.IsNaN(float64(y[5])) {
		y[5] = 0
	}
	y[6] = float32(math.Inf( /* ERROR "[xpu-unsupported] math.Inf of a sign that is not constant" */ int(k)))
	s, _ := /* ERROR "[xpu-import] bits.Add32 has no device form" */ bits.Add32(x, 1, 0)
	_ = s
	var h2, l2 = /* ERROR "[xpu-func-signature] bits.Mul32 outside an assignment of its two results" */ bits.Mul32(x, x)
	u[5] = h2 + l2
	u[6] = bits.RotateLeft32(x, int(y[7])) // ERROR "[xpu-no-64bit] the int operand int(y[7])"
}
