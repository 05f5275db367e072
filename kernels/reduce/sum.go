package reduce

import "github.com/goxpu/xpu"

// The sums: Sum and Dot, each block reducing its chunk into one partial,
// with a shared-memory tree (Shared) or wave sums (Wave) as the combine
// in the block.

// block is the block of every kernel of the package.
const block = 256

// chunkEnd returns the end of the chunk that starts at start: start+chunk,
// or n for the last chunk, without overflowing uint32.
func chunkEnd(start, n, chunk uint32) uint32 {
	if n-start > chunk {
		return start + chunk
	}
	return n
}

// chunkSum returns the sum of this work-item's elements of the block's
// chunk of x: one per tile, in order.
func chunkSum(t xpu.Thread, x []float32, n, chunk uint32) float32 {
	start := t.GroupX() * chunk
	end := chunkEnd(start, n, chunk)
	var v float32
	for i := start + t.LocalX(); i < end; i += block {
		v += x[i]
	}
	return v
}

// chunkDot is chunkSum of the products x[i]*y[i].
func chunkDot(t xpu.Thread, x, y []float32, n, chunk uint32) float32 {
	start := t.GroupX() * chunk
	end := chunkEnd(start, n, chunk)
	var v float32
	for i := start + t.LocalX(); i < end; i += block {
		v += x[i] * y[i]
	}
	return v
}

// SumShared writes to out[g] the sum of chunk g of x, the elements
// [g*chunk, min((g+1)*chunk, n)), combined by a tree in shared memory.
//
//xpu:kernel block=256 len(x)=n
func SumShared(t xpu.Thread, out, x []float32, n, chunk uint32) {
	s := xpu.Shared[float32](t, block)
	l := t.LocalX()
	s[l] = chunkSum(t, x, n, chunk)
	t.Barrier()
	// A tree by halves, the same on every device. The barriers sit in
	// the kernel body, where every lowering takes them.
	for step := uint32(block / 2); step > 0; step /= 2 {
		if l < step {
			s[l] += s[l+step]
		}
		t.Barrier()
	}
	if l == 0 {
		out[t.GroupX()] = s[0]
	}
}

// SumWave is SumShared combined by wave sums: each wave sums its lanes,
// lane 0 of each puts the wave's sum in shared memory, and the first wave
// sums those, at any wave width.
//
//xpu:kernel block=256 len(x)=n
func SumWave(t xpu.Thread, out, x []float32, n, chunk uint32) {
	s := xpu.Shared[float32](t, block) // a slot per wave: a wave may be four lanes
	v := chunkSum(t, x, n, chunk)
	w := xpu.WaveSum(t, v)
	width := t.WaveWidth()
	l := t.LocalX()
	if t.LaneIndex() == 0 {
		s[l/width] = w
	}
	t.Barrier()
	var u float32
	if l < width {
		for j := l; j < block/width; j += width {
			u += s[j]
		}
	}
	total := xpu.WaveSum(t, u)
	if l == 0 {
		out[t.GroupX()] = total
	}
}

// DotShared writes to out[g] the sum of x[i]*y[i] over chunk g, as
// SumShared does.
//
//xpu:kernel block=256 len(x)=n len(y)=n
func DotShared(t xpu.Thread, out, x, y []float32, n, chunk uint32) {
	s := xpu.Shared[float32](t, block)
	l := t.LocalX()
	s[l] = chunkDot(t, x, y, n, chunk)
	t.Barrier()
	// A tree by halves, the same on every device. The barriers sit in
	// the kernel body, where every lowering takes them.
	for step := uint32(block / 2); step > 0; step /= 2 {
		if l < step {
			s[l] += s[l+step]
		}
		t.Barrier()
	}
	if l == 0 {
		out[t.GroupX()] = s[0]
	}
}

// DotWave is DotShared combined by wave sums, as SumWave is.
//
//xpu:kernel block=256 len(x)=n len(y)=n
func DotWave(t xpu.Thread, out, x, y []float32, n, chunk uint32) {
	s := xpu.Shared[float32](t, block)
	v := chunkDot(t, x, y, n, chunk)
	w := xpu.WaveSum(t, v)
	width := t.WaveWidth()
	l := t.LocalX()
	if t.LaneIndex() == 0 {
		s[l/width] = w
	}
	t.Barrier()
	var u float32
	if l < width {
		for j := l; j < block/width; j += width {
			u += s[j]
		}
	}
	total := xpu.WaveSum(t, u)
	if l == 0 {
		out[t.GroupX()] = total
	}
}
