package quant

import "github.com/goxpu/xpu"

// dequantBlock is the block of the dequantize kernels: one work-item per
// value, so that neighbouring work-items write neighbouring floats.
const dequantBlock = 256

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
