package sort

import "github.com/goxpu/xpu"

// The bitonic sort of short runs, in one block's shared memory.

// MaxSmall is the longest run the bitonic sort takes: a block's shared
// array of keys, four per work-item.
const MaxSmall = 1024

// smallBlock is the bitonic sort's block: four keys a work-item.
const smallBlock = MaxSmall / 4

// maxRow is the most blocks on a row of the bitonic sort's grid.
const maxRow = 65535

// Bitonic sorts, in place, each run of keys: block g, GroupY*NumGroupsX +
// GroupX, sorts keys[g*length : min((g+1)*length, n)] (none for a block
// past the last run, on the grid's last row), length at most MaxSmall,
// padding the run to the next power of two with the greatest key.
//
//xpu:kernel block=256 len(keys)=n
func Bitonic(t xpu.Thread, keys []uint32, n, length uint32) {
	s := xpu.Shared[uint32](t, MaxSmall)
	l := t.LocalX()
	b := t.GroupY()*t.NumGroupsX() + t.GroupX()
	start := b * length
	var m uint32 // the run's keys; its start wraps past the last run, unread
	if b <= (n-1)/length {
		m = min(length, n-start)
	}
	size := uint32(2)
	for size < m {
		size *= 2
	}
	for j := l; j < size; j += smallBlock {
		v := uint32(0xffffffff)
		if j < m {
			v = keys[start+j]
		}
		s[j] = v
	}
	t.Barrier()
	for k := uint32(2); k <= size; k *= 2 {
		for d := k / 2; d > 0; d /= 2 {
			for p := l; p < size/2; p += smallBlock {
				i := 2*d*(p/d) + p%d
				a, b := s[i], s[i+d]
				if (a > b) == (i&k == 0) {
					s[i], s[i+d] = b, a
				}
			}
			t.Barrier()
		}
	}
	for j := l; j < m; j += smallBlock {
		keys[start+j] = s[j]
	}
}
