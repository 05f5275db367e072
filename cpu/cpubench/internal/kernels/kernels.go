// Package kernels holds the kernels the CPU backend's benchmarks run:
// saxpy, a sum reduction and a tiled SGEMM with shared tiles and
// barriers, written in the kernel language. xpu_gen.go is their generated
// code (xpu gen), launched through its launchers as any user's kernels.
package kernels

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen

import "github.com/goxpu/xpu"

// Saxpy computes y = a*x + y.
//
//xpu:kernel block=256
func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}

// Sum writes one partial sum of x per block: each work-item adds a run of
// per consecutive elements, and the block adds its work-items' sums by a
// tree in shared memory.
//
//xpu:kernel block=256
func Sum(t xpu.Thread, partial, x []float32, per uint32) {
	s := xpu.Shared[float32](t, 256)
	l := t.LocalIndex()
	base := t.GlobalX() * per
	var acc float32
	for j := uint32(0); j < per; j++ {
		acc = acc + x[base+j]
	}
	s[l] = acc
	t.Barrier()
	for h := uint32(128); h > 0; h >>= 1 {
		if l < h {
			s[l] = s[l] + s[l+h]
		}
		t.Barrier()
	}
	if l == 0 {
		partial[t.GroupX()] = s[0]
	}
}

// Gemm computes c = a*b for n x n row-major matrices (n a multiple of 16)
// with 16x16 tiles of a and b in shared memory.
//
//xpu:kernel block=16,16
func Gemm(t xpu.Thread, c, a, b []float32, n uint32) {
	as := xpu.Shared[float32](t, 256)
	bs := xpu.Shared[float32](t, 256)
	tx, ty := t.LocalX(), t.LocalY()
	row, col := t.GroupY()*16+ty, t.GroupX()*16+tx
	var acc float32
	for k0 := uint32(0); k0 < n; k0 += 16 {
		as[ty*16+tx] = a[row*n+k0+tx]
		bs[ty*16+tx] = b[(k0+ty)*n+col]
		t.Barrier()
		for k := uint32(0); k < 16; k++ {
			acc += as[ty*16+k] * bs[k*16+tx]
		}
		t.Barrier()
	}
	c[row*n+col] = acc
}
