package matmul_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/matmul"
)

// TestMain runs the tests, then the kernel census of the package: a
// member a tuner may choose must compute what its reference does on every
// backend it runs on.
func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, pkg, nil))
}

// pkg is the import path of the package, which prefixes its kernels' names.
const pkg = "github.com/goxpu/xpu/kernels/matmul"

// launcher is the signature every member's generated launcher shares.
type launcher func(s *gpu.Stream, groups xpu.Dim3, C, A, B *gpu.Buffer[float32], transA, transB, m, n, k, lda, ldb, ldc uint32, alpha, beta float32) error

// member is one member of Tiled: its handle and its launcher.
type member struct {
	kernel *gpu.Kernel
	launch launcher
}

// members are every member of Tiled and of TiledWave.
var members = []member{
	{matmul.Tile8x8Kernel, matmul.LaunchTile8x8},
	{matmul.Tile16x16Kernel, matmul.LaunchTile16x16},
	{matmul.Tile32x32Kernel, matmul.LaunchTile32x32},
	{matmul.Tile64x64Kernel, matmul.LaunchTile64x64},
	{matmul.Tile64x32Kernel, matmul.LaunchTile64x32},
	{matmul.Tile32x64Kernel, matmul.LaunchTile32x64},
	{matmul.Tile128x64Kernel, matmul.LaunchTile128x64},
	{matmul.Tile64x128Kernel, matmul.LaunchTile64x128},
	{matmul.Wave64x64W8Kernel, matmul.LaunchWave64x64W8},
	{matmul.Wave64x128W8Kernel, matmul.LaunchWave64x128W8},
}

// shape is the size of a product: C is m x n, A m x k, B k x n.
type shape struct{ m, n, k uint32 }

func (s shape) String() string { return fmt.Sprintf("%dx%dx%d", s.m, s.n, s.k) }

// shapes are the products every member is checked at: a single element,
// sizes that are multiples of no tile, multiples of some tiles only, and
// one of about 200 whose grid holds several blocks of every member. The
// reference runner runs a goroutine per work-item, so they stay modest.
// Short mode, and a binary built with the race detector, keep the first
// two.
var shapes = []shape{{1, 1, 1}, {67, 45, 33}, {128, 64, 96}, {203, 190, 37}}

// tile returns the member's comptime value as its handle carries it.
func tile(t testing.TB, k *gpu.Kernel) matmul.Tile {
	t.Helper()
	c, ok := k.Spec().Comptime.(matmul.Tile)
	if !ok {
		t.Fatalf("%s: comptime value %#v is not a matmul.Tile", k.Name(), k.Spec().Comptime)
	}
	return c
}

// layout is how a case stores and scales its product: whether A and B
// are transposed, how far each leading dimension exceeds its stored row,
// and alpha and beta.
type layout struct {
	transA, transB bool
	pad            uint32
	alpha, beta    float32
}

func (l layout) String() string {
	op := func(t bool) string {
		if t {
			return "T"
		}
		return "N"
	}
	return fmt.Sprintf("%s%s/pad%d/alpha%g/beta%g", op(l.transA), op(l.transB), l.pad, l.alpha, l.beta)
}

// plain is C = A*B, packed.
var plain = layout{alpha: 1}

// layouts are every pair of transposes, each with leading dimensions
// past the rows (the gaps poisoned, so that a read of one or a write to
// one shows), once with beta 0 over a poisoned C, which must not be read,
// and once with both scalars other than 0 and 1 (negative, so that signs
// are carried, and alike, so that nothing cancels under the tolerance).
var layouts = func() []layout {
	var ls []layout
	for _, ta := range []bool{false, true} {
		for _, tb := range []bool{false, true} {
			ls = append(ls, layout{transA: ta, transB: tb, pad: 3, alpha: 1.5},
				layout{transA: ta, transB: tb, pad: 5, alpha: -0.75, beta: -0.5})
		}
	}
	return ls
}()

// stored returns a matrix of rows x cols elements, rows ld apart, as BLAS
// stores it: random values in [0, 1), and NaN in the gaps past each row.
func stored(r *rand.Rand, rows, cols, ld uint32) []float32 {
	v := make([]float32, (rows-1)*ld+cols)
	for i := range v {
		v[i] = float32(math.NaN())
		if uint32(i)%ld < cols {
			v[i] = r.Float32()
		}
	}
	return v
}

// flag is a transpose as Tiled takes it.
func flag(t bool) uint32 {
	if t {
		return 1
	}
	return 0
}

// tolerance bounds the difference of one element of C from the
// reference's. Both add the same k products in the same order (the
// staged zeros add nothing), then scale by alpha and add beta*C, but a
// device may fuse each multiply-add where the reference rounds the
// product first: a rounding of at most half an ulp per step, which the
// sum carries on. On operands in [0, 1), scaled by alike signs, nothing
// cancels, so the difference stays within k+2 units of 2^-23 relative to
// the result.
func tolerance(k uint32) gputest.Tolerance {
	return gputest.Tolerance{
		Name: fmt.Sprintf("sums of %d products of alike signs in the reference's order, then alpha and beta, each step may be fused: (k+2)*2^-23 relative", k),
		ULP:  1,
		Rel:  float64(k+2) * 0x1p-23,
	}
}

// cases are the cases of every member at s in layout l.
func cases(t *testing.T, s shape, l layout) []*gputest.Case {
	ar, ac := s.m, s.k
	if l.transA {
		ar, ac = s.k, s.m
	}
	br, bc := s.k, s.n
	if l.transB {
		br, bc = s.n, s.k
	}
	lda, ldb, ldc := ac+l.pad, bc+l.pad, s.n+l.pad
	var cs []*gputest.Case
	for _, mb := range members {
		c := tile(t, mb.kernel)
		cs = append(cs, &gputest.Case{
			Kernel: mb.kernel,
			Tol:    tolerance(s.k),
			Setup: func(r *rand.Rand) gputest.Inputs {
				C := gputest.Poisoned[float32](int((s.m-1)*ldc + s.n))
				if l.beta != 0 {
					C = gputest.Buffer(stored(r, s.m, s.n, ldc))
				}
				return gputest.Inputs{Groups: matmul.Groups(c, s.m, s.n), Args: []gputest.Arg{
					C, gputest.Buffer(stored(r, ar, ac, lda)), gputest.Buffer(stored(r, br, bc, ldb)),
					gputest.Scalar(flag(l.transA)), gputest.Scalar(flag(l.transB)),
					gputest.Scalar(s.m), gputest.Scalar(s.n), gputest.Scalar(s.k),
					gputest.Scalar(lda), gputest.Scalar(ldb), gputest.Scalar(ldc),
					gputest.Scalar(l.alpha), gputest.Scalar(l.beta),
				}}
			},
			Launch: func(st *gpu.Stream, g xpu.Dim3, a []any) error {
				buf := func(i int) *gpu.Buffer[float32] { return gputest.At[*gpu.Buffer[float32]](a, i) }
				u := func(i int) uint32 { return gputest.At[uint32](a, i) }
				return mb.launch(st, g, buf(0), buf(1), buf(2), u(3), u(4), u(5), u(6), u(7), u(8), u(9), u(10),
					gputest.At[float32](a, 11), gputest.At[float32](a, 12))
			},
		})
	}
	return cs
}

// TestTiled checks every member of Tiled on every device present against
// the reference runner, at every shape, computing the plain product.
func TestTiled(t *testing.T) {
	ss := shapes
	if testing.Short() || underRace {
		ss = ss[:2]
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, s := range ss {
			t.Run(s.String(), func(t *testing.T) { gputest.Check(t, d, cases(t, s, plain)) })
		}
	})
}

// TestTiledLayouts checks every member on every device present against
// the reference runner in every layout, at a shape that is a multiple of
// no tile (a smaller one in short mode and under the race detector).
func TestTiledLayouts(t *testing.T) {
	s := shape{67, 45, 33}
	if testing.Short() || underRace {
		s = shape{21, 19, 17}
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, l := range layouts {
			t.Run(l.String(), func(t *testing.T) { gputest.Check(t, d, cases(t, s, l)) })
		}
	})
}

// TestMembers checks that every member is launchable and that its block
// is the micro-tiling of its block tile, (BN/TN, BM/TM), which Groups and
// the kernel's indexing assume.
func TestMembers(t *testing.T) {
	for _, mb := range members {
		if r := mb.kernel.Refused(); r != "" {
			t.Errorf("%s is refused: %s", mb.kernel.Name(), r)
			continue
		}
		c := tile(t, mb.kernel)
		want := xpu.Dim3{X: c.BN / c.TN, Y: c.BM / c.TM, Z: 1}
		if got := mb.kernel.Block(); got != want {
			t.Errorf("%s: block %v, want %v for %+v", mb.kernel.Name(), got, want, c)
		}
	}
}

// TestLaunchRefusesShortBuffers checks the lengths Tiled declares: a
// direct launch with any matrix one element short of its product of
// sizes is refused with gpu.ErrBufferLen naming the matrix and the rule,
// on every device present and by the reference runner, and writes
// nothing.
func TestLaunchRefusesShortBuffers(t *testing.T) {
	const m, n, k = 65, 67, 66 // three sizes, so that each product is its own
	groups := matmul.Groups(tile(t, matmul.Tile64x64Kernel), m, n)
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		poison := make([]float32, m*n)
		for i := range poison {
			poison[i] = float32(math.NaN())
		}
		for _, c := range []struct {
			name, rule string
			short      int // index of the short matrix among C, A, B
		}{{"C", "m*n = 4355", 0}, {"A", "m*k = 4290", 1}, {"B", "k*n = 4422", 2}} {
			lens := []int{m * n, m * k, k * n}
			lens[c.short]--
			C := upload(t, d, poison[:lens[0]])
			A, B := upload(t, d, make([]float32, lens[1])), upload(t, d, make([]float32, lens[2]))
			err := matmul.LaunchTile64x64(d.Stream(), groups, C, A, B, 0, 0, m, n, k, k, n, n, 1, 0)
			for _, w := range []string{"Tile64x64", "parameter " + c.name, fmt.Sprintf("%d elements", lens[c.short]), c.rule} {
				if !errors.Is(err, gpu.ErrBufferLen) || !strings.Contains(fmt.Sprint(err), w) {
					t.Fatalf("%s short: %v, want gpu.ErrBufferLen naming %q", c.name, err, w)
				}
			}
			got := make([]float32, lens[0])
			if err := C.Read(got); err != nil {
				t.Fatal(err)
			}
			if i := slices.IndexFunc(got, func(v float32) bool { return !math.IsNaN(float64(v)) }); i >= 0 {
				t.Fatalf("%s short: the refused launch wrote C[%d] = %v", c.name, i, got[i])
			}
		}
	})
	ref := [][]float32{make([]float32, m*n), make([]float32, m*k-1), make([]float32, k*n)}
	if err := matmul.Tile64x64Kernel.Reference(groups, ref[0], ref[1], ref[2], uint32(0), uint32(0), uint32(m), uint32(n), uint32(k), uint32(k), uint32(n), uint32(n), float32(1), float32(0)); !errors.Is(err, gpu.ErrBufferLen) || !strings.Contains(err.Error(), "parameter A") {
		t.Errorf("the reference with A short: %v, want gpu.ErrBufferLen naming A", err)
	}
}
