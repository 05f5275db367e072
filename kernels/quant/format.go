package quant

import "fmt"

// Format is a GGUF block quantization format.
type Format uint8

// The formats, with llama.cpp's names.
const (
	Q8_0 Format = iota + 1 // 32 int8 values and a float16 scale per block
	Q4_0                   // 32 4-bit values, offset by 8, and a float16 scale per block
	Q4_K                   // 256 4-bit values in 8 sub-blocks with 6-bit scales and mins per super-block
)

// blockValues is the number of values in a block of Q8_0 and Q4_0.
const blockValues = 32

// BlockSize returns the number of values a block of f holds, or 0 for a
// format that is not one of the constants.
func (f Format) BlockSize() int {
	switch f {
	case Q8_0, Q4_0:
		return blockValues
	case Q4_K:
		return q4KValues
	}
	return 0
}

// BlockBytes returns the number of bytes a block of f takes, or 0 for a
// format that is not one of the constants.
func (f Format) BlockBytes() int {
	switch f {
	case Q8_0:
		return q8_0Bytes
	case Q4_0:
		return q4_0Bytes
	case Q4_K:
		return q4KBytes
	}
	return 0
}

// String returns llama.cpp's name of f.
func (f Format) String() string {
	switch f {
	case Q8_0:
		return "Q8_0"
	case Q4_0:
		return "Q4_0"
	case Q4_K:
		return "Q4_K"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// valid reports whether f is one of the constants.
func (f Format) valid() bool { return f.BlockSize() != 0 }
