package quant

import "github.com/goxpu/xpu"

// The whole-row input-major mat-vec kernels' shape: a block of 64
// work-items takes wholeRows rows, each work-item wholeEach of them,
// wholeRows/wholeEach apart.
const (
	wholeRows = 256
	wholeEach = 4
)

// MatVecInputMajorWholeQ8_0 computes y = W x as MatVecInputMajorQ8_0
// does, over the same input-major blocks, but a work-item takes whole
// rows, wholeEach (four) of them, reading each value of x once for all
// four: every work-item walks the same column blocks in the same order,
// so that the block index, and with it every load of x, is the same
// across the block, and neither a phase nor shared memory nor a barrier
// is needed. A device that runs a block's work-items as SIMD lanes of a
// CPU (lavapipe's llvmpipe) then loads x once for all lanes where the
// phases' block index, derived from the work-item's Y, makes its
// compiler gather x lane by lane; a GPU, which broadcasts a wave's equal
// addresses in hardware, wants the split form's 32 times as many
// work-items. The library (package kernels) measures which form a device
// runs faster ([Form]). The lanes past the last row compute the last row
// again and store nothing, so that no branch around the loop makes it
// divergent. The kernels decode the four rows' blocks in one loop rather
// than call blockDotQ8_0 (and the others) once a row: lavapipe does not
// merge the calls' loads of x, and Q4_0 ran at 0.59-0.61 of the copy
// that way, against 0.82-0.91.
//
//xpu:kernel block=64 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorWholeQ8_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	const q = wholeRows / wholeEach
	nb := cols / 32
	for r0 := t.GroupX() * wholeRows; r0 < rows; r0 += t.NumGroupsX() * wholeRows {
		var rs [wholeEach]uint32
		for h := uint32(0); h < wholeEach; h++ {
			rs[h] = xpu.Min(r0+h*q+t.LocalX(), rows-1)
		}
		var acc [wholeEach]float32
		for b := uint32(0); b < nb; b++ {
			var v [wholeEach * 9]uint32
			var sh [wholeEach]uint32
			for h := uint32(0); h < wholeEach; h++ {
				o := (b*rows + rs[h]) * 34
				for k := uint32(0); k < 9; k++ {
					v[h*9+k] = w[o>>2+k]
				}
				sh[h] = (o & 2) * 8
			}
			var s [wholeEach]float32
			for k := uint32(0); k < 8; k++ {
				i := b*32 + k*4
				x0, x1, x2, x3 := x[i], x[i+1], x[i+2], x[i+3]
				for h := uint32(0); h < wholeEach; h++ {
					e := v[h*9+k]>>16>>sh[h] | v[h*9+k+1]<<(16-sh[h])
					s[h] += float32(int32(e<<24)>>24) * x0
					s[h] += float32(int32(e<<16)>>24) * x1
					s[h] += float32(int32(e<<8)>>24) * x2
					s[h] += float32(int32(e)>>24) * x3
				}
			}
			for h := uint32(0); h < wholeEach; h++ {
				acc[h] += halfBits((v[h*9]>>sh[h])&0xFFFF) * s[h]
			}
		}
		for h := uint32(0); h < wholeEach; h++ {
			if r0+h*q+t.LocalX() < rows {
				y[rs[h]] = acc[h]
			}
		}
	}
}

// MatVecInputMajorWholeQ4_0 computes y = W x for W in Q4_0 blocks as
// MatVecInputMajorWholeQ8_0 does.
//
//xpu:kernel block=64 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorWholeQ4_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	const q = wholeRows / wholeEach
	nb := cols / 32
	for r0 := t.GroupX() * wholeRows; r0 < rows; r0 += t.NumGroupsX() * wholeRows {
		var rs [wholeEach]uint32
		for h := uint32(0); h < wholeEach; h++ {
			rs[h] = xpu.Min(r0+h*q+t.LocalX(), rows-1)
		}
		var acc [wholeEach]float32
		for b := uint32(0); b < nb; b++ {
			var v [wholeEach * 5]uint32
			var sh [wholeEach]uint32
			for h := uint32(0); h < wholeEach; h++ {
				o := (b*rows + rs[h]) * 18
				for k := uint32(0); k < 5; k++ {
					v[h*5+k] = w[o>>2+k]
				}
				sh[h] = (o & 2) * 8
			}
			var s [wholeEach]float32
			for k := uint32(0); k < 4; k++ {
				var qs [wholeEach]uint32
				for h := uint32(0); h < wholeEach; h++ {
					qs[h] = v[h*5+k]>>16>>sh[h] | v[h*5+k+1]<<(16-sh[h])
				}
				for j := uint32(0); j < 4; j++ {
					i := b*32 + k*4 + j
					lo, hi := x[i], x[i+16]
					for h := uint32(0); h < wholeEach; h++ {
						e := qs[h] >> (j * 8)
						s[h] += float32(int32(e&0xF)-8) * lo
						s[h] += float32(int32((e>>4)&0xF)-8) * hi
					}
				}
			}
			for h := uint32(0); h < wholeEach; h++ {
				acc[h] += halfBits((v[h*5]>>sh[h])&0xFFFF) * s[h]
			}
		}
		for h := uint32(0); h < wholeEach; h++ {
			if r0+h*q+t.LocalX() < rows {
				y[rs[h]] = acc[h]
			}
		}
	}
}

// MatVecInputMajorWholeQ4_K computes y = W x for W in Q4_K super-blocks
// as MatVecInputMajorWholeQ8_0 does, a super-block as four pairs of
// sub-blocks in order, the sums MatVecInputMajorQ4_K adds (pairDotQ4_K);
// the four rows share x's loads and x's sums.
//
//xpu:kernel block=64 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorWholeQ4_K(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	const q = wholeRows / wholeEach
	nb := cols / 256
	for r0 := t.GroupX() * wholeRows; r0 < rows; r0 += t.NumGroupsX() * wholeRows {
		var rs [wholeEach]uint32
		for h := uint32(0); h < wholeEach; h++ {
			rs[h] = xpu.Min(r0+h*q+t.LocalX(), rows-1)
		}
		var acc [wholeEach]float32
		for u := uint32(0); u < nb*4; u++ {
			b, p := u/4, u%4
			var os [wholeEach]uint32
			for h := uint32(0); h < wholeEach; h++ {
				os[h] = (b*rows + rs[h]) * 144
			}
			var s0, s1 [wholeEach]float32
			x0, x1 := float32(0), float32(0)
			for k := uint32(0); k < 8; k++ {
				var qs [wholeEach]uint32
				for h := uint32(0); h < wholeEach; h++ {
					qs[h] = w[(os[h]+q4KQuantsAt+p*32+k*4)>>2]
				}
				i := b*256 + p*64 + k*4
				for e := uint32(0); e < 4; e++ {
					xa, xb := x[i+e], x[i+e+32]
					for h := uint32(0); h < wholeEach; h++ {
						v := qs[h] >> (e * 8)
						s0[h] += float32(v&0xF) * xa
						s1[h] += float32((v>>4)&0xF) * xb
					}
					x0 += xa
					x1 += xb
				}
			}
			for h := uint32(0); h < wholeEach; h++ {
				acc[h] += pairScaleQ4_K(w, os[h], p, s0[h], s1[h], x0, x1)
			}
		}
		for h := uint32(0); h < wholeEach; h++ {
			if r0+h*q+t.LocalX() < rows {
				y[rs[h]] = acc[h]
			}
		}
	}
}
