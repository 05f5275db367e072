package wave

import "github.com/goxpu/xpu"

// The kernels of this file port CUDA's reductions as their sources spell
// them: the verbs inside device functions and expressions, barriers and
// shared memory inside a device function, verbs in conditions.

// warpReduceSum is the helper every CUDA reduction has: a sum down the
// lanes of a 32-lane wave by shuffles; lane 0 ends with the wave's sum.
func warpReduceSum(t xpu.Thread, v float32) float32 {
	for off := uint32(16); off > 0; off /= 2 {
		v += xpu.WaveShuffleDown(t, v, off)
	}
	return v
}

// blockReduceSum sums v over the block: each wave's sum goes to s, then
// the first wave sums those. Every work-item gets the block's sum from s.
func blockReduceSum(t xpu.Thread, s []float32, v float32) float32 {
	l := t.LocalX()
	v = warpReduceSum(t, v)
	if t.LaneIndex() == 0 {
		s[l/32] = v
	}
	t.Barrier()
	var w float32
	if l < reduceBlock/32 {
		w = s[l]
	}
	w = warpReduceSum(t, w)
	t.Barrier() // every wave has read s before lane 0 overwrites s[0]
	if l == 0 {
		s[0] = w
	}
	t.Barrier()
	return s[0]
}

// WarpSums writes every lane's warpReduceSum of in: lane 0 of each wave
// holds the wave's sum, the others partial sums of the shuffle tree.
//
//xpu:kernel block=96 wave=32
func WarpSums(t xpu.Thread, out []float32, in []float32, n uint32) {
	i := t.GlobalX()
	var v float32
	if i < n {
		v = in[i]
	}
	out[i] = warpReduceSum(t, v) + 0.5*warpReduceSum(t, -v)
}

// BlockSums writes each block's sum and sum of squares of in, by the
// device function with barriers called from two places.
//
//xpu:kernel block=256 wave=32
func BlockSums(t xpu.Thread, partial []float32, in []float32, n uint32) {
	s := xpu.Shared[float32](t, reduceBlock/32)
	i := t.GlobalX()
	var v float32
	if i < n {
		v = in[i]
	}
	sum := blockReduceSum(t, s, v)
	squares := blockReduceSum(t, s, v*v)
	if t.LocalX() == 0 {
		partial[2*t.GroupX()] = sum
		partial[2*t.GroupX()+1] = squares
	}
}

// WaveConditions uses verbs in an if condition, in the right operand of
// && and of ||, as an argument of a call and stored to a buffer.
//
//xpu:kernel block=80 wave=16
func WaveConditions(t xpu.Thread, out []uint32, in []uint32, n uint32) {
	g := t.GlobalX()
	x := in[g]
	var r uint32
	if xpu.WaveAny(t, x%7 == 0) {
		r |= 1
	}
	if n > 3 && xpu.WaveAll(t, x > 100) {
		r |= 2
	}
	if n < 3 || xpu.WaveMax(t, x) > 900 {
		r |= 4
	}
	if n > 1000 && xpu.WaveAll(t, x > 0) { // not evaluated: n is smaller
		r |= 8
	}
	r += min(xpu.WaveSum(t, x%5), xpu.WaveBroadcast(t, x, 3)) << 4
	out[g] = xpu.WaveShuffleXor(t, r, 1)
}

// firstAbove returns the first i below 32 with i*i above the wave's sum
// of v, or 99: its returns leave a loop and an if, after the verb.
func firstAbove(t xpu.Thread, v uint32) uint32 {
	s := xpu.WaveSum(t, v)
	for i := uint32(0); i < 32; i++ {
		if i*i > s {
			return i
		}
	}
	return 99
}

// WaveSearch writes firstAbove of in for every work-item.
//
//xpu:kernel block=64 wave=8
func WaveSearch(t xpu.Thread, out []uint32, in []uint32) {
	g := t.GlobalX()
	out[g] = firstAbove(t, in[g]) + firstAbove(t, in[g]/4)<<8
}
