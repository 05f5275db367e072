package tensor

import "fmt"

// A Format is how a tensor's elements are stored: a 32-bit scalar, or a
// block encoding that packs BlockSize elements into BlockBytes bytes
// (the GGUF quantizations, byte for byte as llama.cpp writes them).
// Block formats are held in buffers of uint32 words, little-endian, the
// tensor's bytes padded to whole words.
type Format uint8

// The formats. Their GGUF type numbers are [Format.GGML].
const (
	F32  Format = iota + 1 // float32
	I32                    // int32
	U32                    // uint32
	Q8_0                   // 32 elements: an f16 scale, 32 int8
	Q4_0                   // 32 elements: an f16 scale, 32 4-bit values offset by 8
	Q4_K                   // 256 elements: f16 scale and min, 8 sub-blocks of 6-bit scales and mins, 4-bit values
)

// formats holds each format's facts, indexed by Format.
var formats = [...]struct {
	name   string
	block  int    // elements per block; 1 for a scalar
	bytes  int    // bytes per block
	ggml   uint32 // GGUF's ggml_type
	scalar bool
}{
	F32:  {"f32", 1, 4, 0, true},
	I32:  {"i32", 1, 4, 26, true},
	U32:  {"u32", 1, 4, 0, true}, // GGUF has no uint32 tensor type; GGML reports false
	Q8_0: {"q8_0", 32, 34, 8, false},
	Q4_0: {"q4_0", 32, 18, 2, false},
	Q4_K: {"q4_k", 256, 144, 12, false},
}

// valid reports whether f is one of the formats.
func (f Format) valid() bool { return f > 0 && int(f) < len(formats) }

// String returns the format's name: "f32", "q8_0", ...
func (f Format) String() string {
	if !f.valid() {
		return fmt.Sprintf("Format(%d)", uint8(f))
	}
	return formats[f].name
}

// BlockSize returns the number of elements in one block of the format:
// 1 for a scalar format.
func (f Format) BlockSize() int {
	if !f.valid() {
		return 0
	}
	return formats[f].block
}

// BlockBytes returns the bytes one block of the format takes.
func (f Format) BlockBytes() int {
	if !f.valid() {
		return 0
	}
	return formats[f].bytes
}

// Blocked reports whether the format is a block encoding, whose tensors
// have a blocked layout instead of strides.
func (f Format) Blocked() bool { return f.valid() && !formats[f].scalar }

// GGML returns the format's type number in a GGUF file (ggml_type), and
// whether it has one.
func (f Format) GGML() (uint32, bool) {
	if !f.valid() || f == U32 {
		return 0, false
	}
	return formats[f].ggml, true
}

// Bytes returns the bytes n elements of the format take, and whether n
// is a whole number of blocks.
func (f Format) Bytes(n int) (int, bool) {
	b := f.BlockSize()
	if b == 0 || n%b != 0 {
		return 0, false
	}
	return n / b * f.BlockBytes(), true
}

// Formats returns every format, in order.
func Formats() []Format {
	fs := make([]Format, 0, len(formats)-1)
	for f := F32; f.valid(); f++ {
		fs = append(fs, f)
	}
	return fs
}
