package quant

import (
	"fmt"
	"github.com/goxpu/xpu/kernels/internal/f16"
	"github.com/goxpu/xpu/kernels/tensor"
	"math"

	"github.com/goxpu/xpu/gpu"
)

// Encode returns the blocks of f that llama.cpp's reference quantizer
// of f (quantize_row_q8_0_ref, quantize_row_q4_0_ref,
// quantize_row_q4_K_ref) writes for x, as bytes. len(x) must be a whole number of blocks.
//
// The arithmetic is the quantizer's, in float32, step by step, each
// operation rounded as the C source reads (an explicit conversion keeps
// Go from fusing a product with the add that follows; a C build that
// contracts them into an FMA may differ where a quant lies within an
// ulp of a rounding boundary). Where C leaves a conversion undefined (a scale so
// small that its reciprocal overflows, or a NaN in x), the quants are
// what x86-64 builds give: the conversion's 0x80000000, whose low byte is
// 0.
func Encode(f tensor.Format, x []float32) ([]byte, error) {
	n, err := blocks(f, len(x), "values")
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, n*f.BlockBytes())
	bs := f.BlockSize()
	for i := range n {
		row := x[i*bs : (i+1)*bs]
		switch f {
		case tensor.Q8_0:
			k := quantizeQ8_0(row)
			b, _ = k.AppendBinary(b)
		case tensor.Q4_0:
			k := quantizeQ4_0(row)
			b, _ = k.AppendBinary(b)
		case tensor.Q4_K:
			k := quantizeQ4_K(row)
			b, _ = k.AppendBinary(b)
		}
	}
	return b, nil
}

// Decode returns the values of the blocks of f in b, as llama.cpp's
// dequantize_row_q8_0, dequantize_row_q4_0 and dequantize_row_q4_K
// compute them. len(b) must
// be a whole number of blocks.
func Decode(f tensor.Format, b []byte) ([]float32, error) {
	n, err := blocks(f, len(b), "bytes")
	if err != nil {
		return nil, err
	}
	x := make([]float32, 0, n*f.BlockSize())
	bb := f.BlockBytes()
	for i := range n {
		blk := b[i*bb : (i+1)*bb]
		switch f {
		case tensor.Q8_0:
			var k BlockQ8_0
			if err := k.UnmarshalBinary(blk); err != nil {
				return nil, err
			}
			v := k.Values()
			x = append(x, v[:]...)
		case tensor.Q4_0:
			var k BlockQ4_0
			if err := k.UnmarshalBinary(blk); err != nil {
				return nil, err
			}
			v := k.Values()
			x = append(x, v[:]...)
		case tensor.Q4_K:
			var k BlockQ4_K
			if err := k.UnmarshalBinary(blk); err != nil {
				return nil, err
			}
			v := k.Values()
			x = append(x, v[:]...)
		}
	}
	return x, nil
}

// blocks returns how many blocks of f a length of n values or bytes
// (unit) makes, or an error naming the rule when it is not whole blocks.
func blocks(f tensor.Format, n int, unit string) (int, error) {
	if !quantized(f) {
		return 0, fmt.Errorf("quant: %v is no block format of this package (q8_0, q4_0, q4_k): %w", f, gpu.ErrArgs)
	}
	per := f.BlockSize()
	if unit == "bytes" {
		per = f.BlockBytes()
	}
	if n%per != 0 {
		return 0, fmt.Errorf("quant: %v: %d %s is not a whole number of blocks of %d %s: %w", f, n, unit, per, unit, gpu.ErrSize)
	}
	return n / per, nil
}

// quantizeQ8_0 is quantize_row_q8_0_ref on one block: the scale maps the
// largest magnitude to 127, and each quant is its value over the scale,
// rounded half away from zero (roundf).
func quantizeQ8_0(x []float32) BlockQ8_0 {
	var amax float32
	for _, v := range x {
		amax = cMax(amax, float32(math.Abs(float64(v))))
	}
	d := amax / 127
	var id float32
	if d != 0 {
		id = 1 / d
	}
	k := BlockQ8_0{D: f16.FromFloat32(d)}
	for j, v := range x {
		k.Qs[j] = int8(cInt32(float32(math.Round(float64(v * id)))))
	}
	return k
}

// quantizeQ4_0 is quantize_row_q4_0_ref on one block: the scale maps the
// value of largest magnitude (the first such, with its sign) to -8, and
// each quant is its value over the scale plus 8.5, truncated and capped
// at 15.
func quantizeQ4_0(x []float32) BlockQ4_0 {
	var amax, max float32
	for _, v := range x {
		if a := float32(math.Abs(float64(v))); amax < a {
			amax, max = a, v
		}
	}
	d := max / -8
	var id float32
	if d != 0 {
		id = 1 / d
	}
	k := BlockQ4_0{D: f16.FromFloat32(d)}
	for j := range blockValues / 2 {
		x0 := float32(x[j] * id) // rounded here, as the C statement does
		x1 := float32(x[j+blockValues/2] * id)
		q0 := min(15, int8(cInt32(x0+8.5)))
		q1 := min(15, int8(cInt32(x1+8.5)))
		k.Qs[j] = byte(q0) | byte(q1)<<4
	}
	return k
}

// cMax is ggml's MAX(a, b), a > b ? a : b, whose answer for a NaN
// differs from Go's max.
func cMax(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}

// cInt32 is C's conversion of a float to an integer as x86-64 performs
// it (cvttss2si): truncation toward zero, and 0x80000000 for NaN and
// values out of int32's range, which C leaves undefined.
func cInt32(v float32) int32 {
	if !(v > -2147483904 && v < 2147483648) { // NaN, or truncation out of range
		return math.MinInt32
	}
	return int32(v)
}
