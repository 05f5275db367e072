package quant

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/tensor"
)

// InputMajor returns the bytes of the rows x cols matrix of blocks of f in
// b, row-major (row r is its cols/BlockSize blocks, consecutive, as GGUF
// stores a weight), in input-major order (package tensor's
// BlockedInputMajor): block (r, j) at j*rows + r. It is the plain-Go
// packer that [Pack] does on a device, byte for byte.
func InputMajor(f tensor.Format, b []byte, rows, cols int) ([]byte, error) {
	const where = "quant.InputMajor"
	if !quantized(f) {
		return nil, fmt.Errorf("%s: %v is no block format of this package (q8_0, q4_0, q4_k): %w", where, f, gpu.ErrArgs)
	}
	if err := checkShape(where, f, rows, cols); err != nil {
		return nil, err
	}
	nb, size := cols/f.BlockSize(), f.BlockBytes()
	if len(b) != rows*nb*size {
		return nil, fmt.Errorf("%s: %v: %d bytes, want %d for %d x %d values: %w", where, f, len(b), rows*nb*size, rows, cols, gpu.ErrSize)
	}
	out := make([]byte, len(b))
	for r := range rows {
		for j := range nb {
			copy(out[(j*rows+r)*size:][:size], b[(r*nb+j)*size:])
		}
	}
	return out, nil
}
