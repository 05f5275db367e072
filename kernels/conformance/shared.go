package conformance

import "github.com/goxpu/xpu"

// Shared-memory kernels: workgroup arrays with barriers, in straight-line
// code and inside loops with uniform bounds.

// tile is the side of the square tiles of Transpose and Sgemm.
const tile = 16

// Transpose writes the transpose of the rows-by-cols matrix in into out
// (cols-by-rows), through a shared tile padded against bank conflicts.
//
//xpu:kernel block=16,16
func Transpose(t xpu.Thread, out, in []float32, rows, cols uint32) {
	s := xpu.Shared[float32](t, tile*(tile+1))
	lx, ly := t.LocalX(), t.LocalY()
	x := t.GroupX()*tile + lx
	y := t.GroupY()*tile + ly
	if x < cols && y < rows {
		s[ly*(tile+1)+lx] = in[y*cols+x]
	}
	t.Barrier()
	ox := t.GroupY()*tile + lx
	oy := t.GroupX()*tile + ly
	if ox < rows && oy < cols {
		out[oy*rows+ox] = s[lx*(tile+1)+ly]
	}
}

// reduceBlock is the block size of BlockReduce and Scan.
const reduceBlock = 128

// BlockReduce sums each block's slice of in into one partial sum per
// block, by a tree in shared memory with a barrier per level.
//
//xpu:kernel block=128
func BlockReduce(t xpu.Thread, partial []float32, in []float32, n uint32) {
	s := xpu.Shared[float32](t, reduceBlock)
	l := t.LocalX()
	i := t.GlobalX()
	var v float32
	if i < n {
		v = in[i]
	}
	s[l] = v
	t.Barrier()
	for step := t.BlockX() / 2; step > 0; step /= 2 {
		if l < step {
			s[l] = s[l] + s[l+step]
		}
		t.Barrier()
	}
	if l == 0 {
		partial[t.GroupX()] = s[0]
	}
}

// Scan computes each block's inclusive prefix sum (Hillis-Steele, with
// double buffering in shared memory).
//
//xpu:kernel block=128
func Scan(t xpu.Thread, out []int32, in []int32, n uint32) {
	a := xpu.Shared[int32](t, reduceBlock)
	b := xpu.Shared[int32](t, reduceBlock)
	l := t.LocalX()
	i := t.GlobalX()
	var v int32
	if i < n {
		v = in[i]
	}
	a[l] = v
	t.Barrier()
	for off := uint32(1); off < reduceBlock; off *= 4 {
		x := a[l]
		if l >= off {
			x += a[l-off]
		}
		b[l] = x
		t.Barrier()
		y := b[l]
		if l >= 2*off {
			y += b[l-2*off]
		}
		a[l] = y
		t.Barrier()
	}
	if i < n {
		out[i] = a[l]
	}
}

// Stencil applies a five-point stencil along a row, loading a tile with
// its halo into shared memory first.
//
//xpu:kernel block=64
func Stencil(t xpu.Thread, out, in []float32, n uint32) {
	s := xpu.Shared[float32](t, 64+4)
	l := t.LocalX()
	i := t.GlobalX()
	base := t.GroupX() * t.BlockX()
	for k := l; k < 64+4; k += 64 {
		g := int32(base+k) - 2
		var v float32
		if g >= 0 && uint32(g) < n {
			v = in[g]
		}
		s[k] = v
	}
	t.Barrier()
	if i < n {
		out[i] = 0.25*s[l] + 0.5*s[l+1] + s[l+2] + 0.5*s[l+3] + 0.25*s[l+4]
	}
}

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
