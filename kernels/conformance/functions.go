package conformance

import "github.com/goxpu/xpu"

// The kernels of this file reach barriers through device functions: a
// function that stages a tile in shared memory between two barriers and
// returns early (under a uniform condition) before them, and ones in a
// loop's condition and post statement.

// stageBlock is the block of StagedSums.
const stageBlock = 64

// tileSum stages tile base of in, scaled by k, into s and returns the
// work-item's element of it plus its right neighbour's; k == 0 returns
// -1 before any barrier.
func tileSum(t xpu.Thread, s []float32, in []float32, base, k, n uint32) float32 {
	if k == 0 {
		return -1
	}
	l := t.LocalX()
	var v float32
	if i := base + l; i < n {
		v = in[i]
	}
	t.Barrier() // the block has read the last tile
	s[l] = v * float32(k)
	t.Barrier()
	return s[l] + s[(l+1)%stageBlock]
}

// more waits for the block and reports whether tile j is one of tiles.
func more(t xpu.Thread, j, tiles uint32) bool {
	t.Barrier()
	return j < tiles
}

// step waits for the block and returns the next tile.
func step(t xpu.Thread, j uint32) uint32 {
	t.Barrier()
	return j + 1
}

// StagedSums sums tileSum over each block's tiles, with barriers in the
// loop's condition and post statement too; the scale k varies with the
// group, so some groups take tileSum's early return.
//
//xpu:kernel block=64
func StagedSums(t xpu.Thread, out, in []float32, tiles, k, n uint32) {
	s := xpu.Shared[float32](t, stageBlock)
	scale := (k + t.GroupX()) % 3
	var acc float32
	for j := uint32(0); more(t, j, tiles); j = step(t, j) {
		acc += tileSum(t, s, in, (t.GroupX()*tiles+j)*stageBlock, scale, n)
	}
	out[t.GlobalX()] = acc
}
