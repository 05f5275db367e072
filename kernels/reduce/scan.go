package reduce

import "github.com/goxpu/xpu"

// The scans: each block scans its chunk a tile at a time from the offset
// of the chunk (the exclusive scan of the chunks' sums, a pass before),
// carrying each tile's total into the next, with a shared-memory scan
// (Shared) or wave scans (Wave) within a tile.

// ScanShared writes to out the prefix sums of chunk g of x (see
// SumShared) plus offsets[g]: inclusive (out[i] = offsets[g] + x[start] +
// ... + x[i]) when exclusive is 0, exclusive (without x[i]) otherwise.
// Each tile is scanned by Hillis and Steele's doubling in shared memory.
//
//xpu:kernel block=256 len(x)=n len(out)=n
func ScanShared(t xpu.Thread, out, x, offsets []float32, n, chunk, exclusive uint32) {
	s := xpu.Shared[float32](t, block)
	l := t.LocalX()
	start := t.GroupX() * chunk
	end := n
	if n-start > chunk {
		end = start + chunk
	}
	carry := offsets[t.GroupX()]
	for base := start; base < end; base += block {
		i := base + l
		var v float32
		if i < end {
			v = x[i]
		}
		s[l] = v
		t.Barrier()
		for d := uint32(1); d < block; d *= 2 {
			var a float32
			if l >= d {
				a = s[l-d]
			}
			t.Barrier()
			s[l] += a
			t.Barrier()
		}
		if i < end {
			if exclusive == 0 {
				out[i] = carry + s[l]
			} else if l == 0 {
				out[i] = carry
			} else {
				out[i] = carry + s[l-1]
			}
		}
		carry += s[block-1]
		t.Barrier() // every work-item has read s before the next tile writes it
	}
}

// ScanWave is ScanShared with wave scans within a tile: each wave scans
// its lanes, the first work-item scans the waves' totals in shared memory
// (at most 64, for waves of four lanes), and each lane adds its wave's
// offset, at any wave width.
//
//xpu:kernel block=256 len(x)=n len(out)=n
func ScanWave(t xpu.Thread, out, x, offsets []float32, n, chunk, exclusive uint32) {
	s := xpu.Shared[float32](t, block+1) // a slot per wave, then the tile's total
	l := t.LocalX()
	width := t.WaveWidth()
	waves := block / width
	start := t.GroupX() * chunk
	end := n
	if n-start > chunk {
		end = start + chunk
	}
	carry := offsets[t.GroupX()]
	for base := start; base < end; base += block {
		i := base + l
		var v float32
		if i < end {
			v = x[i]
		}
		incl := xpu.WavePrefixSum(t, v)
		excl := xpu.WaveExclusivePrefixSum(t, v)
		if t.LaneIndex() == width-1 {
			s[l/width] = incl
		}
		t.Barrier()
		if l == 0 {
			var acc float32
			for j := uint32(0); j < waves; j++ {
				w := s[j]
				s[j] = acc
				acc += w
			}
			s[waves] = acc
		}
		t.Barrier()
		if i < end {
			if exclusive == 0 {
				out[i] = carry + (s[l/width] + incl)
			} else {
				out[i] = carry + (s[l/width] + excl)
			}
		}
		carry += s[waves]
		t.Barrier() // every work-item has read s before the next tile writes it
	}
}
