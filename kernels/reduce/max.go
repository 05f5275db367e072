package reduce

import "github.com/goxpu/xpu"

// The maxima: Max, and ArgMax as pairs of a key and an index, each block
// reducing its chunk into one partial, with a shared-memory tree (Shared)
// or wave maxima and minima (Wave) as the combine in the block. Keys
// order floats totally (keys.go).

// chunkMax returns the greatest key of this work-item's elements of the
// block's chunk of x, noKey for none.
func chunkMax(t xpu.Thread, x []float32, n, chunk uint32) uint32 {
	start := t.GroupX() * chunk
	end := chunkEnd(start, n, chunk)
	k := uint32(noKey)
	for i := start + t.LocalX(); i < end; i += block {
		k = max(k, keyOf(x[i]))
	}
	return k
}

// MaxShared writes to out[g] the greatest element of chunk g of x (see
// SumShared), in the total order of keyOf, combined by a tree in shared
// memory. Run over the partials, it gives their maximum.
//
//xpu:kernel block=256 len(x)=n
func MaxShared(t xpu.Thread, out, x []float32, n, chunk uint32) {
	s := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	s[l] = chunkMax(t, x, n, chunk)
	t.Barrier()
	for step := uint32(block / 2); step > 0; step /= 2 {
		if l < step {
			s[l] = max(s[l], s[l+step])
		}
		t.Barrier()
	}
	if l == 0 {
		out[t.GroupX()] = valueOf(s[0])
	}
}

// MaxWave is MaxShared combined by wave maxima of the keys.
//
//xpu:kernel block=256 len(x)=n
func MaxWave(t xpu.Thread, out, x []float32, n, chunk uint32) {
	s := xpu.Shared[uint32](t, block)
	k := chunkMax(t, x, n, chunk)
	w := xpu.WaveMax(t, k)
	width := t.WaveWidth()
	l := t.LocalX()
	if t.LaneIndex() == 0 {
		s[l/width] = w
	}
	t.Barrier()
	u := uint32(noKey)
	if l < width {
		for j := l; j < block/width; j += width {
			u = max(u, s[j])
		}
	}
	top := xpu.WaveMax(t, u)
	if l == 0 {
		out[t.GroupX()] = valueOf(top)
	}
}

// pair is a key and the index of its element.
type pair struct{ key, index uint32 }

// chunkArgMax returns the best pair (see beats) of this work-item's
// elements of the block's chunk of x, (noKey, noIndex) for none.
func chunkArgMax(t xpu.Thread, x []float32, n, chunk uint32) pair {
	start := t.GroupX() * chunk
	end := chunkEnd(start, n, chunk)
	best := pair{noKey, noIndex}
	for i := start + t.LocalX(); i < end; i += block {
		// Indices ascend: an equal key keeps the earlier one.
		if k := keyOf(x[i]); k > best.key {
			best = pair{k, i}
		}
	}
	return best
}

// chunkArgMaxPairs is chunkArgMax over partial pairs (keys[i], indices[i]).
func chunkArgMaxPairs(t xpu.Thread, keys, indices []uint32, n, chunk uint32) pair {
	start := t.GroupX() * chunk
	end := chunkEnd(start, n, chunk)
	best := pair{noKey, noIndex}
	for i := start + t.LocalX(); i < end; i += block {
		if k, j := keys[i], indices[i]; beats(k, j, best.key, best.index) {
			best = pair{k, j}
		}
	}
	return best
}

// ArgMaxShared writes to keys[g] and indices[g] the key of the greatest
// element of chunk g of x and its lowest index, combined by a tree in
// shared memory.
//
//xpu:kernel block=256 len(x)=n
func ArgMaxShared(t xpu.Thread, keys, indices []uint32, x []float32, n, chunk uint32) {
	sk := xpu.Shared[uint32](t, block)
	si := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	p := chunkArgMax(t, x, n, chunk)
	sk[l], si[l] = p.key, p.index
	t.Barrier()
	for step := uint32(block / 2); step > 0; step /= 2 {
		if l < step && beats(sk[l+step], si[l+step], sk[l], si[l]) {
			sk[l], si[l] = sk[l+step], si[l+step]
		}
		t.Barrier()
	}
	if l == 0 {
		keys[t.GroupX()], indices[t.GroupX()] = sk[0], si[0]
	}
}

// ArgMaxPairsShared is ArgMaxShared over the partial pairs of a pass
// before: the best of chunk g of (inKeys[i], inIndices[i]).
//
//xpu:kernel block=256 len(inKeys)=n len(inIndices)=n
func ArgMaxPairsShared(t xpu.Thread, keys, indices, inKeys, inIndices []uint32, n, chunk uint32) {
	sk := xpu.Shared[uint32](t, block)
	si := xpu.Shared[uint32](t, block)
	l := t.LocalX()
	p := chunkArgMaxPairs(t, inKeys, inIndices, n, chunk)
	sk[l], si[l] = p.key, p.index
	t.Barrier()
	for step := uint32(block / 2); step > 0; step /= 2 {
		if l < step && beats(sk[l+step], si[l+step], sk[l], si[l]) {
			sk[l], si[l] = sk[l+step], si[l+step]
		}
		t.Barrier()
	}
	if l == 0 {
		keys[t.GroupX()], indices[t.GroupX()] = sk[0], si[0]
	}
}

// ArgMaxWave is ArgMaxShared combined by wave verbs: the wave's greatest
// key, then the least index among the lanes that hold it.
//
//xpu:kernel block=256 len(x)=n
func ArgMaxWave(t xpu.Thread, keys, indices []uint32, x []float32, n, chunk uint32) {
	sk := xpu.Shared[uint32](t, block)
	si := xpu.Shared[uint32](t, block)
	p := chunkArgMax(t, x, n, chunk)
	wk := xpu.WaveMax(t, p.key)
	c := uint32(noIndex)
	if p.key == wk {
		c = p.index
	}
	wi := xpu.WaveMin(t, c)
	width := t.WaveWidth()
	l := t.LocalX()
	if t.LaneIndex() == 0 {
		sk[l/width], si[l/width] = wk, wi
	}
	t.Barrier()
	u := pair{noKey, noIndex}
	if l < width {
		for j := l; j < block/width; j += width {
			if beats(sk[j], si[j], u.key, u.index) {
				u = pair{sk[j], si[j]}
			}
		}
	}
	tk := xpu.WaveMax(t, u.key)
	d := uint32(noIndex)
	if u.key == tk {
		d = u.index
	}
	ti := xpu.WaveMin(t, d)
	if l == 0 {
		keys[t.GroupX()], indices[t.GroupX()] = tk, ti
	}
}

// ArgMaxPairsWave is ArgMaxPairsShared combined by wave verbs, as
// ArgMaxWave is.
//
//xpu:kernel block=256 len(inKeys)=n len(inIndices)=n
func ArgMaxPairsWave(t xpu.Thread, keys, indices, inKeys, inIndices []uint32, n, chunk uint32) {
	sk := xpu.Shared[uint32](t, block)
	si := xpu.Shared[uint32](t, block)
	p := chunkArgMaxPairs(t, inKeys, inIndices, n, chunk)
	wk := xpu.WaveMax(t, p.key)
	c := uint32(noIndex)
	if p.key == wk {
		c = p.index
	}
	wi := xpu.WaveMin(t, c)
	width := t.WaveWidth()
	l := t.LocalX()
	if t.LaneIndex() == 0 {
		sk[l/width], si[l/width] = wk, wi
	}
	t.Barrier()
	u := pair{noKey, noIndex}
	if l < width {
		for j := l; j < block/width; j += width {
			if beats(sk[j], si[j], u.key, u.index) {
				u = pair{sk[j], si[j]}
			}
		}
	}
	tk := xpu.WaveMax(t, u.key)
	d := uint32(noIndex)
	if u.key == tk {
		d = u.index
	}
	ti := xpu.WaveMin(t, d)
	if l == 0 {
		keys[t.GroupX()], indices[t.GroupX()] = tk, ti
	}
}
