// Package layouttest holds the cases of package layout's kernels: the
// strided gather and the copies of float32s and of words, each launched
// through its launcher on fresh random inputs with poisoned outputs,
// against the reference runner, bit for bit. The package's tests run them
// on every device, and so does any program that checks the library where
// tests cannot run (the browser demo). It sits above layout and gputest.
package layouttest

import (
	"fmt"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/layout"
)

// exact is the kernels' tolerance: they copy.
var exact = gputest.Tolerance{Name: "a copy: bit-exact"}

// View is a strided tensor: its dimensions and strides.
type View struct {
	Dims, Strides []int
	Groups        uint32 // the gather's grid; 0: one group per 256 elements
}

func (v View) String() string { return fmt.Sprintf("%v/%v/%d", v.Dims, v.Strides, v.Groups) }

// Span is the elements a buffer under the view holds.
func (v View) Span() int {
	last := 0
	for i, d := range v.Dims {
		last += (d - 1) * v.Strides[i]
	}
	return last + 1
}

// N is the view's elements.
func (v View) N() int {
	n := 1
	for _, d := range v.Dims {
		n *= d
	}
	return n
}

// Views are a transposed matrix, one with padded rows, a column, a
// permuted 4-D tensor, a broadcast (stride 0), one element, and a grid
// of two groups for 3000 elements, so that the work-items stride.
var Views = []View{
	{[]int{29, 37}, []int{1, 29}, 0},
	{[]int{13, 30}, []int{32, 1}, 0},
	{[]int{50}, []int{3}, 0},
	{[]int{3, 4, 5, 6}, []int{1, 3, 12, 60}, 0},
	{[]int{7, 9}, []int{0, 1}, 0},
	{[]int{1}, []int{1}, 0},
	{[]int{60, 50}, []int{1, 60}, 2},
}

// gatherCase is Gather at v, its dimensions and strides padded to the
// four, leading ones, that it takes.
func gatherCase(v View) *gputest.Case {
	dims, strides := []uint32{1, 1, 1, 1}, []uint32{0, 0, 0, 0}
	for i := range v.Dims {
		j := 4 - len(v.Dims) + i
		dims[j], strides[j] = uint32(v.Dims[i]), uint32(v.Strides[i])
	}
	n := uint32(v.N())
	groups := v.Groups
	if groups == 0 {
		groups = xpu.GroupsFor(n, 256)
	}
	return &gputest.Case{
		Kernel: layout.GatherKernel,
		Tol:    exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
				gputest.Poisoned[float32](int(n)),
				gputest.Buffer(gputest.Floats(r, v.Span(), -1, 1)),
				gputest.Scalar(n), gputest.Scalar(dims[1]), gputest.Scalar(dims[2]), gputest.Scalar(dims[3]),
				gputest.Scalar(strides[0]), gputest.Scalar(strides[1]), gputest.Scalar(strides[2]), gputest.Scalar(strides[3]),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			u := func(i int) uint32 { return gputest.At[uint32](a, i) }
			return layout.LaunchGather(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[float32]](a, 1), u(2), u(3), u(4), u(5), u(6), u(7), u(8), u(9))
		},
	}
}

// copyCases are Copy and CopyWords at n elements over groups blocks (0:
// CopyGroups of n).
func copyCases(n, groups uint32) []*gputest.Case {
	g := layout.CopyGroups(n)
	if groups != 0 {
		g.X = groups
	}
	return []*gputest.Case{
		{Kernel: layout.CopyKernel, Tol: exact,
			Setup: func(r *rand.Rand) gputest.Inputs {
				return gputest.Inputs{Groups: g, Args: []gputest.Arg{gputest.Poisoned[float32](int(n)), gputest.Buffer(gputest.Seasoned(r, int(n))), gputest.Scalar(n)}}
			},
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				return layout.LaunchCopy(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[float32]](a, 1), gputest.At[uint32](a, 2))
			}},
		{Kernel: layout.CopyWordsKernel, Tol: exact,
			Setup: func(r *rand.Rand) gputest.Inputs {
				return gputest.Inputs{Groups: g, Args: []gputest.Arg{gputest.Poisoned[uint32](int(n)), gputest.Buffer(gputest.AnyUints(r, int(n))), gputest.Scalar(n)}}
			},
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				return layout.LaunchCopyWords(s, g, gputest.At[*gpu.Buffer[uint32]](a, 0), gputest.At[*gpu.Buffer[uint32]](a, 1), gputest.At[uint32](a, 2))
			}},
	}
}

// Cases returns the cases of every kernel: Gather at every view of
// Views, and the copies at one element, a partial block, and a grid of
// two blocks for 3000 elements, so that the work-items stride.
func Cases() []*gputest.Case {
	var cs []*gputest.Case
	for _, v := range Views {
		cs = append(cs, gatherCase(v))
	}
	for _, c := range []struct{ n, groups uint32 }{{1, 0}, {1000, 0}, {3000, 2}} {
		cs = append(cs, copyCases(c.n, c.groups)...)
	}
	return cs
}
