// Package kernels holds the kernels the benchmarks run beside those of
// the conformance suite: saxpy, a sum reduction and a register-tiled
// SGEMM (Gemm), written in the kernel language.
// xpu_gen.go is their generated code (xpu gen), launched through its
// launchers as any user's kernels. Its tests check each kernel on every
// device present against the reference runner.
package kernels

//go:generate go run github.com/goxpu/xpu/cmd/xpu gen

import "github.com/goxpu/xpu"

// Saxpy computes y = a*x + y. Its buffers hold at least n elements.
//
//xpu:kernel block=256 len(y)=n len(x)=n
func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}

// Copy copies x into y: the device's memory bandwidth, as a kernel
// reaches it, beside the driver's own copy.
//
//xpu:kernel block=256 len(y)=n len(x)=n
func Copy(t xpu.Thread, y, x []float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = x[i]
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

// Gemm computes c = a*b for n x n row-major matrices (n a multiple of 64).
// A block of 16x16 work-items computes a 64x64 tile of c, each work-item a
// 4x4 micro-tile in a private array (rows ty+16*i, columns tx+16*j), from
// 64x16 tiles of a and 16x64 tiles of b in shared memory, staged 16
// columns of a (rows of b) at a time between barriers.
//
//xpu:kernel block=16,16
func Gemm(t xpu.Thread, c, a, b []float32, n uint32) {
	as := xpu.Shared[float32](t, 64*16) // as[r*16+k] = a[row0+r, k0+k]
	bs := xpu.Shared[float32](t, 16*64) // bs[k*64+q] = b[k0+k, col0+q]
	tx, ty := t.LocalX(), t.LocalY()
	row0, col0 := t.GroupY()*64, t.GroupX()*64
	var acc [16]float32
	for k0 := uint32(0); k0 < n; k0 += 16 {
		for i := uint32(0); i < 4; i++ {
			as[(ty+16*i)*16+tx] = a[(row0+ty+16*i)*n+k0+tx]
			bs[ty*64+tx+16*i] = b[(k0+ty)*n+col0+tx+16*i]
		}
		t.Barrier()
		for k := uint32(0); k < 16; k++ {
			for i := uint32(0); i < 4; i++ {
				for j := uint32(0); j < 4; j++ {
					acc[i*4+j] += as[(ty+16*i)*16+k] * bs[k*64+tx+16*j]
				}
			}
		}
		t.Barrier()
	}
	for i := uint32(0); i < 4; i++ {
		for j := uint32(0); j < 4; j++ {
			c[(row0+ty+16*i)*n+col0+tx+16*j] = acc[i*4+j]
		}
	}
}
