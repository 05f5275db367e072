package quant

import "github.com/goxpu/xpu"

// packBlock is the block of the packing kernel: one work-item per output
// word, so that neighbouring work-items write neighbouring words.
const packBlock = 256

// PackInputMajor copies the blocks of a rows x nb-block matrix (size bytes
// each, src, words words) from row-major block order, block (r, j) at
// r*nb + j, into input-major order, block (r, j) at j*rows + r (package
// tensor's BlockedInputMajor), in dst, byte for byte.
//
// A work-item assembles one output word from the bytes it holds, striding
// by the grid. Every block size is even, so an output word is two halves,
// each at an even offset within one block and so within one input word
// (halfAt); where the size is a multiple of 4 (Q4_K's 144) a word is a
// whole input word. The bytes past the last block, in the last word, are
// zero, as [Words] pads them.
//
//xpu:kernel block=256 len(dst)=words len(src)=words
func PackInputMajor(t xpu.Thread, dst, src []uint32, rows, nb, size, words uint32) {
	total := rows * nb * size
	stride := t.NumGroupsX() * packBlock
	for i := t.GlobalX(); i < words; i += stride {
		o := i * 4
		if size%4 == 0 {
			dst[i] = src[rowMajorAt(o, rows, nb, size)>>2]
			continue
		}
		v := halfAt(src, rowMajorAt(o, rows, nb, size))
		if o+2 < total {
			v |= halfAt(src, rowMajorAt(o+2, rows, nb, size)) << 16
		}
		dst[i] = v
	}
}

// rowMajorAt returns the offset in row-major block order of byte o of the
// input-major order of a rows x nb-block matrix of size-byte blocks: o
// lies in input-major block q = j*rows + r, which row-major order holds
// at r*nb + j.
func rowMajorAt(o, rows, nb, size uint32) uint32 {
	q, e := o/size, o%size
	j, r := q/rows, q%rows
	return (r*nb+j)*size + e
}
