package sort_test

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/sort"
)

// lengths are the lengths the entry points are checked at: one key, the
// bitonic sort's lengths (short of a block, past it, MaxSmall) and the
// radix sort's (MaxSmall+1, over a run, runs and a part, a length over
// a dozen blocks, and one of MaxItems runs of more than the shortest run).
// The devices run them without the reference runner; short mode keeps
// lengths up to some runs.
var lengths = []int{1, 2, 255, 1000, 1024, 1025, 4000, 4096*3 + 7, 100003, 1<<19 + 3}

func checkedLengths() []int {
	if testing.Short() {
		return lengths[:8]
	}
	return lengths
}

// kind is a way to make keys.
type kind struct {
	name string
	make func(r *rand.Rand, n int) []uint32
}

// kinds are the keys the entry points sort: any values; many duplicates;
// all equal; already sorted; reversed; and keys that differ in the top
// digit alone.
var kinds = []kind{
	{"any", func(r *rand.Rand, n int) []uint32 { return gputest.AnyUints(r, n) }},
	{"duplicates", func(r *rand.Rand, n int) []uint32 { return gputest.Uints(r, n, 0, 9) }},
	{"equal", func(r *rand.Rand, n int) []uint32 { return gputest.FillFrom(n, func(int) uint32 { return 0xdead }) }},
	{"sorted", func(r *rand.Rand, n int) []uint32 {
		k := gputest.AnyUints(r, n)
		slices.Sort(k)
		return k
	}},
	{"reversed", func(r *rand.Rand, n int) []uint32 {
		k := gputest.AnyUints(r, n)
		slices.Sort(k)
		slices.Reverse(k)
		return k
	}},
	{"top digit", func(r *rand.Rand, n int) []uint32 {
		return gputest.FillFrom(n, func(int) uint32 { return r.Uint32N(16) << 28 })
	}},
}

// forEachInput runs f on every device with a Sorter for the longest
// length, for every length and kind of keys.
func forEachInput(t *testing.T, f func(t *testing.T, d *gpu.Device, so *sort.Sorter, keys []uint32)) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		ls := checkedLengths()
		so, err := sort.New(d, slices.Max(ls))
		if err != nil {
			t.Fatal(err)
		}
		defer so.Release()
		r := rand.New(rand.NewPCG(1, 2))
		for _, n := range ls {
			for _, k := range kinds {
				t.Run(fmt.Sprintf("n=%d,%s", n, k.name), func(t *testing.T) { f(t, d, so, k.make(r, n)) })
			}
		}
	})
}

// upload uploads data, failing the test on an error.
func upload(t *testing.T, d *gpu.Device, data []uint32) *gpu.Buffer[uint32] {
	t.Helper()
	b, err := gpu.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}

// download reads b back, failing the test on an error.
func download(t *testing.T, b *gpu.Buffer[uint32]) []uint32 {
	t.Helper()
	got, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// firstDiff fails the test at the first index where got and want differ.
func firstDiff(t *testing.T, what string, got, want []uint32) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s[%d] = %#x, want %#x (of %d)", what, i, got[i], want[i], len(want))
		}
	}
}

// TestKeys checks Keys against slices.Sort.
func TestKeys(t *testing.T) {
	forEachInput(t, func(t *testing.T, d *gpu.Device, so *sort.Sorter, keys []uint32) {
		b := upload(t, d, keys)
		if err := so.Keys(d.Stream(), b); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		firstDiff(t, "keys", download(t, b), want)
	})
}

// TestPairs checks Pairs against slices.SortStableFunc of (key, index)
// pairs: each value is its key's index, so a value that strays from its
// key, or equal keys out of their order, is caught.
func TestPairs(t *testing.T) {
	forEachInput(t, func(t *testing.T, d *gpu.Device, so *sort.Sorter, keys []uint32) {
		values := gputest.FillFrom(len(keys), func(i int) uint32 { return uint32(i) })
		kb, vb := upload(t, d, keys), upload(t, d, values)
		if err := so.Pairs(d.Stream(), kb, vb); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(values)
		slices.SortStableFunc(want, func(a, b uint32) int { return cmp.Compare(keys[a], keys[b]) })
		wantKeys := make([]uint32, len(keys))
		for i, v := range want {
			wantKeys[i] = keys[v]
		}
		firstDiff(t, "keys", download(t, kb), wantKeys)
		firstDiff(t, "values", download(t, vb), want)
	})
}

// TestSortRuns checks SortSmall and SortRuns against slices.Sort of each
// run, and SortRuns of more runs than a row of its grid holds.
func TestSortRuns(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(3, 4))
		for _, c := range []struct{ n, length int }{{1, 1}, {3, 3}, {700, 700}, {1024, 1024}, {5000, 1024}, {999, 100}, {17, 1}, {140001, 2}} {
			for _, k := range kinds {
				t.Run(fmt.Sprintf("n=%d,length=%d,%s", c.n, c.length, k.name), func(t *testing.T) {
					keys := k.make(r, c.n)
					b := upload(t, d, keys)
					var err error
					if c.n == c.length {
						err = sort.SortSmall(d.Stream(), b)
					} else {
						err = sort.SortRuns(d.Stream(), b, c.length)
					}
					if err != nil {
						t.Fatal(err)
					}
					want := slices.Clone(keys)
					for s := 0; s < c.n; s += c.length {
						slices.Sort(want[s:min(s+c.length, c.n)])
					}
					firstDiff(t, "keys", download(t, b), want)
				})
			}
		}
	})
}

// TestRefusals checks that bad arguments get an error wrapping the rule's
// error, before anything is launched.
func TestRefusals(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		so, err := sort.New(d, 2000)
		if err != nil {
			t.Fatal(err)
		}
		defer so.Release()
		s := d.Stream()
		short, long, big := upload(t, d, make([]uint32, 10)), upload(t, d, make([]uint32, 1500)), upload(t, d, make([]uint32, 3000))
		var none *sort.Sorter
		for _, c := range []struct {
			name string
			err  error
			want error
		}{
			{"New nil device", second(sort.New(nil, 10)), gpu.ErrArgs},
			{"New maxN 0", second(sort.New(d, 0)), gpu.ErrSize},
			{"nil Sorter", none.Keys(s, short), gpu.ErrArgs},
			{"nil stream", so.Keys(nil, short), gpu.ErrArgs},
			{"nil keys", so.Keys(s, nil), gpu.ErrArgs},
			{"keys past maxN", so.Keys(s, big), gpu.ErrSize},
			{"nil values", so.Pairs(s, short, nil), gpu.ErrArgs},
			{"values of another length", so.Pairs(s, long, short), gpu.ErrSize},
			{"keys are values", so.Pairs(s, short, short), gpu.ErrArgs},
			{"SortSmall past MaxSmall", sort.SortSmall(s, long), gpu.ErrSize},
			{"SortSmall nil keys", sort.SortSmall(s, nil), gpu.ErrArgs},
			{"SortRuns run 0", sort.SortRuns(s, short, 0), gpu.ErrSize},
			{"SortRuns run past MaxSmall", sort.SortRuns(s, long, 1025), gpu.ErrSize},
			{"SortRuns nil stream", sort.SortRuns(nil, short, 4), gpu.ErrArgs},
		} {
			if !errors.Is(c.err, c.want) {
				t.Errorf("%s: got %v, want an error wrapping %v", c.name, c.err, c.want)
			}
		}
	})
}

func second[T any](_ T, err error) error { return err }

// TestReuse checks a Sorter that sorts a long buffer, then shorter ones of
// fewer blocks, whose passes leave the long one's counts in the
// histogram's tail.
func TestReuse(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		so, err := sort.New(d, 100003)
		if err != nil {
			t.Fatal(err)
		}
		defer so.Release()
		r := rand.New(rand.NewPCG(7, 8))
		for _, n := range []int{100003, 9000, 1025, 30000} {
			keys := gputest.AnyUints(r, n)
			b := upload(t, d, keys)
			if err := so.Keys(d.Stream(), b); err != nil {
				t.Fatal(err)
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			firstDiff(t, fmt.Sprintf("n=%d: keys", n), download(t, b), want)
		}
	})
}
