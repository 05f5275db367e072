package matmul

import "github.com/goxpu/xpu"

// TiledWave computes what [Tiled] does, with the same arguments, block
// and launch grid ([Groups] of its Tile), sharing op(A) across each wave
// instead of through shared memory: only op(B) is staged. A work-item's
// wave holds the work-items of its row ty in runs of G = min(W, BN/TN)
// lanes (W the member's declared wave width, c.W); for each G-deep slice
// of the staged depth, lane L of a run loads its TM elements of op(A) at
// depth L straight from memory, and at depth kk every lane of the run
// takes them from lane kk with a shuffle, where Tiled reads a shared
// tile. The verbs run at the declared width on every device (natively
// where the device's subgroups have it, emulated elsewhere), so a member
// is correct at every subgroup size; it is fast only where they are
// native.
//
// The requires clauses add to Tiled's that a run of G lanes lies in one
// row (W divides the row or the row divides W) and that G divides BK.
//
//xpu:kernel block=c.BN/c.TN,c.BM/c.TM wave=c.W len(C)=m*n len(A)=m*k len(B)=k*n
//xpu:instance Wave64x64W8 Tile{BM: 64, BN: 64, BK: 16, TM: 4, TN: 4, W: 8}
//xpu:instance Wave64x128W8 Tile{BM: 64, BN: 128, BK: 16, TM: 4, TN: 8, W: 8}
//xpu:requires c.TM > 0 && c.TN > 0 && c.BK > 0 && c.W > 0
//xpu:requires c.TM <= maxMicro && c.TN <= maxMicro
//xpu:requires c.BM%c.TM == 0 && c.BN%c.TN == 0
//xpu:requires (c.BN/c.TN)*(c.BM/c.TM) <= maxBlock
//xpu:requires (c.BN/c.TN)%c.W == 0 && c.BK%c.W == 0 || c.W%(c.BN/c.TN) == 0 && c.BK%(c.BN/c.TN) == 0
//xpu:requires (c.BK*c.BN)%((c.BN/c.TN)*(c.BM/c.TM)) == 0
//xpu:requires c.BN*c.BK*4 <= maxShared
func TiledWave(t xpu.Thread, c Tile, C, A, B []float32, transA, transB, m, n, k, lda, ldb, ldc uint32, alpha, beta float32) {
	bs := xpu.Shared[float32](t, int(c.BK*c.BN)) // bs[r*BN+q] = op(B)[k0+r, col0+q]
	wx, wy := c.BN/c.TN, c.BM/c.TM               // the block
	g := xpu.Min(c.W, wx)                        // the lanes of a run
	tx, ty, li := t.LocalX(), t.LocalY(), t.LocalIndex()
	run := t.LaneIndex() / g * g // the run's first lane
	lane := tx % g               // the lane's place in its run
	row0, col0 := t.GroupY()*c.BM, t.GroupX()*c.BN
	var acc [maxMicro * maxMicro]float32 // acc[i*TN+j]: row ty+i*wy, column tx+j*wx
	var own, a, b [maxMicro]float32      // own[i]: op(A)[row ty+i*wy, the lane's depth]
	for k0 := uint32(0); k0 < k; k0 += c.BK {
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
		for k1 := uint32(0); k1 < c.BK; k1 += g {
			kq := k0 + k1 + lane
			for i := uint32(0); i < c.TM; i++ {
				r := row0 + ty + i*wy
				v := float32(0)
				if r < m && kq < k {
					if transA != 0 {
						v = A[kq*lda+r]
					} else {
						v = A[r*lda+kq]
					}
				}
				own[i] = v
			}
			for kk := uint32(0); kk < g; kk++ {
				for i := uint32(0); i < c.TM; i++ {
					v := xpu.WaveShuffle(t, own[i], run+kk)
					a[i] = v
				}
				for j := uint32(0); j < c.TN; j++ {
					b[j] = bs[(k1+kk)*c.BN+tx+j*wx]
				}
				for i := uint32(0); i < c.TM; i++ {
					for j := uint32(0); j < c.TN; j++ {
						acc[i*c.TN+j] = xpu.Fma(a[i], b[j], acc[i*c.TN+j])
					}
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
