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
	words, err := checkMatVec(where, f, y, w, x, rows, cols)
	if err != nil {
		return err
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

// MatVecInputMajor records on s the product y = W x without waiting for
// it, as [MatVec] does, for W in input-major block order (package
// tensor's BlockedInputMajor, block (r, j) at j*rows + r, as [Pack]
// writes it), in the [Split] form. Its kernels give a work-item a row, so
// that a wave reads neighbouring blocks of one column slice (see
// MatVecInputMajorQ8_0).
func MatVecInputMajor(s *gpu.Stream, f tensor.Format, y *gpu.Buffer[float32], w *gpu.Buffer[uint32], x *gpu.Buffer[float32], rows, cols int) error {
	return matVecInputMajor("quant.MatVecInputMajor", s, Split, f, y, w, x, rows, cols)
}

// MatVecInputMajorForm is [MatVecInputMajor] in the form given.
func MatVecInputMajorForm(s *gpu.Stream, form Form, f tensor.Format, y *gpu.Buffer[float32], w *gpu.Buffer[uint32], x *gpu.Buffer[float32], rows, cols int) error {
	return matVecInputMajor("quant.MatVecInputMajorForm", s, form, f, y, w, x, rows, cols)
}

func matVecInputMajor(where string, s *gpu.Stream, form Form, f tensor.Format, y *gpu.Buffer[float32], w *gpu.Buffer[uint32], x *gpu.Buffer[float32], rows, cols int) error {
	if err := checkCommon(where, s, f, y, w); err != nil {
		return err
	}
	if form != Split && form != Whole {
		return fmt.Errorf("%s: form %d is neither Split nor Whole: %w", where, form, gpu.ErrArgs)
	}
	words, err := checkMatVec(where, f, y, w, x, rows, cols)
	if err != nil {
		return err
	}
	per := uint32(imRows)
	if form == Whole {
		per = wholeRows
	}
	groups := xpu.Dim3{X: min(xpu.GroupsFor(uint32(rows), per), maxGroups)}
	return form.launcher(f)(s, groups, y, x, w, uint32(rows), uint32(cols), uint32(words))
}

// A Form is how an input-major mat-vec spreads a row's work over
// work-items. Both forms read the same blocks and add each row's terms
// in the same grouping within a block; only how the blocks' sums are
// added differs, so their results agree within a float32 sum's rounding.
type Form int

const (
	// Split gives a row imPhases (8) work-items, each adding every
	// eighth of the row's column blocks, their sums met in shared
	// memory: 32 times the work-items of Whole, which a GPU needs to
	// keep its memory busy on a matrix of a few thousand rows.
	Split Form = iota
	// Whole gives a work-item four rows, whose column blocks it walks
	// all, the block index the same across the block: a CPU-emulated
	// device loads x once for all its lanes, and once for the four rows
	// (see MatVecInputMajorWholeQ8_0).
	Whole
)

// String returns "split" or "whole".
func (f Form) String() string {
	switch f {
	case Split:
		return "split"
	case Whole:
		return "whole"
	}
	return fmt.Sprintf("Form(%d)", int(f))
}

// Kernel returns the kernel of the input-major mat-vec of format f in
// form fm: what a tuner hashes as the form's code. It returns nil for a
// format or form this package has no kernel of.
func (fm Form) Kernel(f tensor.Format) *gpu.Kernel { return formKernels[fm][f] }

// formKernels are the input-major mat-vec kernels by form and format.
var formKernels = map[Form]map[tensor.Format]*gpu.Kernel{
	Split: {tensor.Q8_0: MatVecInputMajorQ8_0Kernel, tensor.Q4_0: MatVecInputMajorQ4_0Kernel, tensor.Q4_K: MatVecInputMajorQ4_KKernel},
	Whole: {tensor.Q8_0: MatVecInputMajorWholeQ8_0Kernel, tensor.Q4_0: MatVecInputMajorWholeQ4_0Kernel, tensor.Q4_K: MatVecInputMajorWholeQ4_KKernel},
}

// launcher returns the generated launcher of form fm's kernel of f, a
// format of this package.
func (fm Form) launcher(f tensor.Format) func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[float32], *gpu.Buffer[float32], *gpu.Buffer[uint32], uint32, uint32, uint32) error {
	if fm == Whole {
		switch f {
		case tensor.Q4_0:
			return LaunchMatVecInputMajorWholeQ4_0
		case tensor.Q4_K:
			return LaunchMatVecInputMajorWholeQ4_K
		}
		return LaunchMatVecInputMajorWholeQ8_0
	}
	switch f {
	case tensor.Q4_0:
		return LaunchMatVecInputMajorQ4_0
	case tensor.Q4_K:
		return LaunchMatVecInputMajorQ4_K
	}
	return LaunchMatVecInputMajorQ8_0
}

// MatMul records on s the product Y = W X without waiting for it, for W
// of rows x cols values in blocks of f in w, row-major as [MatVec] takes
// it, X of cols x batch values in x and Y of rows x batch in y, both
// row-major float32: column n of X is the n-th activation, as the
// library's matmul (c = a·b, b of k x n) takes its right operand. Its
// kernels read each block of W once per 16 columns of X (see
// MatMulQ8_0), so a prefill of several tokens streams W once, not once a
// token. batch must be at least 1; y must hold rows*batch values and x
// cols*batch.
func MatMul(s *gpu.Stream, f tensor.Format, y *gpu.Buffer[float32], w *gpu.Buffer[uint32], x *gpu.Buffer[float32], rows, cols, batch int) error {
	const where = "quant.MatMul"
	if err := checkCommon(where, s, f, y, w); err != nil {
		return err
	}
	if x == nil {
		return fmt.Errorf("%s: x is nil: %w", where, gpu.ErrArgs)
	}
	if err := checkShape(where, f, rows, cols); err != nil {
		return err
	}
	if batch < 1 || batch > maxValues/rows || batch > maxValues/cols {
		return fmt.Errorf("%s: %v: batch = %d, want at least 1, with rows*batch and cols*batch at most 2^31: %w", where, f, batch, gpu.ErrSize)
	}
	words := wordsOf(f, rows*cols)
	if err := checkLens(where, y, rows*batch, w, words); err != nil {
		return err
	}
	if x.Len() < cols*batch {
		return fmt.Errorf("%s: x holds %d values, want cols*batch = %d: %w", where, x.Len(), cols*batch, gpu.ErrBufferLen)
	}
	groups := xpu.Dim3{
		X: min(xpu.GroupsFor(uint32(rows), mmRows), maxGroups),
		Y: min(xpu.GroupsFor(uint32(batch), mmBatch), maxGroups),
	}
	launch := LaunchMatMulQ8_0
	switch f {
	case tensor.Q4_0:
		launch = LaunchMatMulQ4_0
	case tensor.Q4_K:
		launch = LaunchMatMulQ4_K
	}
	return launch(s, groups, y, x, w, uint32(rows), uint32(cols), uint32(batch), uint32(words))
}

// Pack records on s the packing of the rows x cols matrix of blocks of f
// in src, row-major (as [MatVec] takes it), into dst in input-major order
// (as [MatVecInputMajor] takes it), byte for byte, without waiting for
// it: [InputMajor] on a device, done once when a weight is loaded. dst
// and src must each hold the blocks' words and must not overlap.
func Pack(s *gpu.Stream, f tensor.Format, dst, src *gpu.Buffer[uint32], rows, cols int) error {
	const where = "quant.Pack"
	switch {
	case s == nil:
		return fmt.Errorf("%s: the stream is nil: %w", where, gpu.ErrArgs)
	case !quantized(f):
		return fmt.Errorf("%s: %v is no block format of this package (q8_0, q4_0, q4_k): %w", where, f, gpu.ErrArgs)
	case dst == nil || src == nil:
		return fmt.Errorf("%s: a blocks' buffer is nil: %w", where, gpu.ErrArgs)
	case dst == src:
		return fmt.Errorf("%s: dst is src: packing moves blocks across the buffer, so it cannot be done in place: %w", where, gpu.ErrArgs)
	}
	if err := checkShape(where, f, rows, cols); err != nil {
		return err
	}
	words := wordsOf(f, rows*cols)
	for _, b := range []struct {
		name string
		buf  *gpu.Buffer[uint32]
	}{{"dst", dst}, {"src", src}} {
		if b.buf.Len() < words {
			return fmt.Errorf("%s: %s holds %d words, want %d (the blocks' bytes, padded to whole words): %w", where, b.name, b.buf.Len(), words, gpu.ErrBufferLen)
		}
	}
	groups := xpu.Dim3{X: min(xpu.GroupsFor(uint32(words), packBlock), maxGroups)}
	nb := cols / f.BlockSize()
	return LaunchPackInputMajor(s, groups, dst, src, uint32(rows), uint32(nb), uint32(f.BlockBytes()), uint32(words))
}

// checkShape checks a matrix of blocks: at least one row, whole blocks
// per row, at most 2^31 values.
func checkShape(where string, f tensor.Format, rows, cols int) error {
	if rows < 1 {
		return fmt.Errorf("%s: %v: rows = %d, want at least 1: %w", where, f, rows, gpu.ErrSize)
	}
	if bs := f.BlockSize(); cols <= 0 || cols%bs != 0 {
		return fmt.Errorf("%s: %v: cols = %d, want a positive multiple of the block size %d: %w", where, f, cols, bs, gpu.ErrSize)
	}
	if rows > maxValues/cols {
		return fmt.Errorf("%s: %v: rows*cols = %d*%d values, more than 2^31: %w", where, f, rows, cols, gpu.ErrSize)
	}
	return nil
}

// checkMatVec checks a mat-vec's x, shape and lengths, and returns the
// words of W's blocks.
func checkMatVec(where string, f tensor.Format, y *gpu.Buffer[float32], w *gpu.Buffer[uint32], x *gpu.Buffer[float32], rows, cols int) (int, error) {
	if x == nil {
		return 0, fmt.Errorf("%s: x is nil: %w", where, gpu.ErrArgs)
	}
	if err := checkShape(where, f, rows, cols); err != nil {
		return 0, err
	}
	words := wordsOf(f, rows*cols)
	if err := checkLens(where, y, rows, w, words); err != nil {
		return 0, err
	}
	if x.Len() < cols {
		return 0, fmt.Errorf("%s: x holds %d values, want cols = %d: %w", where, x.Len(), cols, gpu.ErrBufferLen)
	}
	return words, nil
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
