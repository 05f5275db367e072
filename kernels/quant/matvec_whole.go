package quant

import "github.com/goxpu/xpu"

// The block of the whole-row input-major mat-vec kernels: a row a
// work-item.
const wholeRows = 256

// MatVecInputMajorWholeQ8_0 computes y = W x as MatVecInputMajorQ8_0
// does, over the same input-major blocks, but a work-item takes a whole
// row: every work-item walks the same column blocks in the same order,
// so that the block index, and with it every load of x, is the same
// across the block, and neither a phase nor shared memory nor a barrier
// is needed. A device that runs a block's work-items as SIMD lanes of a
// CPU (lavapipe's llvmpipe) then loads x once for all lanes where the
// phases' block index, derived from the work-item's Y, makes its
// compiler gather x lane by lane; a GPU, which broadcasts a wave's equal
// addresses in hardware, wants the phases' eight times as many
// work-items. Which one a device runs faster is measured
// ([MatVecInputMajorForm]). The lanes past the last row compute the last
// row again and store nothing, so that no branch around the loop makes
// it divergent.
//
//xpu:kernel block=256 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorWholeQ8_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	nb := cols / 32
	for r0 := t.GroupX() * wholeRows; r0 < rows; r0 += t.NumGroupsX() * wholeRows {
		r := xpu.Min(r0+t.LocalX(), rows-1)
		acc := float32(0)
		for b := uint32(0); b < nb; b++ {
			acc += blockDotQ8_0(w, (b*rows+r)*34, x, b*32)
		}
		if r0+t.LocalX() < rows {
			y[r] = acc
		}
	}
}

// MatVecInputMajorWholeQ4_0 computes y = W x for W in Q4_0 blocks as
// MatVecInputMajorWholeQ8_0 does.
//
//xpu:kernel block=256 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorWholeQ4_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	nb := cols / 32
	for r0 := t.GroupX() * wholeRows; r0 < rows; r0 += t.NumGroupsX() * wholeRows {
		r := xpu.Min(r0+t.LocalX(), rows-1)
		acc := float32(0)
		for b := uint32(0); b < nb; b++ {
			acc += blockDotQ4_0(w, (b*rows+r)*18, x, b*32)
		}
		if r0+t.LocalX() < rows {
			y[r] = acc
		}
	}
}

// MatVecInputMajorWholeQ4_K computes y = W x for W in Q4_K super-blocks
// as MatVecInputMajorWholeQ8_0 does, a super-block as four pairs of
// sub-blocks in order (pairDotQ4_K), the sums MatVecInputMajorQ4_K adds.
//
//xpu:kernel block=256 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorWholeQ4_K(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	nb := cols / 256
	for r0 := t.GroupX() * wholeRows; r0 < rows; r0 += t.NumGroupsX() * wholeRows {
		r := xpu.Min(r0+t.LocalX(), rows-1)
		acc := float32(0)
		for u := uint32(0); u < nb*4; u++ {
			b, p := u/4, u%4
			acc += pairDotQ4_K(w, (b*rows+r)*144, p, x, b*256)
		}
		if r0+t.LocalX() < rows {
			y[r] = acc
		}
	}
}
