package wave

import "github.com/goxpu/xpu"

// Each kernel of the suite runs every wave verb that applies at its width
// on int32, uint32 and float32 operands and writes every result, slot by
// slot, for its work-item: oi holds intSlots results, ou uintSlots, of
// floatSlots. Its blocks are not multiples of its width, so its last wave
// is partial. bl, m and d are the broadcast lane, the xor mask and the
// shuffle delta.

// The result slots of each work-item.
const (
	intSlots   = 10
	uintSlots  = 11
	floatSlots = 6
)

// Wave4 runs the wave verbs at a declared width of 4 lanes, in blocks of 30 work-items.
//
//xpu:kernel block=30 wave=4
func Wave4(t xpu.Thread, oi []int32, ou []uint32, of []float32, xi []int32, xu []uint32, xf []float32, sel []uint32, bl, m, d uint32) {
	g := t.GlobalX()
	a, u, f, k := xi[g], xu[g], xf[g], sel[g]
	p := u%4 != 0 || t.GroupX()%2 == 0
	s0 := xpu.WaveSum(t, a)
	s1 := xpu.WaveMin(t, a)
	s2 := xpu.WaveMax(t, a)
	s3 := xpu.WavePrefixSum(t, a)
	s4 := xpu.WaveExclusivePrefixSum(t, a)
	s5 := xpu.WaveBroadcast(t, a, bl)
	s6 := xpu.WaveShuffle(t, a, k)
	s7 := xpu.WaveShuffleXor(t, a, m)
	s8 := xpu.WaveShuffleUp(t, a, d)
	s9 := xpu.WaveShuffleDown(t, a, d)
	oi[g*intSlots], oi[g*intSlots+1], oi[g*intSlots+2], oi[g*intSlots+3], oi[g*intSlots+4] = s0, s1, s2, s3, s4
	oi[g*intSlots+5], oi[g*intSlots+6], oi[g*intSlots+7], oi[g*intSlots+8], oi[g*intSlots+9] = s5, s6, s7, s8, s9
	u0 := xpu.WaveSum(t, u)
	u1 := xpu.WaveMin(t, u)
	u2 := xpu.WaveMax(t, u)
	u3 := xpu.WavePrefixSum(t, u)
	u4 := xpu.WaveExclusivePrefixSum(t, u)
	u5 := xpu.WaveShuffle(t, u, k)
	u6 := xpu.WaveBallot(t, p)
	any := xpu.WaveAny(t, p)
	all := xpu.WaveAll(t, p)
	ou[g*uintSlots], ou[g*uintSlots+1], ou[g*uintSlots+2], ou[g*uintSlots+3], ou[g*uintSlots+4] = u0, u1, u2, u3, u4
	ou[g*uintSlots+5], ou[g*uintSlots+6] = u5, u6
	ou[g*uintSlots+7], ou[g*uintSlots+8] = 0, 0
	if any {
		ou[g*uintSlots+7] = 1
	}
	if all {
		ou[g*uintSlots+8] = 1
	}
	ou[g*uintSlots+9], ou[g*uintSlots+10] = t.LaneIndex(), t.WaveWidth()
	f0 := xpu.WaveSum(t, f)
	f1 := xpu.WaveMin(t, f)
	f2 := xpu.WaveMax(t, f)
	f3 := xpu.WavePrefixSum(t, f)
	f4 := xpu.WaveExclusivePrefixSum(t, f)
	f5 := xpu.WaveShuffleXor(t, f, m)
	of[g*floatSlots], of[g*floatSlots+1], of[g*floatSlots+2] = f0, f1, f2
	of[g*floatSlots+3], of[g*floatSlots+4], of[g*floatSlots+5] = f3, f4, f5
}

// Wave8 runs the wave verbs at a declared width of 8 lanes, in blocks of 60 work-items.
//
//xpu:kernel block=60 wave=8
func Wave8(t xpu.Thread, oi []int32, ou []uint32, of []float32, xi []int32, xu []uint32, xf []float32, sel []uint32, bl, m, d uint32) {
	g := t.GlobalX()
	a, u, f, k := xi[g], xu[g], xf[g], sel[g]
	p := u%4 != 0 || t.GroupX()%2 == 0
	s0 := xpu.WaveSum(t, a)
	s1 := xpu.WaveMin(t, a)
	s2 := xpu.WaveMax(t, a)
	s3 := xpu.WavePrefixSum(t, a)
	s4 := xpu.WaveExclusivePrefixSum(t, a)
	s5 := xpu.WaveBroadcast(t, a, bl)
	s6 := xpu.WaveShuffle(t, a, k)
	s7 := xpu.WaveShuffleXor(t, a, m)
	s8 := xpu.WaveShuffleUp(t, a, d)
	s9 := xpu.WaveShuffleDown(t, a, d)
	oi[g*intSlots], oi[g*intSlots+1], oi[g*intSlots+2], oi[g*intSlots+3], oi[g*intSlots+4] = s0, s1, s2, s3, s4
	oi[g*intSlots+5], oi[g*intSlots+6], oi[g*intSlots+7], oi[g*intSlots+8], oi[g*intSlots+9] = s5, s6, s7, s8, s9
	u0 := xpu.WaveSum(t, u)
	u1 := xpu.WaveMin(t, u)
	u2 := xpu.WaveMax(t, u)
	u3 := xpu.WavePrefixSum(t, u)
	u4 := xpu.WaveExclusivePrefixSum(t, u)
	u5 := xpu.WaveShuffle(t, u, k)
	u6 := xpu.WaveBallot(t, p)
	any := xpu.WaveAny(t, p)
	all := xpu.WaveAll(t, p)
	ou[g*uintSlots], ou[g*uintSlots+1], ou[g*uintSlots+2], ou[g*uintSlots+3], ou[g*uintSlots+4] = u0, u1, u2, u3, u4
	ou[g*uintSlots+5], ou[g*uintSlots+6] = u5, u6
	ou[g*uintSlots+7], ou[g*uintSlots+8] = 0, 0
	if any {
		ou[g*uintSlots+7] = 1
	}
	if all {
		ou[g*uintSlots+8] = 1
	}
	ou[g*uintSlots+9], ou[g*uintSlots+10] = t.LaneIndex(), t.WaveWidth()
	f0 := xpu.WaveSum(t, f)
	f1 := xpu.WaveMin(t, f)
	f2 := xpu.WaveMax(t, f)
	f3 := xpu.WavePrefixSum(t, f)
	f4 := xpu.WaveExclusivePrefixSum(t, f)
	f5 := xpu.WaveShuffleXor(t, f, m)
	of[g*floatSlots], of[g*floatSlots+1], of[g*floatSlots+2] = f0, f1, f2
	of[g*floatSlots+3], of[g*floatSlots+4], of[g*floatSlots+5] = f3, f4, f5
}

// Wave16 runs the wave verbs at a declared width of 16 lanes, in blocks of 40 work-items.
//
//xpu:kernel block=40 wave=16
func Wave16(t xpu.Thread, oi []int32, ou []uint32, of []float32, xi []int32, xu []uint32, xf []float32, sel []uint32, bl, m, d uint32) {
	g := t.GlobalX()
	a, u, f, k := xi[g], xu[g], xf[g], sel[g]
	p := u%4 != 0 || t.GroupX()%2 == 0
	s0 := xpu.WaveSum(t, a)
	s1 := xpu.WaveMin(t, a)
	s2 := xpu.WaveMax(t, a)
	s3 := xpu.WavePrefixSum(t, a)
	s4 := xpu.WaveExclusivePrefixSum(t, a)
	s5 := xpu.WaveBroadcast(t, a, bl)
	s6 := xpu.WaveShuffle(t, a, k)
	s7 := xpu.WaveShuffleXor(t, a, m)
	s8 := xpu.WaveShuffleUp(t, a, d)
	s9 := xpu.WaveShuffleDown(t, a, d)
	oi[g*intSlots], oi[g*intSlots+1], oi[g*intSlots+2], oi[g*intSlots+3], oi[g*intSlots+4] = s0, s1, s2, s3, s4
	oi[g*intSlots+5], oi[g*intSlots+6], oi[g*intSlots+7], oi[g*intSlots+8], oi[g*intSlots+9] = s5, s6, s7, s8, s9
	u0 := xpu.WaveSum(t, u)
	u1 := xpu.WaveMin(t, u)
	u2 := xpu.WaveMax(t, u)
	u3 := xpu.WavePrefixSum(t, u)
	u4 := xpu.WaveExclusivePrefixSum(t, u)
	u5 := xpu.WaveShuffle(t, u, k)
	u6 := xpu.WaveBallot(t, p)
	any := xpu.WaveAny(t, p)
	all := xpu.WaveAll(t, p)
	ou[g*uintSlots], ou[g*uintSlots+1], ou[g*uintSlots+2], ou[g*uintSlots+3], ou[g*uintSlots+4] = u0, u1, u2, u3, u4
	ou[g*uintSlots+5], ou[g*uintSlots+6] = u5, u6
	ou[g*uintSlots+7], ou[g*uintSlots+8] = 0, 0
	if any {
		ou[g*uintSlots+7] = 1
	}
	if all {
		ou[g*uintSlots+8] = 1
	}
	ou[g*uintSlots+9], ou[g*uintSlots+10] = t.LaneIndex(), t.WaveWidth()
	f0 := xpu.WaveSum(t, f)
	f1 := xpu.WaveMin(t, f)
	f2 := xpu.WaveMax(t, f)
	f3 := xpu.WavePrefixSum(t, f)
	f4 := xpu.WaveExclusivePrefixSum(t, f)
	f5 := xpu.WaveShuffleXor(t, f, m)
	of[g*floatSlots], of[g*floatSlots+1], of[g*floatSlots+2] = f0, f1, f2
	of[g*floatSlots+3], of[g*floatSlots+4], of[g*floatSlots+5] = f3, f4, f5
}

// Wave32 runs the wave verbs at a declared width of 32 lanes, in blocks of 80 work-items.
//
//xpu:kernel block=80 wave=32
func Wave32(t xpu.Thread, oi []int32, ou []uint32, of []float32, xi []int32, xu []uint32, xf []float32, sel []uint32, bl, m, d uint32) {
	g := t.GlobalX()
	a, u, f, k := xi[g], xu[g], xf[g], sel[g]
	p := u%4 != 0 || t.GroupX()%2 == 0
	s0 := xpu.WaveSum(t, a)
	s1 := xpu.WaveMin(t, a)
	s2 := xpu.WaveMax(t, a)
	s3 := xpu.WavePrefixSum(t, a)
	s4 := xpu.WaveExclusivePrefixSum(t, a)
	s5 := xpu.WaveBroadcast(t, a, bl)
	s6 := xpu.WaveShuffle(t, a, k)
	s7 := xpu.WaveShuffleXor(t, a, m)
	s8 := xpu.WaveShuffleUp(t, a, d)
	s9 := xpu.WaveShuffleDown(t, a, d)
	oi[g*intSlots], oi[g*intSlots+1], oi[g*intSlots+2], oi[g*intSlots+3], oi[g*intSlots+4] = s0, s1, s2, s3, s4
	oi[g*intSlots+5], oi[g*intSlots+6], oi[g*intSlots+7], oi[g*intSlots+8], oi[g*intSlots+9] = s5, s6, s7, s8, s9
	u0 := xpu.WaveSum(t, u)
	u1 := xpu.WaveMin(t, u)
	u2 := xpu.WaveMax(t, u)
	u3 := xpu.WavePrefixSum(t, u)
	u4 := xpu.WaveExclusivePrefixSum(t, u)
	u5 := xpu.WaveShuffle(t, u, k)
	u6 := xpu.WaveBallot(t, p)
	any := xpu.WaveAny(t, p)
	all := xpu.WaveAll(t, p)
	ou[g*uintSlots], ou[g*uintSlots+1], ou[g*uintSlots+2], ou[g*uintSlots+3], ou[g*uintSlots+4] = u0, u1, u2, u3, u4
	ou[g*uintSlots+5], ou[g*uintSlots+6] = u5, u6
	ou[g*uintSlots+7], ou[g*uintSlots+8] = 0, 0
	if any {
		ou[g*uintSlots+7] = 1
	}
	if all {
		ou[g*uintSlots+8] = 1
	}
	ou[g*uintSlots+9], ou[g*uintSlots+10] = t.LaneIndex(), t.WaveWidth()
	f0 := xpu.WaveSum(t, f)
	f1 := xpu.WaveMin(t, f)
	f2 := xpu.WaveMax(t, f)
	f3 := xpu.WavePrefixSum(t, f)
	f4 := xpu.WaveExclusivePrefixSum(t, f)
	f5 := xpu.WaveShuffleXor(t, f, m)
	of[g*floatSlots], of[g*floatSlots+1], of[g*floatSlots+2] = f0, f1, f2
	of[g*floatSlots+3], of[g*floatSlots+4], of[g*floatSlots+5] = f3, f4, f5
}

// Wave64 runs the wave verbs at a declared width of 64 lanes, in blocks of 96 work-items.
//
//xpu:kernel block=96 wave=64
func Wave64(t xpu.Thread, oi []int32, ou []uint32, of []float32, xi []int32, xu []uint32, xf []float32, sel []uint32, bl, m, d uint32) {
	g := t.GlobalX()
	a, u, f, k := xi[g], xu[g], xf[g], sel[g]
	p := u%4 != 0 || t.GroupX()%2 == 0
	s0 := xpu.WaveSum(t, a)
	s1 := xpu.WaveMin(t, a)
	s2 := xpu.WaveMax(t, a)
	s3 := xpu.WavePrefixSum(t, a)
	s4 := xpu.WaveExclusivePrefixSum(t, a)
	s5 := xpu.WaveBroadcast(t, a, bl)
	s6 := xpu.WaveShuffle(t, a, k)
	s7 := xpu.WaveShuffleXor(t, a, m)
	s8 := xpu.WaveShuffleUp(t, a, d)
	s9 := xpu.WaveShuffleDown(t, a, d)
	oi[g*intSlots], oi[g*intSlots+1], oi[g*intSlots+2], oi[g*intSlots+3], oi[g*intSlots+4] = s0, s1, s2, s3, s4
	oi[g*intSlots+5], oi[g*intSlots+6], oi[g*intSlots+7], oi[g*intSlots+8], oi[g*intSlots+9] = s5, s6, s7, s8, s9
	u0 := xpu.WaveSum(t, u)
	u1 := xpu.WaveMin(t, u)
	u2 := xpu.WaveMax(t, u)
	u3 := xpu.WavePrefixSum(t, u)
	u4 := xpu.WaveExclusivePrefixSum(t, u)
	u5 := xpu.WaveShuffle(t, u, k)
	u6 := uint32(0) // WaveBallot needs a wave of at most 32 lanes
	any := xpu.WaveAny(t, p)
	all := xpu.WaveAll(t, p)
	ou[g*uintSlots], ou[g*uintSlots+1], ou[g*uintSlots+2], ou[g*uintSlots+3], ou[g*uintSlots+4] = u0, u1, u2, u3, u4
	ou[g*uintSlots+5], ou[g*uintSlots+6] = u5, u6
	ou[g*uintSlots+7], ou[g*uintSlots+8] = 0, 0
	if any {
		ou[g*uintSlots+7] = 1
	}
	if all {
		ou[g*uintSlots+8] = 1
	}
	ou[g*uintSlots+9], ou[g*uintSlots+10] = t.LaneIndex(), t.WaveWidth()
	f0 := xpu.WaveSum(t, f)
	f1 := xpu.WaveMin(t, f)
	f2 := xpu.WaveMax(t, f)
	f3 := xpu.WavePrefixSum(t, f)
	f4 := xpu.WaveExclusivePrefixSum(t, f)
	f5 := xpu.WaveShuffleXor(t, f, m)
	of[g*floatSlots], of[g*floatSlots+1], of[g*floatSlots+2] = f0, f1, f2
	of[g*floatSlots+3], of[g*floatSlots+4], of[g*floatSlots+5] = f3, f4, f5
}

// WaveAgnostic runs the wave verbs at the device's own wave width (width-agnostic), in blocks of 100 work-items.
//
//xpu:kernel block=100
func WaveAgnostic(t xpu.Thread, oi []int32, ou []uint32, of []float32, xi []int32, xu []uint32, xf []float32, sel []uint32, bl, m, d uint32) {
	g := t.GlobalX()
	a, u, f, k := xi[g], xu[g], xf[g], sel[g]
	p := u%4 != 0 || t.GroupX()%2 == 0
	s0 := xpu.WaveSum(t, a)
	s1 := xpu.WaveMin(t, a)
	s2 := xpu.WaveMax(t, a)
	s3 := xpu.WavePrefixSum(t, a)
	s4 := xpu.WaveExclusivePrefixSum(t, a)
	s5 := xpu.WaveBroadcast(t, a, bl)
	s6 := xpu.WaveShuffle(t, a, k)
	s7 := xpu.WaveShuffleXor(t, a, m)
	s8 := xpu.WaveShuffleUp(t, a, d)
	s9 := xpu.WaveShuffleDown(t, a, d)
	oi[g*intSlots], oi[g*intSlots+1], oi[g*intSlots+2], oi[g*intSlots+3], oi[g*intSlots+4] = s0, s1, s2, s3, s4
	oi[g*intSlots+5], oi[g*intSlots+6], oi[g*intSlots+7], oi[g*intSlots+8], oi[g*intSlots+9] = s5, s6, s7, s8, s9
	u0 := xpu.WaveSum(t, u)
	u1 := xpu.WaveMin(t, u)
	u2 := xpu.WaveMax(t, u)
	u3 := xpu.WavePrefixSum(t, u)
	u4 := xpu.WaveExclusivePrefixSum(t, u)
	u5 := xpu.WaveShuffle(t, u, k)
	u6 := xpu.WaveBallot(t, p)
	any := xpu.WaveAny(t, p)
	all := xpu.WaveAll(t, p)
	ou[g*uintSlots], ou[g*uintSlots+1], ou[g*uintSlots+2], ou[g*uintSlots+3], ou[g*uintSlots+4] = u0, u1, u2, u3, u4
	ou[g*uintSlots+5], ou[g*uintSlots+6] = u5, u6
	ou[g*uintSlots+7], ou[g*uintSlots+8] = 0, 0
	if any {
		ou[g*uintSlots+7] = 1
	}
	if all {
		ou[g*uintSlots+8] = 1
	}
	ou[g*uintSlots+9], ou[g*uintSlots+10] = t.LaneIndex(), t.WaveWidth()
	f0 := xpu.WaveSum(t, f)
	f1 := xpu.WaveMin(t, f)
	f2 := xpu.WaveMax(t, f)
	f3 := xpu.WavePrefixSum(t, f)
	f4 := xpu.WaveExclusivePrefixSum(t, f)
	f5 := xpu.WaveShuffleXor(t, f, m)
	of[g*floatSlots], of[g*floatSlots+1], of[g*floatSlots+2] = f0, f1, f2
	of[g*floatSlots+3], of[g*floatSlots+4], of[g*floatSlots+5] = f3, f4, f5
}
