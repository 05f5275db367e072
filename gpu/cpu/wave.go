package cpu

// This file runs the wave verbs for the Go lowering: the lowering gathers
// the operand of every work-item of a block into an array, then one call
// here computes every lane's result. Waves are consecutive ranges of the
// linear local index, width lanes each (a width of 0 counts as 1, so that
// no call loops forever); a lane is active when on[i].

import (
	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/schema"
)

// Wave computes op, a numeric verb (a sum, min, max, prefix sum,
// broadcast or shuffle; WaveBallot and WaveVote run the predicates), for
// every lane of a block: x holds the operands by local index, lane the
// lane, mask or delta of a shuffle (nil otherwise), and out receives the
// results of the active lanes.
func Wave[T xpu.Number](op schema.WaveOp, x []T, lane []uint32, on []bool, width uint32, out []T) {
	w := waveWidth(width)
	for base := 0; base < len(x); base += w {
		end := min(base+w, len(x))
		for i := base; i < end; i++ {
			if on[i] {
				out[i] = waveLane(op, x[base:end], on[base:end], i-base, lane, i, w)
			}
		}
	}
}

// waveLane returns the result of lane l of a wave whose operands are xs.
func waveLane[T xpu.Number](op schema.WaveOp, xs []T, on []bool, l int, lane []uint32, i, w int) T {
	switch op {
	case schema.WaveSum, schema.WavePrefixSum, schema.WaveExclusivePrefixSum:
		n := len(xs)
		if op == schema.WavePrefixSum {
			n = l + 1
		} else if op == schema.WaveExclusivePrefixSum {
			n = l
		}
		var s T
		for j := range n {
			if on[j] {
				s += xs[j]
			}
		}
		return s
	case schema.WaveMin, schema.WaveMax:
		acc := xs[l]
		for j, v := range xs {
			switch {
			case !on[j]:
			case op == schema.WaveMin && v < acc, op == schema.WaveMax && v > acc:
				acc = v
			}
		}
		return acc
	}
	src := -1
	switch d := int(lane[i]); op {
	case schema.WaveBroadcast, schema.WaveShuffle:
		src = int(lane[i] % uint32(w))
	case schema.WaveShuffleXor:
		src = l ^ int(lane[i]%uint32(w))
	case schema.WaveShuffleUp:
		if d <= l {
			src = l - d
		}
	case schema.WaveShuffleDown:
		if uint64(l)+uint64(lane[i]) < uint64(w) {
			src = l + d
		}
	}
	if src < 0 || src >= len(xs) || !on[src] {
		return xs[l]
	}
	return xs[src]
}

// WaveBallot sets out[i] of every active lane to the mask of the active
// lanes of its wave whose x is true (bit j for lane j; width <= 32).
func WaveBallot(x, on []bool, width uint32, out []uint32) {
	w := waveWidth(width)
	for base := 0; base < len(x); base += w {
		end := min(base+w, len(x))
		var m uint32
		for i := base; i < end; i++ {
			if on[i] && x[i] {
				m |= 1 << (i - base)
			}
		}
		for i := base; i < end; i++ {
			if on[i] {
				out[i] = m
			}
		}
	}
}

// WaveVote sets out[i] of every active lane to whether x holds on all
// (all) or on some (!all) active lane of its wave.
func WaveVote(all bool, x, on []bool, width uint32, out []bool) {
	w := waveWidth(width)
	for base := 0; base < len(x); base += w {
		end := min(base+w, len(x))
		r := all
		for i := base; i < end; i++ {
			if on[i] && x[i] != all {
				r = !all
			}
		}
		for i := base; i < end; i++ {
			if on[i] {
				out[i] = r
			}
		}
	}
}

// waveWidth returns width as an int, 0 as 1: a wave has a lane at least.
func waveWidth(width uint32) int { return max(int(width), 1) }
