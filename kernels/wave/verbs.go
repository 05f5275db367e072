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

// Width is the comptime configuration of a Verbs member: its declared
// wave width and its block, which is no multiple of the width.
type Width struct {
	W     uint32 // lanes of a wave: 4, 8, 16, 32 or 64
	Block uint32 // work-items of a block
}

// Verbs runs the wave verbs at the declared width c.W, in blocks of
// c.Block work-items; each member is a kernel of the suite.
//
//xpu:kernel block=c.Block wave=c.W
//xpu:instance Wave4 Width{W: 4, Block: 30}
//xpu:instance Wave8 Width{W: 8, Block: 60}
//xpu:instance Wave16 Width{W: 16, Block: 40}
//xpu:instance Wave32 Width{W: 32, Block: 80}
//xpu:instance Wave64 Width{W: 64, Block: 96}
func Verbs(t xpu.Thread, c Width, oi []int32, ou []uint32, of []float32, xi []int32, xu []uint32, xf []float32, sel []uint32, bl, m, d uint32) {
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
	u6 := uint32(0)
	if c.W <= 32 {
		// WaveBallot's mask holds 32 lanes; the 64-lane member leaves
		// the slot 0, as its reference does.
		u6 = xpu.WaveBallot(t, p)
	}
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
// It is no member of Verbs: a member's wave= always declares a width.
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
