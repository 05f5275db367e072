package blas_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/blas"
)

// TestMain runs the tests, then the kernel census of the package: every
// kernel must compute what its reference does on every backend it ran on.
func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, "github.com/goxpu/xpu/kernels/blas", nil))
}

// strided returns a vector of n elements stored inc apart as BLAS stores
// it (from the last element when inc is negative): values from r in
// [lo, 1), and NaN in the gaps, so that a read of one shows and a write
// to one is caught; all NaN when nan is set.
func strided(r *rand.Rand, n, inc int, lo float32, nan bool) []float32 {
	step := max(inc, -inc)
	v := make([]float32, (n-1)*step+1)
	for i := range v {
		v[i] = float32(math.NaN())
		if i%step == 0 && !nan {
			v[i] = lo + (1-lo)*r.Float32()
		}
	}
	return v
}

// element returns element i of a vector of n elements stored inc apart.
func element(v []float32, n, inc, i int) float32 {
	if inc < 0 {
		return v[(n-1-i)*-inc]
	}
	return v[i*inc]
}

// matrix returns a row-major m x n matrix, rows lda apart, values from r
// in [lo, 1) and NaN in the gaps past each row.
func matrix(r *rand.Rand, m, n, lda int, lo float32) []float32 {
	v := make([]float32, (m-1)*lda+n)
	for i := range v {
		v[i] = float32(math.NaN())
		if i%lda < n {
			v[i] = lo + (1-lo)*r.Float32()
		}
	}
	return v
}

// sumTolerance bounds an element that adds n products, then alpha's and
// beta's steps, to the reference's: both add in the same order, but a
// device may fuse each multiply-add where the reference rounds the
// product first, half an ulp a step that the sum carries on; on operands
// in [0, 1) scaled by alike signs nothing cancels, so the difference
// stays within n+2 units of 2^-23 relative to the result.
func sumTolerance(n int) gputest.Tolerance {
	return gputest.Tolerance{
		Name: fmt.Sprintf("sums of %d products of alike signs in the reference's order, then alpha and beta, each step may be fused: (n+2)*2^-23 relative", n),
		ULP:  1,
		Rel:  float64(n+2) * 0x1p-23,
	}
}

// gemvLayout is one Gemv case: the shape, lda's excess over the row, the
// increments and the scalars.
type gemvLayout struct {
	m, n, pad   int
	incX, incY  int
	alpha, beta float32
}

func (l gemvLayout) String() string {
	return fmt.Sprintf("%dx%d/pad%d/incX%d/incY%d/alpha%g/beta%g", l.m, l.n, l.pad, l.incX, l.incY, l.alpha, l.beta)
}

// gemvLayouts are a single element, shapes that fill no block and several
// blocks (and more rows or columns than one grid of 3 blocks covers, so
// that the blocks step), increments of 1, past 1 and negative, beta 0
// over a NaN y and both scalars set (alike signs, so that nothing
// cancels under the tolerance). Short mode and the race detector keep
// the smaller shapes.
func gemvLayouts() []gemvLayout {
	ls := []gemvLayout{
		{m: 1, n: 1, incX: 1, incY: 1, alpha: 1},
		{m: 37, n: 45, pad: 3, incX: 2, incY: -3, alpha: 1.5},
		{m: 45, n: 37, pad: 0, incX: -1, incY: 2, alpha: -0.5, beta: -2},
	}
	if !testing.Short() && !underRace {
		ls = append(ls, gemvLayout{m: 200, n: 130, pad: 1, incX: 1, incY: 1, alpha: 0.75, beta: 0.5},
			gemvLayout{m: 70, n: 300, pad: 5, incX: -2, incY: -1, alpha: 2})
	}
	return ls
}

// gemvCase is the case of kernel k (GemvN, or GemvT when trans) in layout
// l, over a grid of at most 3 blocks.
func gemvCase(l gemvLayout, trans bool) *gputest.Case {
	k, launch, lenX, lenY, per := blas.GemvNKernel, blas.LaunchGemvN, l.n, l.m, 8
	if trans {
		k, launch, lenX, lenY, per = blas.GemvTKernel, blas.LaunchGemvT, l.m, l.n, 32
	}
	lda := l.n + l.pad
	return &gputest.Case{
		Kernel: k,
		Tol:    sumTolerance(lenX),
		Setup: func(r *rand.Rand) gputest.Inputs {
			groups := min(xpu.GroupsFor(uint32(lenY), uint32(per)), 3)
			return gputest.Inputs{Groups: xpu.Dim3{X: groups, Y: 1, Z: 1}, Args: []gputest.Arg{
				gputest.Buffer(strided(r, lenY, l.incY, 0, l.beta == 0)),
				gputest.Buffer(matrix(r, l.m, l.n, lda, 0)),
				gputest.Buffer(strided(r, lenX, l.incX, 0, false)),
				gputest.Scalar(uint32(l.m)), gputest.Scalar(uint32(l.n)), gputest.Scalar(uint32(lda)),
				gputest.Scalar(int32(l.incX)), gputest.Scalar(int32(l.incY)),
				gputest.Scalar(l.alpha), gputest.Scalar(l.beta),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			buf := func(i int) *gpu.Buffer[float32] { return gputest.At[*gpu.Buffer[float32]](a, i) }
			u := func(i int) uint32 { return gputest.At[uint32](a, i) }
			in := func(i int) int32 { return gputest.At[int32](a, i) }
			f := func(i int) float32 { return gputest.At[float32](a, i) }
			return launch(s, g, buf(0), buf(1), buf(2), u(3), u(4), u(5), in(6), in(7), f(8), f(9))
		},
	}
}

// TestGemv checks GemvN and GemvT on every device present against the
// reference runner in every layout.
func TestGemv(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, l := range gemvLayouts() {
			t.Run(l.String(), func(t *testing.T) {
				gputest.Check(t, d, []*gputest.Case{gemvCase(l, false), gemvCase(l, true)})
			})
		}
	})
}

// vectorLayout is one level-1 case: the length, the increments, alpha,
// and the grid, smaller than the vector's so that the work-items step.
type vectorLayout struct {
	n, incX, incY int
	alpha         float32
	groups        uint32
}

func (l vectorLayout) String() string {
	return fmt.Sprintf("n%d/incX%d/incY%d/alpha%g/groups%d", l.n, l.incX, l.incY, l.alpha, l.groups)
}

// vectorLayouts are a single element, a vector past one grid of blocks,
// increments of 1, past 1 and negative, and alpha 0 (which Scal must not
// read x under).
var vectorLayouts = []vectorLayout{
	{n: 1, incX: 1, incY: 1, alpha: 2, groups: 1},
	{n: 1000, incX: 1, incY: 1, alpha: -1.5, groups: 2},
	{n: 777, incX: 3, incY: -2, alpha: 0.5, groups: 1},
	{n: 300, incX: -1, incY: 4, alpha: 0, groups: 2},
}

// TestLevel1 checks Axpy and Scal on every device present against the
// reference runner in every layout. y = alpha*x + y is one multiply-add,
// which a device may fuse: half an ulp.
func TestLevel1(t *testing.T) {
	tol := gputest.Tolerance{Name: "one multiply-add, which may be fused: 1 ulp", ULP: 1}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, l := range vectorLayouts {
			g := xpu.Dim3{X: l.groups, Y: 1, Z: 1}
			axpy := &gputest.Case{
				Kernel: blas.AxpyKernel,
				Tol:    tol,
				Setup: func(r *rand.Rand) gputest.Inputs {
					return gputest.Inputs{Groups: g, Args: []gputest.Arg{
						gputest.Buffer(strided(r, l.n, l.incY, -1, false)), gputest.Buffer(strided(r, l.n, l.incX, -1, false)),
						gputest.Scalar(uint32(l.n)), gputest.Scalar(int32(l.incX)), gputest.Scalar(int32(l.incY)), gputest.Scalar(l.alpha),
					}}
				},
				Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
					return blas.LaunchAxpy(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[float32]](a, 1),
						gputest.At[uint32](a, 2), gputest.At[int32](a, 3), gputest.At[int32](a, 4), gputest.At[float32](a, 5))
				},
			}
			scal := &gputest.Case{
				Kernel: blas.ScalKernel,
				Tol:    gputest.Exact,
				Setup: func(r *rand.Rand) gputest.Inputs {
					return gputest.Inputs{Groups: g, Args: []gputest.Arg{
						gputest.Buffer(strided(r, l.n, l.incX, -1, l.alpha == 0)),
						gputest.Scalar(uint32(l.n)), gputest.Scalar(int32(l.incX)), gputest.Scalar(l.alpha),
					}}
				},
				Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
					return blas.LaunchScal(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[uint32](a, 1), gputest.At[int32](a, 2), gputest.At[float32](a, 3))
				},
			}
			t.Run(l.String(), func(t *testing.T) { gputest.Check(t, d, []*gputest.Case{axpy, scal}) })
		}
	})
}
