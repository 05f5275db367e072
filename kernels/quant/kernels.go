package quant

import "github.com/goxpu/xpu"

// dequantBlock is the block of the dequantize kernels: one work-item per
// value, so that neighbouring work-items write neighbouring floats.
const dequantBlock = 256

// matVecBlock is the block of the mat-vec kernels: the work-items that
// share one row of W (see MatVecQ8_0).
const matVecBlock = 128

// The byte offsets within a block: the scale, then the quants.
const quantsAt = 2

// byteAt returns byte o of the little-endian bytes that w holds.
func byteAt(w []uint32, o uint32) uint32 {
	return (w[o>>2] >> ((o & 3) * 8)) & 0xFF
}

// halfAt returns the 16 bits at byte o of w, little-endian, for an even
// o: a block's size is even and its scale comes first, so a scale is
// the low or the high half of one word and never straddles two.
func halfAt(w []uint32, o uint32) uint32 {
	return (w[o>>2] >> ((o & 2) * 8)) & 0xFFFF
}

// wordAt returns the 4 bytes at byte o of w, little-endian, for an even
// o: one word where o is a multiple of 4, else the high half of one and
// the low half of the next.
func wordAt(w []uint32, o uint32) uint32 {
	i := o >> 2
	if o&2 == 0 {
		return w[i]
	}
	return (w[i] >> 16) | (w[i+1] << 16)
}

// int8At returns byte o of w as a signed value.
func int8At(w []uint32, o uint32) int32 {
	return int32(byteAt(w, o)<<24) >> 24
}

// halfBits returns the float32 value of the float16 bits h, exactly, by
// integer operations alone: the device's float16 support (where there
// is any) is not needed, and every device gives the same bits.
func halfBits(h uint32) float32 {
	sign := (h & 0x8000) << 16
	exp := (h >> 10) & 0x1F
	man := h & 0x3FF
	if exp == 0x1F { // infinity or NaN, payload kept
		return xpu.Float32FromBits(sign | 0x7F800000 | man<<13)
	}
	if exp != 0 { // normal: rebias the exponent from 15 to 127
		return xpu.Float32FromBits(sign | (exp+112)<<23 | man<<13)
	}
	if man == 0 {
		return xpu.Float32FromBits(sign)
	}
	// A subnormal, man*2^-24, is a normal float32: shift its leading one
	// up to the implicit bit (at most ten steps).
	exp = 113
	for man&0x400 == 0 {
		man = man << 1
		exp--
	}
	return xpu.Float32FromBits(sign | exp<<23 | (man&0x3FF)<<13)
}

// DequantizeQ8_0 writes the n values of the Q8_0 blocks in w (their
// bytes, little-endian, in words words) to y, one work-item per value,
// striding by the grid so that any n fits a bounded grid.
//
//xpu:kernel block=256 len(y)=n len(w)=words
func DequantizeQ8_0(t xpu.Thread, y []float32, w []uint32, n, words uint32) {
	stride := t.NumGroupsX() * dequantBlock
	for i := t.GlobalX(); i < n; i += stride {
		o := (i / 32) * 34
		d := halfBits(halfAt(w, o))
		y[i] = float32(int8At(w, o+quantsAt+i%32)) * d
	}
}

// DequantizeQ4_0 writes the n values of the Q4_0 blocks in w (their
// bytes, little-endian, in words words) to y, one work-item per value,
// striding by the grid: value j of a block is the low nibble of its
// quant byte j%16 for j < 16 and the high nibble for j >= 16.
//
//xpu:kernel block=256 len(y)=n len(w)=words
func DequantizeQ4_0(t xpu.Thread, y []float32, w []uint32, n, words uint32) {
	stride := t.NumGroupsX() * dequantBlock
	for i := t.GlobalX(); i < n; i += stride {
		o := (i / 32) * 18
		j := i % 32
		d := halfBits(halfAt(w, o))
		q := (byteAt(w, o+quantsAt+j%16) >> ((j / 16) * 4)) & 0xF
		y[i] = float32(int32(q)-8) * d
	}
}

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

// The byte offsets within a Q4_K super-block: d and dmin (one word, the
// block's size being a multiple of 4), the packed scales, the quants.
const (
	q4KScalesAt = 4
	q4KQuantsAt = 16
)

// scaleK4 returns the 6-bit scale of sub-block j of the Q4_K block at
// byte o of w (ggml's get_scale_min_k4).
func scaleK4(w []uint32, o, j uint32) uint32 {
	s := o + q4KScalesAt
	if j < 4 {
		return byteAt(w, s+j) & 63
	}
	return (byteAt(w, s+j+4) & 0xF) | ((byteAt(w, s+j-4) >> 6) << 4)
}

// minK4 returns the 6-bit min of sub-block j of the Q4_K block at byte o
// of w (ggml's get_scale_min_k4).
func minK4(w []uint32, o, j uint32) uint32 {
	s := o + q4KScalesAt
	if j < 4 {
		return byteAt(w, s+j+4) & 63
	}
	return (byteAt(w, s+j+4) >> 4) | ((byteAt(w, s+j) >> 6) << 4)
}

// DequantizeQ4_K writes the n values of the Q4_K super-blocks in w
// (their bytes, little-endian, in words words) to y, one work-item per
// value, striding by the grid: value k of a super-block lies in
// sub-block k/32, whose quants are the low (even sub-blocks) or high
// (odd) nibbles of quant bytes 32*(k/64) to 32*(k/64)+31. The products
// d*sc*q are exact, so the result is the subtraction's rounding alone,
// fused or not.
//
//xpu:kernel block=256 len(y)=n len(w)=words
func DequantizeQ4_K(t xpu.Thread, y []float32, w []uint32, n, words uint32) {
	stride := t.NumGroupsX() * dequantBlock
	for i := t.GlobalX(); i < n; i += stride {
		o := (i / 256) * 144
		k := i % 256
		j := k / 32
		d := halfBits(halfAt(w, o)) * float32(scaleK4(w, o, j))
		dm := halfBits(halfAt(w, o+2)) * float32(minK4(w, o, j))
		q := (byteAt(w, o+q4KQuantsAt+(k/64)*32+k%32) >> ((j % 2) * 4)) & 0xF
		y[i] = d*float32(q) - dm
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
