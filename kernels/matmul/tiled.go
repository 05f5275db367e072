package matmul

import "github.com/goxpu/xpu"

// maxMicro bounds each side of a micro-tile: a work-item holds a column
// of TM values of A and a row of TN values of B in private arrays of
// maxMicro elements, and its TM*TN sums in one of maxMicro*maxMicro.
// Go array sizes are constants, and comptime fields are not.
const maxMicro = 8

// maxShared bounds a member's shared memory in bytes: 16 KiB, the least
// a WebGPU device offers, so that every member runs on every device.
//
//lint:ignore U1000 read by the //xpu:requires clauses of Tiled
const maxShared = 16384

// maxBlock bounds a member's block in work-items: 256, the least a
// WebGPU device offers.
//
//lint:ignore U1000 read by the //xpu:requires clauses of Tiled
const maxBlock = 256

// Tile is the comptime configuration of a member of Tiled.
type Tile struct {
	BM, BN uint32 // the block tile: rows and columns of C a block computes
	BK     uint32 // the depth staged in shared memory between barriers
	TM, TN uint32 // the micro-tile: rows and columns of C a work-item computes
	W      uint32 // TiledWave's declared wave width; 0 in Tiled's members
}

// Groups returns the launch grid of the member of configuration c for a
// product with m rows and n columns: one block per BM x BN tile of C,
// the last ones partial.
func Groups(c Tile, m, n uint32) xpu.Dim3 {
	return xpu.Dim3{X: xpu.GroupsFor(n, c.BN), Y: xpu.GroupsFor(m, c.BM), Z: 1}
}

// Tiled computes C = alpha*op(A)*op(B) + beta*C, the BLAS SGEMM, for
// row-major C (m x n, rows ldc apart), op(A) (m x k) and op(B) (k x n),
// launched over [Groups] of its Tile. op(A) is A, m x k with rows lda
// apart, when transA is 0, and the transpose of A, k x m with rows lda
// apart, otherwise; op(B) likewise by transB and ldb. When beta is 0, C
// is not read, so that NaN or garbage in it is overwritten, as BLAS
// specifies.
//
// Block (x, y) computes the BM x BN tile of C at rows y*BM, columns
// x*BN; its work-item (tx, ty) computes the rows ty+i*(BM/TM) and columns
// tx+j*(BN/TN), i < TM, j < TN, so that neighbouring work-items read
// neighbouring columns of the shared tile of B. The block stages BM x BK
// of op(A) and BK x BN of op(B) at a time, each work-item loading an
// equal share, neighbouring work-items neighbouring elements of memory
// whichever the layout; elements past the matrices' edges are staged as
// zeros, and only elements of C inside it are stored. Indices are uint32:
// each matrix's last element lies below 2^32.
//
// The transposes are uniform arguments, not comptime members: they change
// only how the tiles are staged, a branch every work-item of the block
// takes alike, around the staging loops and outside the inner loop over
// the shared tiles where the time goes; as comptime fields they would make the family's 8
// members 32, with four times the generated code and native artifacts,
// and make the tuner measure tiles four times over for the same choice.
//
// The lengths declared below are those every layout needs (ld is at least
// the row, so (rows-1)*ld+cols is at least rows*cols); the exact rule,
// which depends on ld and the transposes, is a sum the directive cannot
// state, and [Sgemm] checks it.
//
// The requires clauses admit a member whose micro-tile fits the private
// arrays (each side at most maxMicro, so TM*TN sums at most
// maxMicro*maxMicro), whose block tile is whole micro-tiles, whose block
// and shared tiles fit every WebGPU device (maxBlock, maxShared), and
// whose tiles split into equal shares of its work-items.
//
//xpu:kernel block=c.BN/c.TN,c.BM/c.TM len(C)=m*n len(A)=m*k len(B)=k*n
//xpu:instance Tile8x8 Tile{BM: 8, BN: 8, BK: 8, TM: 1, TN: 1}
//xpu:instance Tile16x16 Tile{BM: 16, BN: 16, BK: 16, TM: 1, TN: 1}
//xpu:instance Tile32x32 Tile{BM: 32, BN: 32, BK: 16, TM: 2, TN: 2}
//xpu:instance Tile64x64 Tile{BM: 64, BN: 64, BK: 16, TM: 4, TN: 4}
//xpu:instance Tile64x32 Tile{BM: 64, BN: 32, BK: 16, TM: 4, TN: 2}
//xpu:instance Tile32x64 Tile{BM: 32, BN: 64, BK: 16, TM: 2, TN: 4}
//xpu:instance Tile128x64 Tile{BM: 128, BN: 64, BK: 16, TM: 8, TN: 4}
//xpu:instance Tile64x128 Tile{BM: 64, BN: 128, BK: 16, TM: 4, TN: 8}
//xpu:requires c.TM > 0 && c.TN > 0 && c.BK > 0
//xpu:requires c.TM <= maxMicro && c.TN <= maxMicro
//xpu:requires c.BM%c.TM == 0 && c.BN%c.TN == 0
//xpu:requires (c.BN/c.TN)*(c.BM/c.TM) <= maxBlock
//xpu:requires (c.BM*c.BK)%((c.BN/c.TN)*(c.BM/c.TM)) == 0
//xpu:requires (c.BK*c.BN)%((c.BN/c.TN)*(c.BM/c.TM)) == 0
//xpu:requires (c.BM+c.BN)*c.BK*4 <= maxShared
func Tiled(t xpu.Thread, c Tile, C, A, B []float32, transA, transB, m, n, k, lda, ldb, ldc uint32, alpha, beta float32) {
	as := xpu.Shared[float32](t, int(c.BM*c.BK)) // as[r*BK+q] = op(A)[row0+r, k0+q]
	bs := xpu.Shared[float32](t, int(c.BK*c.BN)) // bs[r*BN+q] = op(B)[k0+r, col0+q]
	wx, wy := c.BN/c.TN, c.BM/c.TM               // the block
	tx, ty, li := t.LocalX(), t.LocalY(), t.LocalIndex()
	row0, col0 := t.GroupY()*c.BM, t.GroupX()*c.BN
	var acc [maxMicro * maxMicro]float32 // acc[i*TN+j]: row ty+i*wy, column tx+j*wx
	var a, b [maxMicro]float32
	for k0 := uint32(0); k0 < k; k0 += c.BK {
		// Each work-item stages an equal share of each tile, its count
		// spelled in comptime fields alone so that it folds to a constant.
		// Share element e walks the tile along the stored rows, so that
		// neighbouring work-items load neighbouring addresses; untransposed,
		// it is also the shared index, which keeps the store contiguous
		// where work-items are a vector's lanes (the CPU's host tier).
		if transA != 0 {
			for s := uint32(0); s < c.BM*c.BK/(c.BN/c.TN*(c.BM/c.TM)); s++ {
				e := li + s*wx*wy
				r, q := e%c.BM, e/c.BM
				v := float32(0)
				if row0+r < m && k0+q < k {
					v = A[(k0+q)*lda+row0+r]
				}
				as[r*c.BK+q] = v
			}
		} else {
			for s := uint32(0); s < c.BM*c.BK/(c.BN/c.TN*(c.BM/c.TM)); s++ {
				e := li + s*wx*wy
				r, q := e/c.BK, e%c.BK
				v := float32(0)
				if row0+r < m && k0+q < k {
					v = A[(row0+r)*lda+k0+q]
				}
				as[e] = v
			}
		}
		if transB != 0 {
			for s := uint32(0); s < c.BK*c.BN/(c.BN/c.TN*(c.BM/c.TM)); s++ {
				e := li + s*wx*wy
				r, q := e%c.BK, e/c.BK
				v := float32(0)
				if k0+r < k && col0+q < n {
					v = B[(col0+q)*ldb+k0+r]
				}
				bs[r*c.BN+q] = v
			}
		} else {
			for s := uint32(0); s < c.BK*c.BN/(c.BN/c.TN*(c.BM/c.TM)); s++ {
				e := li + s*wx*wy
				r, q := e/c.BN, e%c.BN
				v := float32(0)
				if k0+r < k && col0+q < n {
					v = B[(k0+r)*ldb+col0+q]
				}
				bs[e] = v
			}
		}
		t.Barrier()
		for kk := uint32(0); kk < c.BK; kk++ {
			for i := uint32(0); i < c.TM; i++ {
				a[i] = as[(ty+i*wy)*c.BK+kk]
			}
			for j := uint32(0); j < c.TN; j++ {
				b[j] = bs[kk*c.BN+tx+j*wx]
			}
			for i := uint32(0); i < c.TM; i++ {
				for j := uint32(0); j < c.TN; j++ {
					acc[i*c.TN+j] = xpu.Fma(a[i], b[j], acc[i*c.TN+j])
				}
			}
		}
		t.Barrier()
	}
	for i := uint32(0); i < c.TM; i++ {
		for j := uint32(0); j < c.TN; j++ {
			if r, q := row0+ty+i*wy, col0+tx+j*wx; r < m && q < n {
				v := alpha * acc[i*c.TN+j]
				if beta != 0 {
					v += beta * C[r*ldc+q]
				}
				C[r*ldc+q] = v
			}
		}
	}
}
