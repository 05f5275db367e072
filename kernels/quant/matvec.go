package quant

import "github.com/goxpu/xpu"

// matVecBlock is the block of the mat-vec kernels: the work-items that
// share one row of W (see MatVecQ8_0).
const matVecBlock = 128

// MatVecQ8_0 computes y = W x for W of rows x cols values in Q8_0 blocks
// (w, words words), row-major: row r is its cols/32 blocks, consecutive.
//
// A block of matVecBlock work-items computes a row, striding by the grid
// over rows so that any number fits a bounded grid. Mat-vec reads each
// weight once, so its speed is the rate W streams in: the row's work is
// split into quarters of quant blocks (8 values each), work-item li
// taking quarters li, li+matVecBlock, ..., so that neighbouring
// work-items read neighbouring bytes; each multiplies its quants by x in
// float32, scales the sum by the block's scale once, and the block adds
// the work-items' sums in shared memory by halving. A
// block per row needs no atomics and writes y once; a row of fewer than
// matVecBlock quarters leaves work-items idle, which only small products
// see.
//
//xpu:kernel block=128 len(y)=rows len(x)=cols len(w)=words
func MatVecQ8_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	part := xpu.Shared[float32](t, matVecBlock)
	li := t.LocalIndex()
	nb := cols / 32
	for r := t.GroupX(); r < rows; r += t.NumGroupsX() {
		acc := float32(0)
		for u := li; u < nb*4; u += matVecBlock {
			b, p := u/4, u%4
			o := (r*nb + b) * 34
			// The quarter's 8 quants are two words' worth at an even
			// offset: two or three loads, not eight.
			s := float32(0)
			for k := uint32(0); k < 2; k++ {
				q := wordAt(w, o+quantsAt+p*8+k*4)
				xi := b*32 + p*8 + k*4
				s += float32(int32(q<<24)>>24) * x[xi]
				s += float32(int32(q<<16)>>24) * x[xi+1]
				s += float32(int32(q<<8)>>24) * x[xi+2]
				s += float32(int32(q)>>24) * x[xi+3]
			}
			acc += halfBits(halfAt(w, o)) * s
		}
		// The block's sum, by halving through part with a barrier after
		// each step (in the kernel body: the CPU and LLVM lowerings take
		// barriers there only). The next row's stores to part need no
		// barrier of their own: after the last step's, only work-item 0
		// reads part, and only its own element.
		part[li] = acc
		t.Barrier()
		for h := uint32(matVecBlock / 2); h > 0; h /= 2 {
			if li < h {
				part[li] += part[li+h]
			}
			t.Barrier()
		}
		if li == 0 {
			y[r] = part[0]
		}
	}
}

// MatVecQ4_0 computes y = W x for W of rows x cols values in Q4_0 blocks
// (w, words words), row-major, as MatVecQ8_0 does: a quarter of a block
// is its quant bytes 4p to 4p+3, which hold values 4p to 4p+3 (low
// nibbles) and 4p+16 to 4p+19 (high nibbles).
//
//xpu:kernel block=128 len(y)=rows len(x)=cols len(w)=words
func MatVecQ4_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	part := xpu.Shared[float32](t, matVecBlock)
	li := t.LocalIndex()
	nb := cols / 32
	for r := t.GroupX(); r < rows; r += t.NumGroupsX() {
		acc := float32(0)
		for u := li; u < nb*4; u += matVecBlock {
			b, p := u/4, u%4
			o := (r*nb + b) * 18
			// The quarter's 4 quant bytes are one word's worth at an
			// even offset: one or two loads, not four.
			q := wordAt(w, o+quantsAt+p*4)
			s := float32(0)
			for j := uint32(0); j < 4; j++ {
				v := q >> (j * 8)
				xi := b*32 + p*4 + j
				s += float32(int32(v&0xF)-8) * x[xi]
				s += float32(int32((v>>4)&0xF)-8) * x[xi+16]
			}
			acc += halfBits(halfAt(w, o)) * s
		}
		// The block's sum, by halving through part with a barrier after
		// each step (in the kernel body: the CPU and LLVM lowerings take
		// barriers there only). The next row's stores to part need no
		// barrier of their own: after the last step's, only work-item 0
		// reads part, and only its own element.
		part[li] = acc
		t.Barrier()
		for h := uint32(matVecBlock / 2); h > 0; h /= 2 {
			if li < h {
				part[li] += part[li+h]
			}
			t.Barrier()
		}
		if li == 0 {
			y[r] = part[0]
		}
	}
}

// MatVecQ4_K computes y = W x for W of rows x cols values in Q4_K
// super-blocks (w, words words), row-major, as MatVecQ8_0 does. A unit
// of work is half of a pair of sub-blocks: 16 quant bytes (four aligned
// words), whose low nibbles are 16 values of sub-block 2p and whose high
// nibbles the same 16 of sub-block 2p+1, so that the scales, mins and
// float16 conversions a unit needs are spread over 32 values; it adds
// d*sc*sum(q*x) - dmin*m*sum(x) for each of the two sub-blocks.
//
//xpu:kernel block=128 len(y)=rows len(x)=cols len(w)=words
func MatVecQ4_K(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	part := xpu.Shared[float32](t, matVecBlock)
	li := t.LocalIndex()
	nb := cols / 256
	for r := t.GroupX(); r < rows; r += t.NumGroupsX() {
		acc := float32(0)
		for u := li; u < nb*8; u += matVecBlock {
			b, p, hf := u/8, (u/2)%4, u%2
			o := (r*nb + b) * 144
			s0, s1, x0, x1 := float32(0), float32(0), float32(0), float32(0)
			for k := uint32(0); k < 4; k++ {
				q := w[(o+q4KQuantsAt+p*32+hf*16+k*4)>>2]
				xi := b*256 + p*64 + hf*16 + k*4
				for e := uint32(0); e < 4; e++ {
					v := q >> (e * 8)
					xa, xb := x[xi+e], x[xi+e+32]
					s0 += float32(v&0xF) * xa
					x0 += xa
					s1 += float32((v>>4)&0xF) * xb
					x1 += xb
				}
			}
			d, dmin := halfBits(halfAt(w, o)), halfBits(halfAt(w, o+2))
			d0, m0 := d*float32(scaleK4(w, o, 2*p)), dmin*float32(minK4(w, o, 2*p))
			d1, m1 := d*float32(scaleK4(w, o, 2*p+1)), dmin*float32(minK4(w, o, 2*p+1))
			acc += (d0*s0 - m0*x0) + (d1*s1 - m1*x1)
		}
		part[li] = acc
		t.Barrier()
		for h := uint32(matVecBlock / 2); h > 0; h /= 2 {
			if li < h {
				part[li] += part[li+h]
			}
			t.Barrier()
		}
		if li == 0 {
			y[r] = part[0]
		}
	}
}
