package blas

import "github.com/goxpu/xpu"

// The block of both Gemv kernels: gemvLanes work-items across, gemvRows
// down. Each kernel reduces its partial sums in shared memory by halves,
// so both are powers of two.
const (
	gemvLanes = 32
	gemvRows  = 8
)

// GemvN computes y = alpha*A*x + beta*y for row-major A (m x n, rows lda
// apart), x of n and y of m elements, stored incX and incY apart. A block
// computes gemvRows elements of y at a time, each by a row of gemvLanes
// work-items that walk its row of A together (neighbouring work-items
// reading neighbouring elements) and add their partial sums in shared
// memory; the blocks step over y by the grid. When beta is 0, y is not
// read; Sgemv passes n of 0 when alpha is 0, so that neither A nor x is.
//
// The lengths declared are those every valid call needs (lda is at least
// n); Sgemv checks the exact rules, (m-1)*lda+n for A and
// (len-1)*|inc|+1 for a vector.
//
//xpu:kernel block=32,8 len(y)=m len(A)=m*n len(x)=n
func GemvN(t xpu.Thread, y, A, x []float32, m, n, lda uint32, incX, incY int32, alpha, beta float32) {
	part := xpu.Shared[float32](t, gemvLanes*gemvRows) // part[ty*gemvLanes+tx]
	tx, ty := t.LocalX(), t.LocalY()
	for r0 := t.GroupX() * gemvRows; r0 < m; r0 += t.NumGroupsX() * gemvRows {
		row := r0 + ty
		s := float32(0)
		if row < m {
			for j := tx; j < n; j += gemvLanes {
				s += A[row*lda+j] * x[at(j, n, incX)]
			}
		}
		part[ty*gemvLanes+tx] = s
		t.Barrier()
		for w := uint32(gemvLanes / 2); w > 0; w /= 2 {
			if tx < w {
				part[ty*gemvLanes+tx] += part[ty*gemvLanes+tx+w]
			}
			t.Barrier()
		}
		if tx == 0 && row < m {
			v := alpha * part[ty*gemvLanes]
			if beta != 0 {
				v += beta * y[at(row, m, incY)]
			}
			y[at(row, m, incY)] = v
		}
		t.Barrier() // the next rows' partial sums overwrite these
	}
}

// GemvT computes y = alpha*Aᵀ*x + beta*y for row-major A (m x n, rows
// lda apart), x of m and y of n elements, stored incX and incY apart. A
// block computes gemvLanes elements of y at a time, one column of A per
// work-item across, so that neighbouring work-items read neighbouring
// elements of each row; the gemvRows work-items down a column take every
// gemvRows-th row and add their partial sums in shared memory. When beta
// is 0, y is not read; Sgemv passes m of 0 when alpha is 0, so that
// neither A nor x is.
//
//xpu:kernel block=32,8 len(y)=n len(A)=m*n len(x)=m
func GemvT(t xpu.Thread, y, A, x []float32, m, n, lda uint32, incX, incY int32, alpha, beta float32) {
	part := xpu.Shared[float32](t, gemvLanes*gemvRows) // part[ty*gemvLanes+tx]
	tx, ty := t.LocalX(), t.LocalY()
	for c0 := t.GroupX() * gemvLanes; c0 < n; c0 += t.NumGroupsX() * gemvLanes {
		col := c0 + tx
		s := float32(0)
		if col < n {
			for i := ty; i < m; i += gemvRows {
				s += A[i*lda+col] * x[at(i, m, incX)]
			}
		}
		part[ty*gemvLanes+tx] = s
		t.Barrier()
		for w := uint32(gemvRows / 2); w > 0; w /= 2 {
			if ty < w {
				part[ty*gemvLanes+tx] += part[(ty+w)*gemvLanes+tx]
			}
			t.Barrier()
		}
		if ty == 0 && col < n {
			v := alpha * part[tx]
			if beta != 0 {
				v += beta * y[at(col, n, incY)]
			}
			y[at(col, n, incY)] = v
		}
		t.Barrier() // the next columns' partial sums overwrite these
	}
}
