package reduce

import "github.com/goxpu/xpu"

// The uint32 sums and scans: Sum's and Scan's kernels over uint32, whose
// additions wrap modulo 2^32 and so are exact in any order.

// chunkSumUint32 is chunkSum over uint32.
func chunkSumUint32(t xpu.Thread, x []uint32, n, chunk uint32) uint32 {
	start := t.GroupX() * chunk
	end := chunkEnd(start, n, chunk)
	var v uint32
	for i := start + t.LocalX(); i < end; i += block {
		v += x[i]
	}
	return v
}

// SumUint32Shared is SumShared over uint32.
//
//xpu:kernel block=256 len(x)=n
func SumUint32Shared(t xpu.Thread, out, x []uint32, n, chunk uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	s[l] = chunkSumUint32(t, x, n, chunk)
	t.Barrier()
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

// SumUint32Wave is SumWave over uint32.
//
//xpu:kernel block=256 len(x)=n
func SumUint32Wave(t xpu.Thread, out, x []uint32, n, chunk uint32) {
	s := xpu.Shared[uint32](t, block)
	v := chunkSumUint32(t, x, n, chunk)
	w := xpu.WaveSum(t, v)
	width := t.WaveWidth()
	l := t.LocalX()
	if t.LaneIndex() == 0 {
		s[l/width] = w
	}
	t.Barrier()
	var u uint32
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

// ScanUint32Shared is ScanShared over uint32.
//
//xpu:kernel block=256 len(x)=n len(out)=n
func ScanUint32Shared(t xpu.Thread, out, x, offsets []uint32, n, chunk, exclusive uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	start := t.GroupX() * chunk
	end := n
	if n-start > chunk {
		end = start + chunk
	}
	carry := offsets[t.GroupX()]
	for base := start; base < end; base += block {
		i := base + l
		var v uint32
		if i < end {
			v = x[i]
		}
		s[l] = v
		t.Barrier()
		for d := uint32(1); d < block; d *= 2 {
			var a uint32
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
		t.Barrier()
	}
}

// ScanUint32Wave is ScanWave over uint32.
//
//xpu:kernel block=256 len(x)=n len(out)=n
func ScanUint32Wave(t xpu.Thread, out, x, offsets []uint32, n, chunk, exclusive uint32) {
	s := xpu.Shared[uint32](t, block+1)
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
		var v uint32
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
			var acc uint32
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
		t.Barrier()
	}
}
