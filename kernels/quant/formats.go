package quant

import "github.com/goxpu/xpu/kernels/tensor"

// The formats are package tensor's: tensor.Q8_0, tensor.Q4_0 and
// tensor.Q4_K, whose block sizes and byte counts its table holds; the
// block types here spell those layouts out field by field.

// blockValues is the number of values in a block of Q8_0 and Q4_0.
const blockValues = 32

// quantized reports whether f is one of the block formats this package
// encodes.
func quantized(f tensor.Format) bool {
	return f == tensor.Q8_0 || f == tensor.Q4_0 || f == tensor.Q4_K
}
