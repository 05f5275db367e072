package matmul

import "github.com/goxpu/xpu"

// TiledVec is Tiled with its shared tiles held in [4]float32 elements,
// each four consecutive columns of a row of op(A) (along k) or of op(B)
// (along n), so that a work-item reads four elements of a tile in one
// access. WGSL makes a [4]float32 a vec4, which a device loads at once
// where it loads an array's elements one by one (llvmpipe at a
// lane-varying address: a sequence of instructions per element). It
// computes what Tiled computes, for every m, n, k and layout, launched
// over [Groups] of its Tile.
//
// Work-item (tx, ty) computes the TM consecutive rows row0+ty*TM+i and,
// of every group of four columns, the groups tx+j*wx (j < TN/4): the
// columns col0+4*(tx+j*wx)+l, l < 4, so that neighbouring work-items read
// neighbouring elements of the B tile. Each step of the inner loop takes
// four rows of the B tile and, per row of the micro-tile, one element of
// the A tile: its next four depths.
//
// The staging loads four consecutive elements of op(A) or op(B) a tile
// element, zeros past the matrices' edges, the work-items of a block
// neighbouring elements of memory whichever the layout; the layout and
// the edges choose addresses and values, never which loads run.
//
//xpu:kernel block=c.BN/c.TN,c.BM/c.TM len(C)=m*n len(A)=m*k len(B)=k*n
//xpu:instance Vec64x64 Tile{BM: 64, BN: 64, BK: 16, TM: 4, TN: 4}
//xpu:instance Vec128x64 Tile{BM: 128, BN: 64, BK: 16, TM: 8, TN: 4}
//xpu:instance Vec64x128 Tile{BM: 64, BN: 128, BK: 16, TM: 4, TN: 8}
//xpu:instance Vec128x128 Tile{BM: 128, BN: 128, BK: 16, TM: 8, TN: 8}
//xpu:requires c.TM > 0 && c.TN > 0 && c.BK > 0
//xpu:requires c.TM <= maxMicro && c.TN <= maxMicro
//xpu:requires c.TN%4 == 0 && c.BK%4 == 0
//xpu:requires c.BM%c.TM == 0 && c.BN%c.TN == 0
//xpu:requires (c.BN/c.TN)*(c.BM/c.TM) <= maxBlock
//xpu:requires (c.BM*c.BK/4)%((c.BN/c.TN)*(c.BM/c.TM)) == 0
//xpu:requires (c.BK*c.BN/4)%((c.BN/c.TN)*(c.BM/c.TM)) == 0
//xpu:requires (c.BM+c.BN)*c.BK*4 <= maxShared
func TiledVec(t xpu.Thread, c Tile, C, A, B []float32, transA, transB, m, n, k, lda, ldb, ldc uint32, alpha, beta float32) {
	as := xpu.Shared[[4]float32](t, int(c.BM*c.BK/4)) // as[r*BK/4+q][l] = op(A)[row0+r, k0+4q+l]
	bs := xpu.Shared[[4]float32](t, int(c.BK*c.BN/4)) // bs[r*BN/4+q][l] = op(B)[k0+r, col0+4q+l]
	wx, wy := c.BN/c.TN, c.BM/c.TM                    // the block
	tx, ty, li := t.LocalX(), t.LocalY(), t.LocalIndex()
	row0, col0 := t.GroupY()*c.BM, t.GroupX()*c.BN
	var acc [maxMicro * maxMicro]float32 // acc[i*TN+j*4+l]: row ty*TM+i, column 4*(tx+j*wx)+l
	var b [4 * maxMicro / 4][4]float32   // b[l*TN/4+j]: row 4q+l of the B tile, the column group tx+j*wx
	lastA, lastB := uint32(len(A))-1, uint32(len(B))-1
	for k0 := uint32(0); k0 < k; k0 += c.BK {
		// Each work-item stages an equal share of each tile's elements,
		// its count spelled in comptime fields alone so that it folds to
		// a constant. Share element e walks the tile so that neighbouring
		// work-items load neighbouring addresses: along the stored rows
		// of A and B. No load sits under a branch: a device that runs
		// both sides of a branch under a mask (lavapipe) pays for every
		// path, so the layout and the edges choose an address and a
		// value, not a path. An element past an edge loads the matrix's
		// last element and keeps zero.
		for s := uint32(0); s < c.BM*c.BK/4/(c.BN/c.TN*(c.BM/c.TM)); s++ {
			e := li + s*wx*wy
			r, q := e/(c.BK/4), e%(c.BK/4) // row r of the tile, its k-group q
			if transA != 0 {
				r, q = e%c.BM, e/c.BM
			}
			as[r*(c.BK/4)+q] = four(A, row0+r, k0+4*q, lda, m, k, transA, lastA)
		}
		for s := uint32(0); s < c.BK*c.BN/4/(c.BN/c.TN*(c.BM/c.TM)); s++ {
			e := li + s*wx*wy
			r, q := e/(c.BN/4), e%(c.BN/4) // row r of the tile, its column group q
			if transB != 0 {
				r, q = e%c.BK, e/c.BK
			}
			bs[r*(c.BN/4)+q] = four(B, k0+r, col0+4*q, ldb, k, n, transB, lastB)
		}
		t.Barrier()
		for q := uint32(0); q < c.BK/4; q++ {
			for l := uint32(0); l < 4; l++ {
				for j := uint32(0); j < c.TN/4; j++ {
					b[l*(c.TN/4)+j] = bs[(4*q+l)*(c.BN/4)+tx+j*wx]
				}
			}
			for i := uint32(0); i < c.TM; i++ {
				a := as[(ty*c.TM+i)*(c.BK/4)+q]
				for l := uint32(0); l < 4; l++ {
					for j := uint32(0); j < c.TN/4; j++ {
						for p := uint32(0); p < 4; p++ {
							acc[i*c.TN+j*4+p] = xpu.Fma(a[l], b[l*(c.TN/4)+j][p], acc[i*c.TN+j*4+p])
						}
					}
				}
			}
		}
		t.Barrier()
	}
	for i := uint32(0); i < c.TM; i++ {
		for j := uint32(0); j < c.TN/4; j++ {
			for p := uint32(0); p < 4; p++ {
				if r, q := row0+ty*c.TM+i, col0+4*(tx+j*wx)+p; r < m && q < n {
					v := alpha * acc[i*c.TN+j*4+p]
					if beta != 0 {
						v += beta * C[r*ldc+q]
					}
					C[r*ldc+q] = v
				}
			}
		}
	}
}

// four returns the elements (row, col+l), l < 4, of op(X), a rows x cols
// matrix stored with leading dimension ld (transposed when trans != 0),
// zeros past its edges. Each load is at an address clamped to X's last
// element, last, so that no load sits under a branch.
func four(X []float32, row, col, ld, rows, cols, trans, last uint32) [4]float32 {
	var v [4]float32
	for l := uint32(0); l < 4; l++ {
		at := row*ld + col + l
		if trans != 0 {
			at = (col+l)*ld + row
		}
		x := X[min(at, last)]
		if row >= rows || col+l >= cols {
			x = 0
		}
		v[l] = x
	}
	return v
}
