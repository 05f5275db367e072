package quant

import "github.com/goxpu/xpu"

// The block of the input-major mat-vec kernels: imRows rows along X, one
// work-item each, times imPhases phases of the columns along Y.
const (
	imRows   = 32
	imPhases = 8
)

// MatVecInputMajorQ8_0 computes y = W x for W of rows x cols values in
// Q8_0 blocks (w, words words) in input-major order (package tensor's
// BlockedInputMajor): block (r, j) at j*rows + r.
//
// The row-major kernel (MatVecQ8_0) gives a row a block of work-items,
// because there a row's blocks are what lie side by side: neighbouring
// work-items read neighbouring bytes only when they share a row, and the
// block must then add its work-items' sums by a shared-memory halving of
// seven steps per row. Input-major order puts side by side the blocks of
// one column slice for neighbouring rows instead, so here a work-item
// owns a row: the imRows work-items along X, a wave of 32 (or half of
// one of 64), take consecutive rows and read consecutive blocks of the
// same column slice, each a whole block, and all read the same 32
// values of x (one address, a broadcast). A row alone would give a 4096-row matrix only 4096
// work-items, too few to fill a large device, so the block adds imPhases
// work-items per row along Y, phase p walking the column blocks p,
// p+imPhases, ...; the phases' sums meet in shared memory once per row,
// one addition of imPhases terms rather than a halving tree. Blocks
// stride by the grid over rows, so any number fits a bounded grid.
//
//xpu:kernel block=32,8 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorQ8_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	part := xpu.Shared[float32](t, imRows*imPhases)
	lx, ly := t.LocalX(), t.LocalY()
	nb := cols / 32
	for r0 := t.GroupX() * imRows; r0 < rows; r0 += t.NumGroupsX() * imRows {
		r := r0 + lx
		acc := float32(0)
		if r < rows {
			for b := ly; b < nb; b += imPhases {
				acc += blockDotQ8_0(w, (b*rows+r)*34, x, b*32)
			}
		}
		// The phases' sums, added by phase 0's work-item in phase order
		// (in the kernel body: the CPU and LLVM lowerings take barriers
		// there only); the second barrier keeps the next rows' stores to
		// part from overtaking the reads.
		part[ly*imRows+lx] = acc
		t.Barrier()
		if ly == 0 && r < rows {
			s := part[lx]
			for p := uint32(1); p < imPhases; p++ {
				s += part[p*imRows+lx]
			}
			y[r] = s
		}
		t.Barrier()
	}
}

// MatVecInputMajorQ4_0 computes y = W x for W of rows x cols values in
// Q4_0 blocks (w, words words) in input-major order, as
// MatVecInputMajorQ8_0 does: a block's quant byte j holds values j (low
// nibble) and j+16 (high).
//
//xpu:kernel block=32,8 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorQ4_0(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	part := xpu.Shared[float32](t, imRows*imPhases)
	lx, ly := t.LocalX(), t.LocalY()
	nb := cols / 32
	for r0 := t.GroupX() * imRows; r0 < rows; r0 += t.NumGroupsX() * imRows {
		r := r0 + lx
		acc := float32(0)
		if r < rows {
			for b := ly; b < nb; b += imPhases {
				acc += blockDotQ4_0(w, (b*rows+r)*18, x, b*32)
			}
		}
		// The phases' sums, added by phase 0's work-item in phase order
		// (in the kernel body: the CPU and LLVM lowerings take barriers
		// there only); the second barrier keeps the next rows' stores to
		// part from overtaking the reads.
		part[ly*imRows+lx] = acc
		t.Barrier()
		if ly == 0 && r < rows {
			s := part[lx]
			for p := uint32(1); p < imPhases; p++ {
				s += part[p*imRows+lx]
			}
			y[r] = s
		}
		t.Barrier()
	}
}

// MatVecInputMajorQ4_K computes y = W x for W of rows x cols values in
// Q4_K super-blocks (w, words words) in input-major order, as
// MatVecInputMajorQ8_0 does, but a phase's unit of work is a quarter of
// a super-block rather than a whole one (a pair of sub-blocks: 32 quant
// bytes, eight aligned words, whose low nibbles are sub-block 2p and
// high nibbles sub-block 2p+1), so that a row of one super-block still
// spreads over four phases. It adds d*sc*sum(q*x) - dmin*m*sum(x) for
// each sub-block, as MatVecQ4_K does.
//
//xpu:kernel block=32,8 len(y)=rows len(x)=cols len(w)=words
func MatVecInputMajorQ4_K(t xpu.Thread, y, x []float32, w []uint32, rows, cols, words uint32) {
	part := xpu.Shared[float32](t, imRows*imPhases)
	lx, ly := t.LocalX(), t.LocalY()
	nb := cols / 256
	for r0 := t.GroupX() * imRows; r0 < rows; r0 += t.NumGroupsX() * imRows {
		r := r0 + lx
		acc := float32(0)
		if r < rows {
			for u := ly; u < nb*4; u += imPhases {
				b, p := u/4, u%4
				acc += pairDotQ4_K(w, (b*rows+r)*144, p, x, b*256)
			}
		}
		// The phases' sums, added by phase 0's work-item in phase order
		// (in the kernel body: the CPU and LLVM lowerings take barriers
		// there only); the second barrier keeps the next rows' stores to
		// part from overtaking the reads.
		part[ly*imRows+lx] = acc
		t.Barrier()
		if ly == 0 && r < rows {
			s := part[lx]
			for p := uint32(1); p < imPhases; p++ {
				s += part[p*imRows+lx]
			}
			y[r] = s
		}
		t.Barrier()
	}
}

// blockDotQ8_0 returns the dot product of the Q8_0 block at byte o of w
// with x[xi:xi+32]: d times the sum of its quants times x, in the quants'
// order.
func blockDotQ8_0(w []uint32, o uint32, x []float32, xi uint32) float32 {
	// The block's 34 bytes at an even offset lie in nine words whichever
	// half it starts on: nine loads, the same for every work-item, and
	// shifts by sh (0 or 16) in place of wordAt's branch, which
	// neighbouring blocks would take both ways.
	var v [9]uint32
	for k := uint32(0); k < 9; k++ {
		v[k] = w[o>>2+k]
	}
	sh := (o & 2) * 8
	s := float32(0)
	for k := uint32(0); k < 8; k++ {
		q := v[k]>>16>>sh | v[k+1]<<(16-sh)
		j := xi + k*4
		s += float32(int32(q<<24)>>24) * x[j]
		s += float32(int32(q<<16)>>24) * x[j+1]
		s += float32(int32(q<<8)>>24) * x[j+2]
		s += float32(int32(q)>>24) * x[j+3]
	}
	return halfBits((v[0]>>sh)&0xFFFF) * s
}

// blockDotQ4_0 returns the dot product of the Q4_0 block at byte o of w
// with x[xi:xi+32], as blockDotQ8_0 does: quant byte j holds values j
// (low nibble) and j+16 (high), each less 8.
func blockDotQ4_0(w []uint32, o uint32, x []float32, xi uint32) float32 {
	// The block's 18 bytes lie in five words (see blockDotQ8_0).
	var v [5]uint32
	for k := uint32(0); k < 5; k++ {
		v[k] = w[o>>2+k]
	}
	sh := (o & 2) * 8
	s := float32(0)
	for k := uint32(0); k < 4; k++ {
		q := v[k]>>16>>sh | v[k+1]<<(16-sh)
		for j := uint32(0); j < 4; j++ {
			v := q >> (j * 8)
			i := xi + k*4 + j
			s += float32(int32(v&0xF)-8) * x[i]
			s += float32(int32((v>>4)&0xF)-8) * x[i+16]
		}
	}
	return halfBits((v[0]>>sh)&0xFFFF) * s
}

// pairDotQ4_K returns the dot product of sub-blocks 2p and 2p+1 of the
// Q4_K super-block at byte o of w (32 quant bytes, eight aligned words,
// whose low nibbles are sub-block 2p and high nibbles sub-block 2p+1)
// with x[xi+64p:xi+64p+64]: d*sc*sum(q*x) - dmin*m*sum(x) for each, as
// MatVecQ4_K adds them.
func pairDotQ4_K(w []uint32, o, p uint32, x []float32, xi uint32) float32 {
	s0, s1, x0, x1 := float32(0), float32(0), float32(0), float32(0)
	for k := uint32(0); k < 8; k++ {
		q := w[(o+q4KQuantsAt+p*32+k*4)>>2]
		i := xi + p*64 + k*4
		for e := uint32(0); e < 4; e++ {
			v := q >> (e * 8)
			xa, xb := x[i+e], x[i+e+32]
			s0 += float32(v&0xF) * xa
			x0 += xa
			s1 += float32((v>>4)&0xF) * xb
			x1 += xb
		}
	}
	return pairScaleQ4_K(w, o, p, s0, s1, x0, x1)
}

// pairScaleQ4_K returns d*sc*s0 - dmin*m*x0 + (the same of s1, x1) for
// sub-blocks 2p and 2p+1 of the Q4_K super-block at byte o of w, s the
// sums of their quants times x and x the sums of x.
func pairScaleQ4_K(w []uint32, o, p uint32, s0, s1, x0, x1 float32) float32 {
	d, dmin := halfBits(halfAt(w, o)), halfBits(halfAt(w, o+2))
	d0, m0 := d*float32(scaleK4(w, o, 2*p)), dmin*float32(minK4(w, o, 2*p))
	d1, m1 := d*float32(scaleK4(w, o, 2*p+1)), dmin*float32(minK4(w, o, 2*p+1))
	return (d0*s0 - m0*x0) + (d1*s1 - m1*x1)
}
