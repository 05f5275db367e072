package conformance

import "github.com/goxpu/xpu"

// Atomic kernels: each integer atomic on buffers, a float32 atomic add and
// histograms with atomics on a buffer and on a shared array. Every kernel
// is written so that its result does not depend on the order in which
// work-items reach the atomics.

// histBins is the number of bins of the histograms.
const histBins = 64

// Histogram counts the values of in by their low six bits, with atomics on
// the bins buffer.
//
//xpu:kernel block=64
func Histogram(t xpu.Thread, bins []uint32, in []uint32, n uint32) {
	if i := t.GlobalX(); i < n {
		xpu.AtomicAdd(&bins[in[i]%histBins], 1)
	}
}

// HistogramShared counts like Histogram, first into a shared histogram per
// block, then adds each block's bins to the buffer.
//
//xpu:kernel block=64
func HistogramShared(t xpu.Thread, bins []uint32, in []uint32, n uint32) {
	h := xpu.Shared[uint32](t, histBins)
	l := t.LocalX()
	xpu.AtomicStore(&h[l], 0)
	t.Barrier()
	if i := t.GlobalX(); i < n {
		xpu.AtomicAdd(&h[in[i]%histBins], 1)
	}
	t.Barrier()
	if c := xpu.AtomicLoad(&h[l]); c != 0 {
		xpu.AtomicAdd(&bins[l], c)
	}
}

// AtomicAdd adds each value to a counter and takes a ticket: the old value
// of a second counter, which numbers the work-items 0..n-1 in some order.
//
//xpu:kernel block=64
func AtomicAdd(t xpu.Thread, sum []int32, count []uint32, tickets []uint32, in []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	xpu.AtomicAdd(&sum[0], in[i])
	xpu.AtomicAdd(&sum[1+i%3], -in[i])
	k := xpu.AtomicAdd(&count[0], 1)
	tickets[k] = 1
}

// AtomicSub subtracts each value from int32 and uint32 counters.
//
//xpu:kernel block=64
func AtomicSub(t xpu.Thread, ints []int32, uints []uint32, a []int32, b []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	xpu.AtomicSub(&ints[i%4], a[i])
	xpu.AtomicSub(&uints[i%4], b[i])
}

// AtomicMinMax keeps the minimum and the maximum of int32 and uint32
// values, per residue of the index modulo 4.
//
//xpu:kernel block=64
func AtomicMinMax(t xpu.Thread, ints []int32, uints []uint32, a []int32, b []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	r := i % 4
	xpu.AtomicMin(&ints[r], a[i])
	xpu.AtomicMax(&ints[4+r], a[i])
	xpu.AtomicMin(&uints[r], b[i])
	xpu.AtomicMax(&uints[4+r], b[i])
}

// AtomicBits folds values into int32 and uint32 words with atomic and, or
// and xor.
//
//xpu:kernel block=64
func AtomicBits(t xpu.Thread, ints []int32, uints []uint32, a []int32, b []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	xpu.AtomicAnd(&ints[0], a[i]|0x0f0f0f0f)
	xpu.AtomicOr(&ints[1], a[i]&0x01010101)
	xpu.AtomicXor(&ints[2], a[i])
	xpu.AtomicAnd(&uints[0], b[i]|0x70f0f0f0)
	xpu.AtomicOr(&uints[1], b[i]&0x80200401)
	xpu.AtomicXor(&uints[2], b[i])
}

// AtomicExchange swaps a new value into each work-item's own slot and
// keeps the old one.
//
//xpu:kernel block=64
func AtomicExchange(t xpu.Thread, slots []uint32, old []uint32, in []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	old[i] = xpu.AtomicExchange(&slots[i], in[i])
}

// AtomicCompareExchange stores a new value into each work-item's own slot
// when the slot holds the expected one, and records the value it found.
//
//xpu:kernel block=64
func AtomicCompareExchange(t xpu.Thread, slots []int32, found []int32, swapped []uint32, expect, next []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	v := xpu.AtomicCompareExchange(&slots[i], expect[i], next[i])
	found[i] = v
	swapped[i] = 0
	if v == expect[i] {
		swapped[i] = 1
	}
}

// AtomicAddFloat adds each value to one of eight float32 sums. The values
// are small integers, so that every order of addition gives the same sum.
//
//xpu:kernel block=64
func AtomicAddFloat(t xpu.Thread, sums []float32, in []float32, n uint32) {
	if i := t.GlobalX(); i < n {
		xpu.AtomicAddFloat32(&sums[i%8], in[i])
	}
}
