package simd

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortLengths cross the thresholds: none, one, the insertion sort's
// longest and one past it, a goroutine's shortest run and around it, and
// runs of unequal lengths.
// Under the race detector, the longest are left out: they take minutes.
var sortLengths = func() []int {
	ns := []int{0, 1, insertionMax, insertionMax + 1, radixMin - 1, radixMin, 2*radixMin + 1, 3*radixMin + 5, 1 << 18}
	if underRace {
		return ns[:len(ns)-2]
	}
	return ns
}()

// sortKeys are the key distributions: any bits (four passes), a small
// range (one pass, three skipped), one value (all skipped), and keys
// that differ only in the top digit or only in the two middle ones.
var sortKeys = map[string]func(r *rand.Rand) uint32{
	"any":    func(r *rand.Rand) uint32 { return r.Uint32() },
	"small":  func(r *rand.Rand) uint32 { return r.Uint32N(200) },
	"one":    func(*rand.Rand) uint32 { return 0xdeadbeef },
	"top":    func(r *rand.Rand) uint32 { return r.Uint32()&0xff000000 | 0x5a },
	"middle": func(r *rand.Rand) uint32 { return r.Uint32()&0x00ffff00 | 0x7f000001 },
}

func TestSortUint32(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for name, key := range sortKeys {
		for _, n := range sortLengths {
			for _, procs := range []int{0, 1, 2, 3} {
				keys := make([]uint32, n)
				for i := range keys {
					keys[i] = key(r)
				}
				want := slices.Sorted(slices.Values(keys))
				var scratch []uint32
				if procs == 2 { // a caller's scratch, longer than needed and poisoned
					scratch = slices.Repeat([]uint32{0xbad}, n+7)
				}
				SortUint32(keys, scratch, procs)
				if !slices.Equal(keys, want) {
					t.Fatalf("%s keys, n=%d, procs %d: not the sorted keys (first difference at %d)", name, n, procs, firstDiff(keys, want))
				}
			}
		}
	}
}

func TestSortPairsUint32(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for name, key := range sortKeys {
		for _, n := range sortLengths {
			for _, procs := range []int{0, 1, 3} {
				keys, values := make([]uint32, n), make([]uint32, n)
				for i := range keys {
					keys[i], values[i] = key(r), uint32(i)
				}
				// The stable order: by key, then by place.
				want := slices.Clone(values)
				slices.SortStableFunc(want, func(a, b uint32) int { return cmp.Compare(keys[a], keys[b]) })
				wantKeys := make([]uint32, n)
				for i, v := range want {
					wantKeys[i] = keys[v]
				}
				if err := SortPairsUint32(keys, values, nil, nil, procs); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(keys, wantKeys) || !slices.Equal(values, want) {
					t.Fatalf("%s keys, n=%d, procs %d: not the stable order (keys differ at %d, values at %d)",
						name, n, procs, firstDiff(keys, wantKeys), firstDiff(values, want))
				}
			}
		}
	}
}

func TestSortPairsUint32Refusal(t *testing.T) {
	err := SortPairsUint32(make([]uint32, 4), make([]uint32, 3), nil, nil, 1)
	if !errors.Is(err, ErrArgs) || err.Error() != fmt.Sprintf("simd: SortPairsUint32: 3 values for 4 keys: %v", ErrArgs) {
		t.Errorf("values shorter than keys: %v", err)
	}
}

func firstDiff(a, b []uint32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
