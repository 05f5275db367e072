package fission

import "github.com/goxpu/xpu"

// MatMul is the shared-memory matrix product of the CUDA C++ Programming
// Guide, as first written in the kernel language: matrix descriptors are
// struct locals declared before the tile loop, and the loop takes
// sub-matrices of them, whole, on each trip.

// Matrix is the guide's matrix descriptor: a row-major matrix of a buffer,
// its rows Stride elements apart, its first element at Offset (the guide's
// pointer).
type Matrix struct{ Width, Height, Stride, Offset uint32 }

// tile is the side of the square tiles (the guide's BLOCK_SIZE).
const tile = 16

// element returns m's element at row, col of the buffer e.
func element(m Matrix, e []float32, row, col uint32) float32 {
	return e[m.Offset+row*m.Stride+col]
}

// setElement sets m's element at row, col of the buffer e.
func setElement(m Matrix, e []float32, row, col uint32, v float32) {
	e[m.Offset+row*m.Stride+col] = v
}

// subMatrix returns the tile of m at tile row row and tile column col.
func subMatrix(m Matrix, row, col uint32) Matrix {
	return Matrix{Width: tile, Height: tile, Stride: m.Stride, Offset: m.Offset + m.Stride*tile*row + tile*col}
}

// MatMul computes c = a*b for n x n matrices, n a multiple of tile.
//
//xpu:kernel block=16,16
func MatMul(t xpu.Thread, c, a, b []float32, n uint32) {
	am := Matrix{Width: n, Height: n, Stride: n}
	bm := Matrix{Width: n, Height: n, Stride: n}
	cm := Matrix{Width: n, Height: n, Stride: n}
	blockRow, blockCol := t.GroupY(), t.GroupX()
	csub := subMatrix(cm, blockRow, blockCol)
	var value float32
	row, col := t.LocalY(), t.LocalX()
	as := xpu.Shared[float32](t, tile*tile)
	bs := xpu.Shared[float32](t, tile*tile)
	for m := uint32(0); m < am.Width/tile; m++ {
		asub := subMatrix(am, blockRow, m)
		bsub := subMatrix(bm, m, blockCol)
		as[row*tile+col] = element(asub, a, row, col)
		bs[row*tile+col] = element(bsub, b, row, col)
		t.Barrier()
		for e := uint32(0); e < tile; e++ {
			value += as[row*tile+e] * bs[e*tile+col]
		}
		t.Barrier()
	}
	setElement(csub, c, row, col, value)
}
