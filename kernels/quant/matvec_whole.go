package quant

import "github.com/goxpu/xpu"

// The rows a block of the whole-row input-major mat-vec kernels takes: a
// block of 128 work-items, two rows a work-item.
const wholeRows = 256

// MatVecInputMajorWholeQ8_0 computes y = W x as MatVecInputMajorQ8_0
// does, over the same input-major blocks, but a work-item takes whole
// rows, two of them, r and r + wholeRows/2, reading each value of x once
// for both: every work-item walks the same column blocks in the same order,
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
//xpu:kernel block=128 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorWholeQ8_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	const half = wholeRows / 2
	nb := cols / 32
	for r0 := t.GroupX() * wholeRows; r0 < rows; r0 += t.NumGroupsX() * wholeRows {
		ra := xpu.Min(r0+t.LocalX(), rows-1)
		rb := xpu.Min(r0+half+t.LocalX(), rows-1)
		acc0, acc1 := float32(0), float32(0)
		for b := uint32(0); b < nb; b++ {
			oa, ob := (b*rows+ra)*34, (b*rows+rb)*34
			var va, vb [9]uint32
			for k := uint32(0); k < 9; k++ {
				va[k] = w[oa>>2+k]
				vb[k] = w[ob>>2+k]
			}
			sha, shb := (oa&2)*8, (ob&2)*8
			sa, sb := float32(0), float32(0)
			for k := uint32(0); k < 8; k++ {
				qa := va[k]>>16>>sha | va[k+1]<<(16-sha)
				qb := vb[k]>>16>>shb | vb[k+1]<<(16-shb)
				i := b*32 + k*4
				x0, x1, x2, x3 := x[i], x[i+1], x[i+2], x[i+3]
				sa += float32(int32(qa<<24)>>24) * x0
				sa += float32(int32(qa<<16)>>24) * x1
				sa += float32(int32(qa<<8)>>24) * x2
				sa += float32(int32(qa)>>24) * x3
				sb += float32(int32(qb<<24)>>24) * x0
				sb += float32(int32(qb<<16)>>24) * x1
				sb += float32(int32(qb<<8)>>24) * x2
				sb += float32(int32(qb)>>24) * x3
			}
			acc0 += halfBits((va[0]>>sha)&0xFFFF) * sa
			acc1 += halfBits((vb[0]>>shb)&0xFFFF) * sb
		}
		if r0+t.LocalX() < rows {
			y[ra] = acc0
		}
		if r0+half+t.LocalX() < rows {
			y[rb] = acc1
		}
	}
}

// MatVecInputMajorWholeQ4_0 computes y = W x for W in Q4_0 blocks as
// MatVecInputMajorWholeQ8_0 does.
//
//xpu:kernel block=128 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorWholeQ4_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	const half = wholeRows / 2
	nb := cols / 32
	for r0 := t.GroupX() * wholeRows; r0 < rows; r0 += t.NumGroupsX() * wholeRows {
		ra := xpu.Min(r0+t.LocalX(), rows-1)
		rb := xpu.Min(r0+half+t.LocalX(), rows-1)
		acc0, acc1 := float32(0), float32(0)
		for b := uint32(0); b < nb; b++ {
			oa, ob := (b*rows+ra)*18, (b*rows+rb)*18
			var va, vb [5]uint32
			for k := uint32(0); k < 5; k++ {
				va[k] = w[oa>>2+k]
				vb[k] = w[ob>>2+k]
			}
			sha, shb := (oa&2)*8, (ob&2)*8
			sa, sb := float32(0), float32(0)
			for k := uint32(0); k < 4; k++ {
				qa := va[k]>>16>>sha | va[k+1]<<(16-sha)
				qb := vb[k]>>16>>shb | vb[k+1]<<(16-shb)
				for j := uint32(0); j < 4; j++ {
					i := b*32 + k*4 + j
					lo, hi := x[i], x[i+16]
					ea, eb := qa>>(j*8), qb>>(j*8)
					sa += float32(int32(ea&0xF)-8) * lo
					sa += float32(int32((ea>>4)&0xF)-8) * hi
					sb += float32(int32(eb&0xF)-8) * lo
					sb += float32(int32((eb>>4)&0xF)-8) * hi
				}
			}
			acc0 += halfBits((va[0]>>sha)&0xFFFF) * sa
			acc1 += halfBits((vb[0]>>shb)&0xFFFF) * sb
		}
		if r0+t.LocalX() < rows {
			y[ra] = acc0
		}
		if r0+half+t.LocalX() < rows {
			y[rb] = acc1
		}
	}
}

// MatVecInputMajorWholeQ4_K computes y = W x for W in Q4_K super-blocks
// as MatVecInputMajorWholeQ8_0 does, a super-block as four pairs of
// sub-blocks in order, the sums MatVecInputMajorQ4_K adds (pairDotQ4_K);
// the two rows share x's loads and x's sums.
//
//xpu:kernel block=128 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorWholeQ4_K(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	const half = wholeRows / 2
	nb := cols / 256
	for r0 := t.GroupX() * wholeRows; r0 < rows; r0 += t.NumGroupsX() * wholeRows {
		ra := xpu.Min(r0+t.LocalX(), rows-1)
		rb := xpu.Min(r0+half+t.LocalX(), rows-1)
		acc0, acc1 := float32(0), float32(0)
		for u := uint32(0); u < nb*4; u++ {
			b, p := u/4, u%4
			oa, ob := (b*rows+ra)*144, (b*rows+rb)*144
			sa0, sa1, sb0, sb1, x0, x1 := float32(0), float32(0), float32(0), float32(0), float32(0), float32(0)
			for k := uint32(0); k < 8; k++ {
				qa := w[(oa+q4KQuantsAt+p*32+k*4)>>2]
				qb := w[(ob+q4KQuantsAt+p*32+k*4)>>2]
				i := b*256 + p*64 + k*4
				for e := uint32(0); e < 4; e++ {
					xa, xb := x[i+e], x[i+e+32]
					ea, eb := qa>>(e*8), qb>>(e*8)
					sa0 += float32(ea&0xF) * xa
					sa1 += float32((ea>>4)&0xF) * xb
					sb0 += float32(eb&0xF) * xa
					sb1 += float32((eb>>4)&0xF) * xb
					x0 += xa
					x1 += xb
				}
			}
			acc0 += pairScaleQ4_K(w, oa, p, sa0, sa1, x0, x1)
			acc1 += pairScaleQ4_K(w, ob, p, sb0, sb1, x0, x1)
		}
		if r0+t.LocalX() < rows {
			y[ra] = acc0
		}
		if r0+half+t.LocalX() < rows {
			y[rb] = acc1
		}
	}
}
