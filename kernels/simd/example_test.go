package simd_test

import (
	"fmt"

	"github.com/goxpu/xpu/kernels/simd"
)

// MatVecQ8_0 on a 2x32 Q8_0 matrix, one block a row: row 0 has scale 1
// and quants 1 to 32, row 1 scale 0.5 and every quant -2; x is all ones.
func Example_matVec() {
	w := make([]byte, 2*simd.BlockQ8_0)
	w[0], w[1] = 0x00, 0x3c // f16 1.0, little-endian
	for i := range 32 {
		w[2+i] = byte(i + 1)
	}
	row1 := w[simd.BlockQ8_0:]
	row1[0], row1[1] = 0x00, 0x38 // f16 0.5
	for i := range 32 {
		row1[2+i] = 0xfe // int8 -2
	}
	x := make([]float32, 32)
	for i := range x {
		x[i] = 1
	}
	y := make([]float32, 2)
	if err := simd.MatVecQ8_0(y, w, x, 2, 32); err != nil {
		fmt.Println(err)
	}
	fmt.Println(y)
	// Output: [528 -32]
}
