package xpu

// This file implements the wave verbs: operations across the lanes of a
// wave, the consecutive work-items of a block that a device runs in lock
// step.
//
// A block's waves are consecutive ranges of LocalIndex: wave k holds the
// work-items whose LocalIndex lies in [k*W, (k+1)*W), W = WaveWidth().
// When the block is not a multiple of W, its last wave is partial: the
// lanes past the block's end do not exist. A verb must be reached in
// workgroup-uniform control flow (like Barrier), so its active lanes are
// exactly the lanes that exist: the reference runner fails the block
// (rule xpu-wave-nonuniform) when a lane of the wave returned before the
// verb or waits at a barrier or at another wave verb instead.
//
// Reductions and scans run over the active lanes in lane order. A
// shuffle whose source lane is not active yields the caller's own value.

// WaveSum returns the sum of v over the active lanes of the wave.
func WaveSum[T Number](t Thread, v T) T {
	vals := exchange(t, v)
	var s T
	for _, x := range vals {
		if x.on {
			s += x.v
		}
	}
	return s
}

// WaveMin returns the least v of the active lanes of the wave.
func WaveMin[T Number](t Thread, v T) T {
	return waveFold(t, v, Min[T])
}

// WaveMax returns the greatest v of the active lanes of the wave.
func WaveMax[T Number](t Thread, v T) T {
	return waveFold(t, v, Max[T])
}

func waveFold[T Number](t Thread, v T, f func(a, b T) T) T {
	vals := exchange(t, v)
	acc := v
	for _, x := range vals {
		if x.on {
			acc = f(acc, x.v)
		}
	}
	return acc
}

// WavePrefixSum returns the sum of v over the active lanes of the wave up
// to and including the caller's lane (an inclusive scan).
func WavePrefixSum[T Number](t Thread, v T) T {
	vals := exchange(t, v)
	var s T
	for _, x := range vals[:t.LaneIndex()+1] {
		if x.on {
			s += x.v
		}
	}
	return s
}

// WaveExclusivePrefixSum returns the sum of v over the active lanes of the
// wave below the caller's lane; lane 0 gets 0.
func WaveExclusivePrefixSum[T Number](t Thread, v T) T {
	vals := exchange(t, v)
	var s T
	for _, x := range vals[:t.LaneIndex()] {
		if x.on {
			s += x.v
		}
	}
	return s
}

// WaveBallot returns a mask with bit i set when lane i is active and its
// p is true. It needs a wave of at most 32 lanes: a kernel that declares
// wave=64 and calls it is refused, and a width-agnostic kernel that calls
// it is refused on a device whose waves are wider (the reference runner
// fails the work-item).
func WaveBallot(t Thread, p bool) uint32 {
	if t.WaveWidth() > 32 {
		panic("xpu: WaveBallot at a wave of more than 32 lanes")
	}
	var m uint32
	for i, x := range exchange(t, p) {
		if x.on && x.v {
			m |= 1 << i
		}
	}
	return m
}

// WaveAny reports whether p is true on some active lane of the wave.
func WaveAny(t Thread, p bool) bool {
	for _, x := range exchange(t, p) {
		if x.on && x.v {
			return true
		}
	}
	return false
}

// WaveAll reports whether p is true on every active lane of the wave.
func WaveAll(t Thread, p bool) bool {
	for _, x := range exchange(t, p) {
		if x.on && !x.v {
			return false
		}
	}
	return true
}

// WaveBroadcast returns v of lane lane%WaveWidth() to every lane; lane
// should be the same on every lane (it is a shuffle otherwise).
func WaveBroadcast[T Number](t Thread, v T, lane uint32) T {
	return WaveShuffle(t, v, lane)
}

// WaveShuffle returns v of lane lane%WaveWidth().
func WaveShuffle[T Number](t Thread, v T, lane uint32) T {
	return shuffleFrom(t, v, int(lane%t.WaveWidth()))
}

// WaveShuffleXor returns v of lane LaneIndex() ^ (mask % WaveWidth()).
func WaveShuffleXor[T Number](t Thread, v T, mask uint32) T {
	return shuffleFrom(t, v, int(t.LaneIndex()^(mask%t.WaveWidth())))
}

// WaveShuffleUp returns v of lane LaneIndex() - delta; a lane below delta
// gets its own v.
func WaveShuffleUp[T Number](t Thread, v T, delta uint32) T {
	l := t.LaneIndex()
	if delta > l {
		return shuffleFrom(t, v, -1)
	}
	return shuffleFrom(t, v, int(l-delta))
}

// WaveShuffleDown returns v of lane LaneIndex() + delta; a lane whose
// source is past the wave (or past the block) gets its own v.
func WaveShuffleDown[T Number](t Thread, v T, delta uint32) T {
	l := uint64(t.LaneIndex()) + uint64(delta)
	if l >= uint64(t.WaveWidth()) {
		return shuffleFrom(t, v, -1)
	}
	return shuffleFrom(t, v, int(l))
}

// shuffleFrom exchanges v across the wave and returns the value of lane
// src, or v itself when src is negative or not an active lane.
func shuffleFrom[T Number](t Thread, v T, src int) T {
	vals := exchange(t, v)
	if src < 0 || src >= len(vals) || !vals[src].on {
		return v
	}
	return vals[src].v
}

// laneValue is one lane's contribution to a wave exchange.
type laneValue[T any] struct {
	v  T
	on bool // the lane is active
}

// exchange is one step of a wave: every active lane contributes v and
// gets every lane's contribution once all active lanes have arrived.
func exchange[T any](t Thread, v T) []laneValue[T] {
	raw := t.w.exchange(v)
	out := make([]laneValue[T], len(raw))
	for i, r := range raw {
		if r != nil {
			out[i] = laneValue[T]{v: r.(T), on: true}
		}
	}
	return out
}
