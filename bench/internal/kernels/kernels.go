// Package kernels holds the kernels the benchmarks run: saxpy, a sum
// reduction, a register-tiled SGEMM (Gemm) and the conformance suite's
// 16x16-tile one (Sgemm, which the WebGPU benchmarks put beside the same
// algorithm written by hand in WGSL), written in the kernel language.
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

// tile is the side of Sgemm's square tiles.
const tile = 16

// Sgemm computes C = alpha*A*B + beta*C for row-major A (m-by-k), B
// (k-by-n) and C (m-by-n), one element of C per work-item, with A and B
// staged through shared tiles and a barrier on each side of every step.
//
//xpu:kernel block=16,16
func Sgemm(t xpu.Thread, c, a, b []float32, m, n, k uint32, alpha, beta float32) {
	as := xpu.Shared[float32](t, tile*tile)
	bs := xpu.Shared[float32](t, tile*tile)
	lx, ly := t.LocalX(), t.LocalY()
	col := t.GroupX()*tile + lx
	row := t.GroupY()*tile + ly
	var acc float32
	for k0 := uint32(0); k0 < k; k0 += tile {
		var av, bv float32
		if row < m && k0+lx < k {
			av = a[row*k+k0+lx]
		}
		if col < n && k0+ly < k {
			bv = b[(k0+ly)*n+col]
		}
		as[ly*tile+lx] = av
		bs[ly*tile+lx] = bv
		t.Barrier()
		for kk := uint32(0); kk < tile; kk++ {
			acc += as[ly*tile+kk] * bs[kk*tile+lx]
		}
		t.Barrier()
	}
	if row < m && col < n {
		c[row*n+col] = alpha*acc + beta*c[row*n+col]
	}
}
