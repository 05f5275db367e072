package kernels_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels"
	"github.com/goxpu/xpu/kernels/tensor"
)

// TestSort sorts matrices of uint32 keys through the registry on every
// device, a short one and then longer ones on the same stream (its
// Sorter grown), against slices.Sort; and pairs, many keys equal, against
// slices.SortStableFunc, each value moving with its key in order.
func TestSort(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(19, 20))
		s := d.Stream()
		keys := func(n, distinct int) []uint32 {
			v := make([]uint32, n)
			for i := range v {
				v[i] = r.Uint32N(uint32(distinct))
			}
			return v
		}
		tensorOf := func(v []uint32, rows int) (tensor.Tensor, *gpu.Buffer[uint32]) {
			b, err := gpu.Upload(d, v)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(b.Release)
			x, err := tensor.Dense(b, rows, len(v)/rows)
			if err != nil {
				t.Fatal(err)
			}
			return x, b
		}
		for _, n := range []int{100, 3000, 20000} {
			v := keys(n, 1<<30)
			x, b := tensorOf(v, 10)
			if err := kernels.Sort(s, nil, x); err != nil {
				t.Fatal(err)
			}
			got, err := b.Download()
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(v)
			if !slices.Equal(got, v) {
				t.Fatalf("%d keys: not sorted as slices.Sort sorts them", n)
			}
		}
		const n = 5000
		kv, vv := keys(n, 50), make([]uint32, n)
		for i := range vv {
			vv[i] = uint32(i)
		}
		k, kb := tensorOf(kv, 50)
		v, vb := tensorOf(vv, 50)
		if err := kernels.SortPairs(s, nil, k, v); err != nil {
			t.Fatal(err)
		}
		gotK, _ := kb.Download()
		gotV, _ := vb.Download()
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(kv[a], kv[b]) })
		for i, j := range idx {
			if gotK[i] != kv[j] || gotV[i] != uint32(j) {
				t.Fatalf("pair %d is (%d, %d), want (%d, %d)", i, gotK[i], gotV[i], kv[j], j)
			}
		}
	})
}
