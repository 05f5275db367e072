package sort

import "github.com/goxpu/xpu"

// The radix sort's kernels: a pass's digit histogram per block and its
// stable scatter (see the package doc).

const (
	block  = 256        // work-items of a block
	bits   = 4          // bits of a digit
	digits = 1 << bits  // values of a digit
	words  = digits / 2 // words of a work-item's packed counters
	run    = 32         // consecutive keys a work-item owns in a tile
	tile   = block * run

	segments = block / words    // segments of a row of counters in the scan
	segment  = block / segments // counters of a segment
)

// digit returns the digit of k at shift.
func digit(k, shift uint32) uint32 { return (k >> shift) & (digits - 1) }

// unit returns the packed counter word of digit d holding one: digit d
// counts in the half d%2 of word d/2.
func unit(d uint32) uint32 { return uint32(1) << (16 * (d & 1)) }

// half returns the count of digit d in its packed word w.
func half(w, d uint32) uint32 { return (w >> (16 * (d & 1))) & 0xffff }

// chunkEnd returns the end of the chunk that starts at start.
func chunkEnd(start, n, chunk uint32) uint32 {
	if n-start > chunk {
		return start + chunk
	}
	return n
}

// Histogram writes to hist[d*groups+g] the number of keys of block g's
// chunk of keys whose digit at shift is d, groups the blocks of the
// launch. Each work-item counts its keys in a column of packed counters
// of its own in shared memory (a work-item counts at most
// MaxLen/MaxBlocks/block keys, 16Ki, which a half holds), and 16 sum the
// columns: no atomics, and no private array indexed by the digit, which
// where work-items run as a vector's lanes (the CPU) is a gather and a
// scatter per key.
//
//xpu:kernel block=256 len(keys)=n
func Histogram(t xpu.Thread, hist, keys []uint32, n, chunk, shift uint32) {
	s := xpu.Shared[uint32](t, words*block)
	l := t.LocalX()
	g := t.GroupX()
	for w := uint32(0); w < words; w++ {
		s[w*block+l] = 0
	}
	start := g * chunk
	end := chunkEnd(start, n, chunk)
	for i := start + l; i < end; i += block {
		d := digit(keys[i], shift)
		s[(d/2)*block+l] += unit(d)
	}
	t.Barrier()
	if l < digits {
		var v uint32
		for j := uint32(0); j < block; j++ {
			v += half(s[(l/2)*block+j], l)
		}
		hist[l*t.NumGroupsX()+g] = v
	}
}

// ScatterKeys writes block g's chunk of keys to out, each key k at
// offsets[digit(k)*groups+g] plus the keys of its digit before it in the
// chunk (see the package doc): one pass of a stable radix sort.
//
//xpu:kernel block=256 len(keys)=n len(out)=n
func ScatterKeys(t xpu.Thread, out, keys, offsets []uint32, n, chunk, shift uint32) {
	// Packed counters, word w of work-item l at w*block+l: its keys of
	// each digit, then their scan over the work-items, then the keys of
	// each digit before its next one.
	s := xpu.Shared[uint32](t, words*block)
	sums := xpu.Shared[uint32](t, block)  // the totals of the scan's segments, then their offsets
	base := xpu.Shared[uint32](t, digits) // where the tile's first key of each digit goes
	l := t.LocalX()
	g := t.GroupX()
	if l < digits {
		base[l] = offsets[l*t.NumGroupsX()+g]
	}
	start := g * chunk
	end := chunkEnd(start, n, chunk)
	for at := start; at < end; at += tile {
		lo := at + l*run
		hi := min(lo+run, end)
		for w := uint32(0); w < words; w++ {
			s[w*block+l] = 0
		}
		for i := lo; i < hi; i++ {
			d := digit(keys[i], shift)
			s[(d/2)*block+l] += unit(d)
		}
		var c [words]uint32
		for w := uint32(0); w < words; w++ {
			c[w] = s[w*block+l]
		}
		t.Barrier()
		// The inclusive scan of each row of s over the work-items: work-item
		// l scans segment l%segments of row l/segments, then a work-item a
		// row scans the row's segment totals, and each adds its segment's
		// offset.
		row := l / segments
		first := row*block + (l%segments)*segment
		var acc uint32
		for j := uint32(0); j < segment; j++ {
			acc += s[first+j]
			s[first+j] = acc
		}
		sums[l] = acc
		t.Barrier()
		if l < words {
			var off uint32
			for j := l * segments; j < (l+1)*segments; j++ {
				v := sums[j]
				sums[j] = off
				off += v
			}
		}
		t.Barrier()
		for j := uint32(0); j < segment; j++ {
			s[first+j] += sums[l]
		}
		t.Barrier()
		var total uint32 // the tile's keys of digit l
		if l < digits {
			total = half(s[(l/2)*block+block-1], l)
		}
		t.Barrier() // the totals are read before the columns turn exclusive
		for w := uint32(0); w < words; w++ {
			s[w*block+l] -= c[w] // the keys of each digit before this work-item's next one
		}
		for i := lo; i < hi; i++ {
			k := keys[i]
			d := digit(k, shift)
			col := (d/2)*block + l
			out[base[d]+half(s[col], d)] = k
			s[col] += unit(d)
		}
		t.Barrier() // every work-item has read base
		if l < digits {
			base[l] += total
		}
		t.Barrier()
	}
}

// ScatterPairs is ScatterKeys carrying values: the value at each key's
// index goes to outValues at the key's place.
//
//xpu:kernel block=256 len(keys)=n len(out)=n len(values)=n len(outValues)=n
func ScatterPairs(t xpu.Thread, out, outValues, keys, values, offsets []uint32, n, chunk, shift uint32) {
	s := xpu.Shared[uint32](t, words*block)
	sums := xpu.Shared[uint32](t, block)
	base := xpu.Shared[uint32](t, digits)
	l := t.LocalX()
	g := t.GroupX()
	if l < digits {
		base[l] = offsets[l*t.NumGroupsX()+g]
	}
	start := g * chunk
	end := chunkEnd(start, n, chunk)
	for at := start; at < end; at += tile {
		lo := at + l*run
		hi := min(lo+run, end)
		for w := uint32(0); w < words; w++ {
			s[w*block+l] = 0
		}
		for i := lo; i < hi; i++ {
			d := digit(keys[i], shift)
			s[(d/2)*block+l] += unit(d)
		}
		var c [words]uint32
		for w := uint32(0); w < words; w++ {
			c[w] = s[w*block+l]
		}
		t.Barrier()
		// The inclusive scan of each row of s over the work-items: work-item
		// l scans segment l%segments of row l/segments, then a work-item a
		// row scans the row's segment totals, and each adds its segment's
		// offset.
		row := l / segments
		first := row*block + (l%segments)*segment
		var acc uint32
		for j := uint32(0); j < segment; j++ {
			acc += s[first+j]
			s[first+j] = acc
		}
		sums[l] = acc
		t.Barrier()
		if l < words {
			var off uint32
			for j := l * segments; j < (l+1)*segments; j++ {
				v := sums[j]
				sums[j] = off
				off += v
			}
		}
		t.Barrier()
		for j := uint32(0); j < segment; j++ {
			s[first+j] += sums[l]
		}
		t.Barrier()
		var total uint32
		if l < digits {
			total = half(s[(l/2)*block+block-1], l)
		}
		t.Barrier()
		for w := uint32(0); w < words; w++ {
			s[w*block+l] -= c[w]
		}
		for i := lo; i < hi; i++ {
			k := keys[i]
			d := digit(k, shift)
			col := (d/2)*block + l
			p := base[d] + half(s[col], d)
			out[p] = k
			outValues[p] = values[i]
			s[col] += unit(d)
		}
		t.Barrier()
		if l < digits {
			base[l] += total
		}
		t.Barrier()
	}
}
