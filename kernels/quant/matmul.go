package quant

import "github.com/goxpu/xpu"

// The tile of the mat-mul kernels: a block of mmBlock work-items computes
// mmRows rows of Y by mmBatch of its columns, stepping through the
// columns of W mmK values (a block of Q8_0 or Q4_0, a sub-block of Q4_K)
// at a time.
const (
	mmRows  = 64
	mmBatch = 16
	mmK     = 32
	mmBlock = 256
	mmPitch = mmK + 1 // a row of the shared W tile, padded off the banks' stride
)

// MatMulQ8_0 computes Y = W X for W of rows x cols values in Q8_0 blocks
// (w, words words), row-major as GGUF stores it, X of cols x batch
// float32 and Y of rows x batch float32, both row-major: X's columns are
// the batch's activations, as the library's matmul operation takes its
// right operand (c = a·b, b of k x n), and neighbouring work-items read
// neighbouring activations of one input.
//
// A prefill multiplies one W by many activations; the mat-vec kernel run
// once per activation would read W once per activation. Here a block
// decodes a tile of W once into shared memory, mmRows rows by one
// column block, each work-item a quarter of a block (8 values, as the
// mat-vec kernel splits a block), and loads the matching mmK x mmBatch
// tile of X; each work-item then accumulates four outputs, rows tr,
// tr+16, tr+32, tr+48 of the tile at batch column tb, over the tile's
// mmK values. W is read from memory once per mmBatch activations, so a
// batch of up to mmBatch reads it once. Blocks stride by the grid over
// row tiles (X) and batch tiles (Y). A decoded value is the same float32
// on every device (one rounded product of exact operands), so the
// outputs differ from the reference's only in fused multiply-adds.
//
//xpu:kernel block=256 len(y)=rows*batch len(x)=cols*batch len(w)=words
func MatMulQ8_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, batch, words uint32) {
	ws := xpu.Shared[float32](t, mmRows*mmPitch)
	xs := xpu.Shared[float32](t, mmK*mmBatch)
	li := t.LocalIndex()
	tb, tr := li%mmBatch, li/mmBatch
	lr, lq := li/4, li%4
	nb := cols / 32
	for r0 := t.GroupX() * mmRows; r0 < rows; r0 += t.NumGroupsX() * mmRows {
		for n0 := t.GroupY() * mmBatch; n0 < batch; n0 += t.NumGroupsY() * mmBatch {
			a0, a1, a2, a3 := float32(0), float32(0), float32(0), float32(0)
			for b := uint32(0); b < nb; b++ {
				if r := r0 + lr; r < rows {
					o := (r*nb + b) * 34
					d := halfBits(halfAt(w, o))
					for k := uint32(0); k < 2; k++ {
						q := wordAt(w, o+quantsAt+lq*8+k*4)
						at := lr*mmPitch + lq*8 + k*4
						ws[at] = float32(int32(q<<24)>>24) * d
						ws[at+1] = float32(int32(q<<16)>>24) * d
						ws[at+2] = float32(int32(q<<8)>>24) * d
						ws[at+3] = float32(int32(q)>>24) * d
					}
				} else {
					for e := uint32(0); e < 8; e++ {
						ws[lr*mmPitch+lq*8+e] = 0
					}
				}
				for e := li; e < mmK*mmBatch; e += mmBlock {
					kk, nn := e/mmBatch, e%mmBatch
					v := float32(0)
					if n0+nn < batch {
						v = x[(b*mmK+kk)*batch+n0+nn]
					}
					xs[e] = v
				}
				t.Barrier()
				for kk := uint32(0); kk < mmK; kk++ {
					xv := xs[kk*mmBatch+tb]
					a0 += ws[tr*mmPitch+kk] * xv
					a1 += ws[(tr+16)*mmPitch+kk] * xv
					a2 += ws[(tr+32)*mmPitch+kk] * xv
					a3 += ws[(tr+48)*mmPitch+kk] * xv
				}
				t.Barrier()
			}
			if n := n0 + tb; n < batch {
				if r := r0 + tr; r < rows {
					y[r*batch+n] = a0
				}
				if r := r0 + tr + 16; r < rows {
					y[r*batch+n] = a1
				}
				if r := r0 + tr + 32; r < rows {
					y[r*batch+n] = a2
				}
				if r := r0 + tr + 48; r < rows {
					y[r*batch+n] = a3
				}
			}
		}
	}
}

// MatMulQ4_0 computes Y = W X for W in Q4_0 blocks, row-major, as
// MatMulQ8_0 does: a work-item decodes quant bytes 4q to 4q+3 of a block,
// values 4q to 4q+3 (low nibbles) and 4q+16 to 4q+19 (high).
//
//xpu:kernel block=256 len(y)=rows*batch len(x)=cols*batch len(w)=words
func MatMulQ4_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, batch, words uint32) {
	ws := xpu.Shared[float32](t, mmRows*mmPitch)
	xs := xpu.Shared[float32](t, mmK*mmBatch)
	li := t.LocalIndex()
	tb, tr := li%mmBatch, li/mmBatch
	lr, lq := li/4, li%4
	nb := cols / 32
	for r0 := t.GroupX() * mmRows; r0 < rows; r0 += t.NumGroupsX() * mmRows {
		for n0 := t.GroupY() * mmBatch; n0 < batch; n0 += t.NumGroupsY() * mmBatch {
			a0, a1, a2, a3 := float32(0), float32(0), float32(0), float32(0)
			for b := uint32(0); b < nb; b++ {
				if r := r0 + lr; r < rows {
					o := (r*nb + b) * 18
					d := halfBits(halfAt(w, o))
					q := wordAt(w, o+quantsAt+lq*4)
					for j := uint32(0); j < 4; j++ {
						v := q >> (j * 8)
						ws[lr*mmPitch+lq*4+j] = float32(int32(v&0xF)-8) * d
						ws[lr*mmPitch+lq*4+j+16] = float32(int32((v>>4)&0xF)-8) * d
					}
				} else {
					for j := uint32(0); j < 4; j++ {
						ws[lr*mmPitch+lq*4+j] = 0
						ws[lr*mmPitch+lq*4+j+16] = 0
					}
				}
				for e := li; e < mmK*mmBatch; e += mmBlock {
					kk, nn := e/mmBatch, e%mmBatch
					v := float32(0)
					if n0+nn < batch {
						v = x[(b*mmK+kk)*batch+n0+nn]
					}
					xs[e] = v
				}
				t.Barrier()
				for kk := uint32(0); kk < mmK; kk++ {
					xv := xs[kk*mmBatch+tb]
					a0 += ws[tr*mmPitch+kk] * xv
					a1 += ws[(tr+16)*mmPitch+kk] * xv
					a2 += ws[(tr+32)*mmPitch+kk] * xv
					a3 += ws[(tr+48)*mmPitch+kk] * xv
				}
				t.Barrier()
			}
			if n := n0 + tb; n < batch {
				if r := r0 + tr; r < rows {
					y[r*batch+n] = a0
				}
				if r := r0 + tr + 16; r < rows {
					y[r*batch+n] = a1
				}
				if r := r0 + tr + 32; r < rows {
					y[r*batch+n] = a2
				}
				if r := r0 + tr + 48; r < rows {
					y[r*batch+n] = a3
				}
			}
		}
	}
}

// MatMulQ4_K computes Y = W X for W in Q4_K super-blocks, row-major, as
// MatMulQ8_0 does, a step being one sub-block j of a super-block: a
// work-item decodes its values 8q to 8q+7, the low (even j) or high (odd
// j) nibbles of quant bytes 32*(j/2)+8q onwards (two aligned words), as
// d*sc*q - dmin*m, whose products are exact (see DequantizeQ4_K).
//
//xpu:kernel block=256 len(y)=rows*batch len(x)=cols*batch len(w)=words
func MatMulQ4_K(t xpu.Thread, y, x []float32, w []uint32, rows, cols, batch, words uint32) {
	ws := xpu.Shared[float32](t, mmRows*mmPitch)
	xs := xpu.Shared[float32](t, mmK*mmBatch)
	li := t.LocalIndex()
	tb, tr := li%mmBatch, li/mmBatch
	lr, lq := li/4, li%4
	nb := cols / 256
	for r0 := t.GroupX() * mmRows; r0 < rows; r0 += t.NumGroupsX() * mmRows {
		for n0 := t.GroupY() * mmBatch; n0 < batch; n0 += t.NumGroupsY() * mmBatch {
			a0, a1, a2, a3 := float32(0), float32(0), float32(0), float32(0)
			for s := uint32(0); s < nb*8; s++ {
				if r := r0 + lr; r < rows {
					b, j := s/8, s%8
					o := (r*nb + b) * 144
					d := halfBits(halfAt(w, o)) * float32(scaleK4(w, o, j))
					dm := halfBits(halfAt(w, o+2)) * float32(minK4(w, o, j))
					for k := uint32(0); k < 2; k++ {
						q := w[(o+q4KQuantsAt+32*(j/2)+lq*8+k*4)>>2] >> ((j % 2) * 4)
						for e := uint32(0); e < 4; e++ {
							ws[lr*mmPitch+lq*8+k*4+e] = d*float32((q>>(e*8))&0xF) - dm
						}
					}
				} else {
					for e := uint32(0); e < 8; e++ {
						ws[lr*mmPitch+lq*8+e] = 0
					}
				}
				for e := li; e < mmK*mmBatch; e += mmBlock {
					kk, nn := e/mmBatch, e%mmBatch
					v := float32(0)
					if n0+nn < batch {
						v = x[(s*mmK+kk)*batch+n0+nn]
					}
					xs[e] = v
				}
				t.Barrier()
				for kk := uint32(0); kk < mmK; kk++ {
					xv := xs[kk*mmBatch+tb]
					a0 += ws[tr*mmPitch+kk] * xv
					a1 += ws[(tr+16)*mmPitch+kk] * xv
					a2 += ws[(tr+32)*mmPitch+kk] * xv
					a3 += ws[(tr+48)*mmPitch+kk] * xv
				}
				t.Barrier()
			}
			if n := n0 + tb; n < batch {
				if r := r0 + tr; r < rows {
					y[r*batch+n] = a0
				}
				if r := r0 + tr + 16; r < rows {
					y[r*batch+n] = a1
				}
				if r := r0 + tr + 32; r < rows {
					y[r*batch+n] = a2
				}
				if r := r0 + tr + 48; r < rows {
					y[r*batch+n] = a3
				}
			}
		}
	}
}
