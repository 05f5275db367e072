package simd

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// This file is the host's sort of uint32 keys, alone or with uint32
// values: a least-significant-digit radix sort of four 8-bit digits,
// on several goroutines. The histograms of all four digits are taken
// in one read of the keys; a digit that every key shares is skipped.
// Each other pass splits the keys into one contiguous run a goroutine,
// counts each run's digits, and scatters each run to the offsets its
// counts give, so the sort is stable, as a sort of pairs must be.

// radixMin is the shortest run a goroutine takes: below it the
// goroutines' start and the offsets' sums cost more than they save.
const radixMin = 1 << 16

// insertionMax is the longest input sorted by slices.Sort (pdqsort,
// an insertion sort when this short) instead of by digits.
const insertionMax = 256

// SortUint32 sorts keys ascending, in place, on at most procs goroutines
// (GOMAXPROCS when procs < 1). scratch, if at least as long as keys, is
// used for the passes; else one is allocated.
func SortUint32(keys, scratch []uint32, procs int) {
	if len(keys) <= insertionMax {
		slices.Sort(keys)
		return
	}
	radix(keys, nil, scratch, nil, procs)
}

// SortPairsUint32 sorts keys ascending and stably, in place, each of
// values moving with its key, on at most procs goroutines. kscratch and
// vscratch, if as long as keys, are used for the passes. It returns an
// error wrapping ErrArgs when values is not as long as keys.
func SortPairsUint32(keys, values, kscratch, vscratch []uint32, procs int) error {
	if len(values) != len(keys) {
		return fmt.Errorf("simd: SortPairsUint32: %d values for %d keys: %w", len(values), len(keys), ErrArgs)
	}
	if len(keys) < 2 {
		return nil
	}
	if len(vscratch) < len(keys) {
		vscratch = make([]uint32, len(keys))
	}
	radix(keys, values, kscratch, vscratch, procs)
	return nil
}

// radix sorts keys, and values with them when not nil.
func radix(keys, values, ks, vs []uint32, procs int) {
	n := len(keys)
	if len(ks) < n {
		ks = make([]uint32, n)
	}
	ks, vs = ks[:n], vs[:min(len(vs), n)]
	if procs < 1 {
		procs = runtime.GOMAXPROCS(0)
	}
	procs = max(1, min(procs, n/radixMin))
	var whole [4][256]int
	countAll(keys, &whole, procs)
	src, dst, srcV, dstV := keys, ks, values, vs
	counts := make([][256]int, procs)
	for d := range 4 {
		if whole[d][digit(keys[0], d)] == n { // every key shares it
			continue
		}
		runs := split(n, procs)
		parallel(procs, func(p int) {
			c := &counts[p]
			*c = [256]int{}
			for _, k := range src[runs[p]:runs[p+1]] {
				c[digit(k, d)]++
			}
		})
		// Each run's offset of a digit: the keys of smaller digits, then
		// the earlier runs' keys of this digit.
		at := 0
		for b := range 256 {
			for p := range procs {
				c := counts[p][b]
				counts[p][b] = at
				at += c
			}
		}
		parallel(procs, func(p int) {
			off := &counts[p]
			lo, hi := runs[p], runs[p+1]
			if srcV == nil {
				for _, k := range src[lo:hi] {
					b := digit(k, d)
					dst[off[b]] = k
					off[b]++
				}
				return
			}
			for i, k := range src[lo:hi] {
				b := digit(k, d)
				dst[off[b]], dstV[off[b]] = k, srcV[lo+i]
				off[b]++
			}
		})
		src, dst, srcV, dstV = dst, src, dstV, srcV
	}
	if &src[0] != &keys[0] { // an odd number of passes ran
		copy(keys, src)
		if values != nil {
			copy(values, srcV)
		}
	}
}

// digit is the d-th 8-bit digit of k, the least significant first.
func digit(k uint32, d int) uint8 { return uint8(k >> (8 * d)) }

// countAll adds the histograms of the four digits of keys to whole.
func countAll(keys []uint32, whole *[4][256]int, procs int) {
	parts := make([][4][256]int, procs)
	runs := split(len(keys), procs)
	parallel(procs, func(p int) {
		c := &parts[p]
		for _, k := range keys[runs[p]:runs[p+1]] {
			c[0][uint8(k)]++
			c[1][uint8(k>>8)]++
			c[2][uint8(k>>16)]++
			c[3][k>>24]++
		}
	})
	for p := range parts {
		for d := range 4 {
			for b := range 256 {
				whole[d][b] += parts[p][d][b]
			}
		}
	}
}

// split divides n into procs runs: run p is [r[p], r[p+1]).
func split(n, procs int) []int {
	r := make([]int, procs+1)
	for p := range procs + 1 {
		r[p] = n * p / procs
	}
	return r
}

// parallel runs f(0) .. f(procs-1), f(0) on the calling goroutine.
func parallel(procs int, f func(p int)) {
	if procs == 1 {
		f(0)
		return
	}
	var wg sync.WaitGroup
	for p := 1; p < procs; p++ {
		wg.Go(func() { f(p) })
	}
	f(0)
	wg.Wait()
}
