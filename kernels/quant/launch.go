package quant

import (
	"fmt"
	"github.com/goxpu/xpu/kernels/tensor"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// maxGroups bounds the grids the entry points launch: 65535 blocks, the
// least a WebGPU device offers on an axis. The kernels stride by the grid,
// so a larger problem takes more turns, not more blocks.
const maxGroups = 65535

// maxValues bounds the values of a tensor: the kernels index values and
// bytes with uint32, and a grid-strided index must not wrap.
const maxValues = 1 << 31

// Dequantize records on s the dequantization of the first n values of
// the tensor of blocks of f in src (its bytes, as [Words] packs them)
// into dst, without waiting for it. n must be a whole number of blocks;
// dst must hold n values and src the bytes of their n/BlockSize blocks.
func Dequantize(s *gpu.Stream, f tensor.Format, dst *gpu.Buffer[float32], src *gpu.Buffer[uint32], n int) error {
	const where = "quant.Dequantize"
	if err := checkCommon(where, s, f, dst, src); err != nil {
		return err
	}
	if bs := f.BlockSize(); n <= 0 || n%bs != 0 || n > maxValues {
		return fmt.Errorf("%s: %v: n = %d values, want a positive multiple of %d, at most 2^31: %w", where, f, n, bs, gpu.ErrSize)
	}
	words := wordsOf(f, n)
	if err := checkLens(where, dst, n, src, words); err != nil {
		return err
	}
	groups := xpu.Dim3{X: min(xpu.GroupsFor(uint32(n), dequantBlock), maxGroups)}
	launch := LaunchDequantizeQ8_0
	switch f {
	case tensor.Q4_0:
		launch = LaunchDequantizeQ4_0
	case tensor.Q4_K:
		launch = LaunchDequantizeQ4_K
	}
	return launch(s, groups, dst, src, uint32(n), uint32(words))
}

// MatVec records on s the product y = W x without waiting for it, for W
// of rows x cols values in blocks of f in w (its bytes, as [Words] packs
// them), row-major: row r is its cols/BlockSize blocks, consecutive, and the
// rows follow each other, as GGUF stores a weight matrix. rows must be at
// least 1 and cols a positive multiple of f's block size; y must hold
// rows values, x cols values and w the bytes of the rows*cols/BlockSize
// blocks.
func MatVec(s *gpu.Stream, f tensor.Format, y *gpu.Buffer[float32], w *gpu.Buffer[uint32], x *gpu.Buffer[float32], rows, cols int) error {
	const where = "quant.MatVec"
	if err := checkCommon(where, s, f, y, w); err != nil {
		return err
	}
	if x == nil {
		return fmt.Errorf("%s: x is nil: %w", where, gpu.ErrArgs)
	}
	if rows < 1 {
		return fmt.Errorf("%s: %v: rows = %d, want at least 1: %w", where, f, rows, gpu.ErrSize)
	}
	if bs := f.BlockSize(); cols <= 0 || cols%bs != 0 {
		return fmt.Errorf("%s: %v: cols = %d, want a positive multiple of the block size %d: %w", where, f, cols, bs, gpu.ErrSize)
	}
	if rows > maxValues/cols {
		return fmt.Errorf("%s: %v: rows*cols = %d*%d values, more than 2^31: %w", where, f, rows, cols, gpu.ErrSize)
	}
	words := wordsOf(f, rows*cols)
	if err := checkLens(where, y, rows, w, words); err != nil {
		return err
	}
	if x.Len() < cols {
		return fmt.Errorf("%s: x holds %d values, want cols = %d: %w", where, x.Len(), cols, gpu.ErrBufferLen)
	}
	groups := xpu.Dim3{X: uint32(min(rows, maxGroups))}
	launch := LaunchMatVecQ8_0
	switch f {
	case tensor.Q4_0:
		launch = LaunchMatVecQ4_0
	case tensor.Q4_K:
		launch = LaunchMatVecQ4_K
	}
	return launch(s, groups, y, x, w, uint32(rows), uint32(cols), uint32(words))
}

// wordsOf returns the number of 32-bit words that hold the blocks of n
// values of f: their bytes, the last word padded.
func wordsOf(f tensor.Format, n int) int {
	return (n/f.BlockSize()*f.BlockBytes() + 3) / 4
}

// checkCommon checks the arguments the entry points share: a stream, a
// known format, and the output and the blocks' buffers.
func checkCommon(where string, s *gpu.Stream, f tensor.Format, out *gpu.Buffer[float32], blocks *gpu.Buffer[uint32]) error {
	switch {
	case s == nil:
		return fmt.Errorf("%s: the stream is nil: %w", where, gpu.ErrArgs)
	case !quantized(f):
		return fmt.Errorf("%s: %v is no block format of this package (q8_0, q4_0, q4_k): %w", where, f, gpu.ErrArgs)
	case out == nil:
		return fmt.Errorf("%s: the output buffer is nil: %w", where, gpu.ErrArgs)
	case blocks == nil:
		return fmt.Errorf("%s: the blocks' buffer is nil: %w", where, gpu.ErrArgs)
	}
	return nil
}

// checkLens checks that out holds n values and blocks the words of their
// blocks.
func checkLens(where string, out *gpu.Buffer[float32], n int, blocks *gpu.Buffer[uint32], words int) error {
	if out.Len() < n {
		return fmt.Errorf("%s: the output holds %d values, want %d: %w", where, out.Len(), n, gpu.ErrBufferLen)
	}
	if blocks.Len() < words {
		return fmt.Errorf("%s: the blocks' buffer holds %d words, want %d (the blocks' bytes, padded to whole words): %w", where, blocks.Len(), words, gpu.ErrBufferLen)
	}
	return nil
}
