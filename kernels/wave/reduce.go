package wave

import "github.com/goxpu/xpu"

// The block reductions: one partial sum per block of in, computed with
// shared memory only (ReduceShared, the reference point) and with wave
// sums (ReduceWave at the device's width, ReduceWave32 at a declared
// width of 32 lanes). The benchmarks put them side by side.

// reduceBlock is the block of the reductions.
const reduceBlock = 256

// ReduceShared sums each block's slice of in into partial[group] by a tree
// in shared memory, a barrier per level.
//
//xpu:kernel block=256
func ReduceShared(t xpu.Thread, partial []float32, in []float32, n uint32) {
	s := xpu.Shared[float32](t, reduceBlock)
	l := t.LocalX()
	i := t.GlobalX()
	var v float32
	if i < n {
		v = in[i]
	}
	s[l] = v
	t.Barrier()
	for step := uint32(reduceBlock / 2); step > 0; step /= 2 {
		if l < step {
			s[l] = s[l] + s[l+step]
		}
		t.Barrier()
	}
	if l == 0 {
		partial[t.GroupX()] = s[0]
	}
}

// ReduceWave sums as ReduceShared does, with wave sums: each wave sums its
// lanes, lane 0 of each wave puts the wave's sum in shared memory, and
// the first wave sums those.
//
//xpu:kernel block=256
func ReduceWave(t xpu.Thread, partial []float32, in []float32, n uint32) {
	s := xpu.Shared[float32](t, reduceBlock) // a slot per wave: a wave may be one lane
	l := t.LocalX()
	i := t.GlobalX()
	var v float32
	if i < n {
		v = in[i]
	}
	w := xpu.WaveSum(t, v)
	width := t.WaveWidth()
	if t.LaneIndex() == 0 {
		s[l/width] = w
	}
	t.Barrier()
	var u float32
	if l < width {
		for j := l; j < reduceBlock/width; j += width {
			u += s[j]
		}
	}
	total := xpu.WaveSum(t, u)
	if l == 0 {
		partial[t.GroupX()] = total
	}
}

// ReduceWave32 is ReduceWave at a declared width of 32 lanes: on devices
// with smaller subgroups it runs at the folded tier.
//
//xpu:kernel block=256 wave=32
func ReduceWave32(t xpu.Thread, partial []float32, in []float32, n uint32) {
	s := xpu.Shared[float32](t, reduceBlock/32)
	l := t.LocalX()
	i := t.GlobalX()
	var v float32
	if i < n {
		v = in[i]
	}
	w := xpu.WaveSum(t, v)
	if t.LaneIndex() == 0 {
		s[l/32] = w
	}
	t.Barrier()
	var u float32
	if l < reduceBlock/32 {
		u = s[l]
	}
	total := xpu.WaveSum(t, u)
	if l == 0 {
		partial[t.GroupX()] = total
	}
}
