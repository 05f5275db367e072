package layout_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/layout"
	"github.com/goxpu/xpu/kernels/layout/layouttest"
	"github.com/goxpu/xpu/kernels/tensor"
)

func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, "github.com/goxpu/xpu/kernels/layout", nil))
}

// TestKernels checks every kernel of layouttest.Cases on every device
// against the reference runner.
func TestKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, layouttest.Cases()) })
}

// TestContiguous checks the entry point on every device against plain
// Go, and its refusals.
func TestContiguous(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, v := range layouttest.Views {
			vals := gputest.Floats(r, v.Span(), -1, 1)
			sb, err := gpu.Upload(d, vals)
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Release()
			src, err := tensor.View(sb, v.Dims, v.Strides)
			if err != nil {
				t.Fatal(err)
			}
			poison := make([]float32, v.N())
			for i := range poison {
				poison[i] = float32(math.NaN())
			}
			db, err := gpu.Upload(d, poison)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Release()
			dst, _ := tensor.Dense(db, v.Dims...)
			if err := layout.Contiguous(d.Stream(), dst, src); err != nil {
				t.Fatalf("%v: %v", v, err)
			}
			got, err := db.Download()
			if err != nil {
				t.Fatal(err)
			}
			// The plain-Go gather: the row-major index's offset.
			want := make([]float32, v.N())
			for i := range want {
				off, r := 0, i
				for k := len(v.Dims) - 1; k >= 0; k-- {
					off += r % v.Dims[k] * v.Strides[k]
					r /= v.Dims[k]
				}
				want[i] = vals[off]
			}
			if !slices.Equal(got, want) {
				t.Errorf("%v: got %v, want %v", v, got[:min(8, len(got))], want[:min(8, len(want))])
			}
		}
		b, _ := gpu.NewBuffer[float32](d, 64)
		defer b.Release()
		m, _ := tensor.Dense(b, 8, 8)
		mt, _ := m.Transpose()
		v, _ := tensor.Dense(b, 64)
		u, _ := gpu.NewBuffer[uint32](d, 64)
		defer u.Release()
		um, _ := tensor.Dense(u, 8, 8)
		for _, c := range []struct {
			name     string
			dst, src tensor.Tensor
			want     error
		}{
			{"shapes that differ", v, mt, gpu.ErrSize},
			{"a strided destination", mt, m, gpu.ErrArgs},
			{"uint32 elements", um, m, gpu.ErrType},
		} {
			if err := layout.Contiguous(d.Stream(), c.dst, c.src); !errors.Is(err, c.want) {
				t.Errorf("%s: %v, want %v", c.name, err, c.want)
			}
		}
	})
}
