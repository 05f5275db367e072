package xpu

import "math"

// Number is the set of scalar types a kernel computes with.
type Number interface {
	~int32 | ~uint32 | ~float32
}

// Sqrt returns the square root of x.
func Sqrt(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// Exp returns e**x.
func Exp(x float32) float32 { return float32(math.Exp(float64(x))) }

// Exp2 returns 2**x.
func Exp2(x float32) float32 { return float32(math.Exp2(float64(x))) }

// Log returns the natural logarithm of x.
func Log(x float32) float32 { return float32(math.Log(float64(x))) }

// Log2 returns the binary logarithm of x.
func Log2(x float32) float32 { return float32(math.Log2(float64(x))) }

// Pow returns x**y. On devices it is exp2(y*log2(x)): defined for x > 0.
func Pow(x, y float32) float32 { return float32(math.Pow(float64(x), float64(y))) }

// Sin returns the sine of x radians.
func Sin(x float32) float32 { return float32(math.Sin(float64(x))) }

// Cos returns the cosine of x radians.
func Cos(x float32) float32 { return float32(math.Cos(float64(x))) }

// Tan returns the tangent of x radians.
func Tan(x float32) float32 { return float32(math.Tan(float64(x))) }

// Tanh returns the hyperbolic tangent of x.
func Tanh(x float32) float32 { return float32(math.Tanh(float64(x))) }

// Floor returns the greatest integer value not above x.
func Floor(x float32) float32 { return float32(math.Floor(float64(x))) }

// Ceil returns the least integer value not below x.
func Ceil(x float32) float32 { return float32(math.Ceil(float64(x))) }

// Round returns x rounded to the nearest integer, halves to even (as WGSL's
// round and IEEE roundTiesToEven; unlike math.Round).
func Round(x float32) float32 { return float32(math.RoundToEven(float64(x))) }

// Trunc returns the integer value of x rounded toward zero.
func Trunc(x float32) float32 { return float32(math.Trunc(float64(x))) }

// Fma returns x*y + z. Devices may or may not fuse it; tests bound it by
// one ulp of the unfused result.
func Fma(x, y, z float32) float32 { return float32(math.FMA(float64(x), float64(y), float64(z))) }

// Abs returns the absolute value of x. For the most negative int32 it
// returns that value, as two's complement negation does.
func Abs[T Number](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// Min returns the smaller of x and y.
func Min[T Number](x, y T) T {
	if y < x {
		return y
	}
	return x
}

// Max returns the larger of x and y.
func Max[T Number](x, y T) T {
	if y > x {
		return y
	}
	return x
}

// Clamp returns x limited to [lo, hi]: Min(Max(x, lo), hi).
func Clamp[T Number](x, lo, hi T) T { return Min(Max(x, lo), hi) }

// Float32Bits returns the IEEE 754 bits of x.
func Float32Bits(x float32) uint32 { return math.Float32bits(x) }

// Float32FromBits returns the float32 whose IEEE 754 bits are b.
func Float32FromBits(b uint32) float32 { return math.Float32frombits(b) }

// Rsqrt returns 1/Sqrt(x), each step rounded to float32 as Go computes
// it. Devices compute an inverse square root of their own (WGSL's
// inverseSqrt is within 2 ulp): tests bound it by 3 ulp of this result.
func Rsqrt(x float32) float32 { return 1 / Sqrt(x) }
