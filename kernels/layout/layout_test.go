package layout_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/layout"
	"github.com/goxpu/xpu/kernels/tensor"
)

func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, "github.com/goxpu/xpu/kernels/layout", nil))
}

// exact is Gather's tolerance: it copies.
var exact = gputest.Tolerance{Name: "a copy: bit-exact"}

// view is a strided tensor: its dimensions and strides, padded to four
// leading ones as Gather takes them.
type view struct {
	dims, strides []int
	groups        uint32 // 0: one group per 256 elements
}

func (v view) String() string { return fmt.Sprintf("%v/%v/%d", v.dims, v.strides, v.groups) }

// span is the elements a buffer under the view holds.
func (v view) span() int {
	last := 0
	for i, d := range v.dims {
		last += (d - 1) * v.strides[i]
	}
	return last + 1
}

func (v view) n() int {
	n := 1
	for _, d := range v.dims {
		n *= d
	}
	return n
}

// views are a transposed matrix, one with padded rows, a column, a
// permuted 4-D tensor, a broadcast (stride 0), one element, and a grid
// of two groups for 3000 elements, so that the work-items stride.
var views = []view{
	{[]int{29, 37}, []int{1, 29}, 0},
	{[]int{13, 30}, []int{32, 1}, 0},
	{[]int{50}, []int{3}, 0},
	{[]int{3, 4, 5, 6}, []int{1, 3, 12, 60}, 0},
	{[]int{7, 9}, []int{0, 1}, 0},
	{[]int{1}, []int{1}, 0},
	{[]int{60, 50}, []int{1, 60}, 2},
}

func TestGather(t *testing.T) {
	var cs []*gputest.Case
	for _, v := range views {
		dims, strides := []uint32{1, 1, 1, 1}, []uint32{0, 0, 0, 0}
		for i := range v.dims {
			j := 4 - len(v.dims) + i
			dims[j], strides[j] = uint32(v.dims[i]), uint32(v.strides[i])
		}
		n := uint32(v.n())
		groups := v.groups
		if groups == 0 {
			groups = xpu.GroupsFor(n, 256)
		}
		cs = append(cs, &gputest.Case{
			Kernel: layout.GatherKernel,
			Tol:    exact,
			Setup: func(r *rand.Rand) gputest.Inputs {
				return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
					gputest.Poisoned[float32](int(n)),
					gputest.Buffer(gputest.Floats(r, v.span(), -1, 1)),
					gputest.Scalar(n), gputest.Scalar(dims[1]), gputest.Scalar(dims[2]), gputest.Scalar(dims[3]),
					gputest.Scalar(strides[0]), gputest.Scalar(strides[1]), gputest.Scalar(strides[2]), gputest.Scalar(strides[3]),
				}}
			},
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				u := func(i int) uint32 { return gputest.At[uint32](a, i) }
				return layout.LaunchGather(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[float32]](a, 1), u(2), u(3), u(4), u(5), u(6), u(7), u(8), u(9))
			},
		})
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, cs) })
}

// TestContiguous checks the entry point on every device against plain
// Go, and its refusals.
func TestContiguous(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, v := range views {
			vals := gputest.Floats(r, v.span(), -1, 1)
			sb, err := gpu.Upload(d, vals)
			if err != nil {
				t.Fatal(err)
			}
			defer sb.Release()
			src, err := tensor.View(sb, v.dims, v.strides)
			if err != nil {
				t.Fatal(err)
			}
			poison := make([]float32, v.n())
			for i := range poison {
				poison[i] = float32(math.NaN())
			}
			db, err := gpu.Upload(d, poison)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Release()
			dst, _ := tensor.Dense(db, v.dims...)
			if err := layout.Contiguous(d.Stream(), dst, src); err != nil {
				t.Fatalf("%v: %v", v, err)
			}
			got, err := db.Download()
			if err != nil {
				t.Fatal(err)
			}
			// The plain-Go gather: the row-major index's offset.
			want := make([]float32, v.n())
			for i := range want {
				off, r := 0, i
				for k := len(v.dims) - 1; k >= 0; k-- {
					off += r % v.dims[k] * v.strides[k]
					r /= v.dims[k]
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

// TestCopy checks Copy and CopyWords on every device against the
// reference runner: one element, a partial block, and a grid of two
// blocks for 3000 elements, so that the work-items stride.
func TestCopy(t *testing.T) {
	var cs []*gputest.Case
	for _, c := range []struct{ n, groups uint32 }{{1, 0}, {1000, 0}, {3000, 2}} {
		g := layout.CopyGroups(c.n)
		if c.groups != 0 {
			g.X = c.groups
		}
		cs = append(cs,
			&gputest.Case{Kernel: layout.CopyKernel, Tol: exact,
				Setup: func(r *rand.Rand) gputest.Inputs {
					return gputest.Inputs{Groups: g, Args: []gputest.Arg{gputest.Poisoned[float32](int(c.n)), gputest.Buffer(gputest.Seasoned(r, int(c.n))), gputest.Scalar(c.n)}}
				},
				Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
					return layout.LaunchCopy(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[float32]](a, 1), gputest.At[uint32](a, 2))
				}},
			&gputest.Case{Kernel: layout.CopyWordsKernel, Tol: exact,
				Setup: func(r *rand.Rand) gputest.Inputs {
					w := make([]uint32, c.n)
					for i := range w {
						w[i] = r.Uint32()
					}
					return gputest.Inputs{Groups: g, Args: []gputest.Arg{gputest.Poisoned[uint32](int(c.n)), gputest.Buffer(w), gputest.Scalar(c.n)}}
				},
				Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
					return layout.LaunchCopyWords(s, g, gputest.At[*gpu.Buffer[uint32]](a, 0), gputest.At[*gpu.Buffer[uint32]](a, 1), gputest.At[uint32](a, 2))
				}})
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, cs) })
}
