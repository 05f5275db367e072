package kernels

// This file holds the operations' host references: what runs, with a
// warning, when no kernel takes a call's operands. They read any
// operand the library can decode, accumulate in float64, and write
// their output through its strides.

import (
	"encoding/binary"
	"fmt"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/dispatch"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// read returns t's elements in row-major order, after the stream's work
// is done.
func read(t tensor.Tensor) ([]float32, error) {
	if t.Layout().Blocked() {
		return readBlocks(t)
	}
	if t.Format() != tensor.F32 {
		return nil, fmt.Errorf("kernels: the host reference reads no %s tensor: %w", t.Format(), gpu.ErrType)
	}
	b, err := tensor.Buffer[float32](t)
	if err != nil {
		return nil, err
	}
	all, err := b.Download()
	if err != nil {
		return nil, err
	}
	out := make([]float32, t.Len())
	offsets(t, func(i, off int) { out[i] = all[off] })
	return out, nil
}

// readBlocks returns the values of a tensor of blocks, decoded on the
// host: input-major blocks are put back in row-major order first.
func readBlocks(t tensor.Tensor) ([]float32, error) {
	b, err := tensor.Buffer[uint32](t)
	if err != nil {
		return nil, err
	}
	words, err := b.Download()
	if err != nil {
		return nil, err
	}
	n, _ := t.Format().Bytes(t.Len())
	bytes := make([]byte, 0, 4*len(words))
	for _, w := range words {
		bytes = binary.LittleEndian.AppendUint32(bytes, w)
	}
	bytes = bytes[:n]
	if t.Layout() == tensor.BlockedInputMajor {
		bytes = rowMajor(t.Format(), bytes, t.Dim(0), t.Dim(1))
	}
	return quant.Decode(t.Format(), bytes)
}

// rowMajor returns the blocks of a rows x cols matrix in input-major
// order (block (r, j) at j*rows + r) in row-major order (at r*nb + j).
func rowMajor(f tensor.Format, b []byte, rows, cols int) []byte {
	size, nb := f.BlockBytes(), cols/f.BlockSize()
	out := make([]byte, len(b))
	for r := range rows {
		for j := range nb {
			copy(out[(r*nb+j)*size:(r*nb+j+1)*size], b[(j*rows+r)*size:])
		}
	}
	return out
}

// write stores vals, t's elements in row-major order, through its
// strides, leaving the rest of its buffer as it was.
func write(t tensor.Tensor, vals []float32) error {
	if t.Format() != tensor.F32 {
		return fmt.Errorf("kernels: the host reference writes no %s tensor: %w", t.Format(), gpu.ErrType)
	}
	b, err := tensor.Buffer[float32](t)
	if err != nil {
		return err
	}
	all, err := b.Download()
	if err != nil {
		return err
	}
	offsets(t, func(i, off int) { all[off] = vals[i] })
	return b.Write(all)
}

// offsets calls f with the row-major index and the buffer offset of
// every element of the scalar tensor t.
func offsets(t tensor.Tensor, f func(i, off int)) {
	shape, strides := t.Shape(), t.Strides()
	idx := make([]int, len(shape))
	for i := range t.Len() {
		off := 0
		for d := range idx {
			off += idx[d] * strides[d]
		}
		f(i, off)
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
}

// reads returns the elements of every input of ts, after syncing the
// call's stream so that launches recorded before are done.
func reads(c *dispatch.Call, ts []tensor.Tensor) ([][]float32, error) {
	if err := c.Stream.Sync(); err != nil {
		return nil, err
	}
	vs := make([][]float32, len(ts))
	for i, t := range ts {
		v, err := read(t)
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return vs, nil
}

// referenceMatMul computes c = a·b on the host.
func referenceMatMul(c *dispatch.Call, ts []tensor.Tensor) error {
	vs, err := reads(c, ts[1:])
	if err != nil {
		return err
	}
	a, b := vs[0], vs[1]
	m, k, n := ts[1].Dim(0), ts[1].Dim(1), ts[2].Dim(1)
	out := make([]float32, m*n)
	for i := range m {
		for j := range n {
			var s float64
			for q := range k {
				s += float64(a[i*k+q]) * float64(b[q*n+j])
			}
			out[i*n+j] = float32(s)
		}
	}
	return write(ts[0], out)
}

// referenceMatVec computes y = w·x on the host.
func referenceMatVec(c *dispatch.Call, ts []tensor.Tensor) error {
	vs, err := reads(c, ts[1:])
	if err != nil {
		return err
	}
	w, x := vs[0], vs[1]
	rows, cols := ts[1].Dim(0), ts[1].Dim(1)
	y := make([]float32, rows)
	for r := range rows {
		var s float64
		for q := range cols {
			s += float64(w[r*cols+q]) * float64(x[q])
		}
		y[r] = float32(s)
	}
	return write(ts[0], y)
}
