package kernels_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels"
	"github.com/goxpu/xpu/kernels/tensor"
)

// TestReductions runs the reductions and scans through the registry on
// every device, on a matrix (its elements in row-major order), against
// plain Go: a float32 sum of n values in [0, 1) in any tree order within
// n roundings of 2^-24 of the exact sum, the maximum, its index and the
// uint32 sums exactly. The uint32 ones are selected by their operands'
// format.
func TestReductions(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(17, 18))
		const rows, cols = 50, 97
		const n = rows * cols
		x, xv := matrix(t, d, r, rows, cols)
		y, yv := matrix(t, d, r, rows, cols)
		s := d.Stream()
		one := poisoned(t, d, 1)
		var sum, dot float64
		for i := range xv {
			sum += float64(xv[i])
			dot += float64(xv[i]) * float64(yv[i])
		}
		within := func(what string, got float32, want float64) {
			if e := math.Abs(float64(got) - want); !(e <= n*0x1p-24*want) {
				t.Errorf("%s: %v, want %v", what, got, want)
			}
		}
		if err := kernels.Sum(s, nil, one, x); err != nil {
			t.Fatal(err)
		}
		within("sum", download(t, s, one)[0], sum)
		if err := kernels.Dot(s, nil, one, x, y); err != nil {
			t.Fatal(err)
		}
		within("dot", download(t, s, one)[0], dot)
		if err := kernels.Max(s, nil, one, x); err != nil {
			t.Fatal(err)
		}
		if got := download(t, s, one)[0]; got != slices.Max(xv) {
			t.Errorf("max: %v, want %v", got, slices.Max(xv))
		}
		ib, _ := gpu.NewBuffer[uint32](d, 1)
		defer ib.Release()
		it, _ := tensor.Dense(ib, 1)
		if err := kernels.ArgMax(s, nil, it, x); err != nil {
			t.Fatal(err)
		}
		if got, _ := ib.Download(); int(got[0]) != slices.Index(xv, slices.Max(xv)) {
			t.Errorf("argmax: %d, want %d", got[0], slices.Index(xv, slices.Max(xv)))
		}
		sc := poisoned(t, d, rows, cols)
		if err := kernels.Scan(s, nil, sc, x, true); err != nil {
			t.Fatal(err)
		}
		got := download(t, s, sc)
		var run float64
		for i, v := range xv {
			if e := math.Abs(float64(got[i]) - run); !(e <= 2*n*0x1p-24*run) {
				t.Fatalf("exclusive scan: element %d is %v, want %v", i, got[i], run)
			}
			run += float64(v)
		}

		uv := make([]uint32, n)
		var usum uint32
		for i := range uv {
			uv[i] = r.Uint32()
			usum += uv[i]
		}
		ub, _ := gpu.Upload(d, uv)
		defer ub.Release()
		ut, _ := tensor.Dense(ub, rows, cols)
		ob, _ := gpu.NewBuffer[uint32](d, n)
		defer ob.Release()
		ot, _ := tensor.Dense(ob, rows, cols)
		p, err := kernels.Registry.Lookup(d, kernels.OpSum, nil, it, ut)
		if err != nil || p.Kernel.Name != "kernels/reduce.Reducer.SumUint32" {
			t.Fatalf("a uint32 sum: %+v, %v", p, err)
		}
		if err := kernels.Sum(s, nil, it, ut); err != nil {
			t.Fatal(err)
		}
		if got, _ := ib.Download(); got[0] != usum {
			t.Errorf("uint32 sum: %d, want %d (mod 2^32)", got[0], usum)
		}
		if err := kernels.Scan(s, nil, ot, ut, false); err != nil {
			t.Fatal(err)
		}
		scan, _ := ob.Download()
		var acc uint32
		for i, v := range uv {
			acc += v
			if scan[i] != acc {
				t.Fatalf("uint32 inclusive scan: element %d is %d, want %d", i, scan[i], acc)
			}
		}
		if err := kernels.Sum(s, nil, x, x); err == nil {
			t.Error("a sum into a matrix was accepted")
		}
	})
}
