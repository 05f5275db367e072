package fission_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/golower/internal/fission"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// TestMain runs the tests, then the kernel census of the package.
func TestMain(m *testing.M) {
	os.Exit(gputest.RunWithCensus(m, "github.com/goxpu/xpu/codegen/golower/internal/fission", nil))
}

// groups is the number of blocks of the one-dimensional cases.
const groups = 3

// TestLocalsAcrossBarriers runs every kernel of the package, each with a
// local of some kind live across the barriers of a loop or an if, on
// every backend present against the reference runner.
func TestLocalsAcrossBarriers(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		seed, err := gputest.Seed()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases() {
			t.Run(c.Name(), func(t *testing.T) {
				if err := gputest.Run(d, c, seed); err != nil {
					t.Errorf("%v\n(seed %d: rerun with %s=%d)", err, seed, gputest.SeedEnv, seed)
				}
			})
		}
	})
}

// TestCasesCoverKernels checks that every kernel of the package has a
// case.
func TestCasesCoverKernels(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range cases() {
		seen[c.Kernel.Name()] = true
	}
	for _, k := range gpu.Kernels() {
		if k.Name() > "github.com/goxpu/xpu/codegen/golower/internal/fission." && k.Name() < "github.com/goxpu/xpu/codegen/golower/internal/fission/" && !seen[k.Name()] {
			t.Errorf("kernel %s has no case", k.Name())
		}
	}
}

func buf[T any](a []any, i int) *gpu.Buffer[T] {
	b, _ := a[i].(*gpu.Buffer[T])
	return b
}

func u32(a []any, i int) uint32 {
	v, _ := a[i].(uint32)
	return v
}

func words(r *rand.Rand, n int) []uint32 {
	v := make([]uint32, n)
	for i := range v {
		v[i] = r.Uint32()
	}
	return v
}

func floats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()
	}
	return v
}

const items = groups * 64

// inOut is a case with one output of out words per work-item and an input
// of in words per work-item.
func inOut(k *gpu.Kernel, out, in int, launch func(s *gpu.Stream, g xpu.Dim3, o, i *gpu.Buffer[uint32]) error) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](out * items), gputest.Buffer(words(r, in*items)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, buf[uint32](a, 0), buf[uint32](a, 1))
		},
	}
}

// inOutN is inOut with a uniform count n.
func inOutN(k *gpu.Kernel, n uint32, launch func(s *gpu.Stream, g xpu.Dim3, o, i *gpu.Buffer[uint32], n uint32) error) *gputest.Case {
	return &gputest.Case{
		Kernel: k, Tol: gputest.Exact,
		Setup: func(r *rand.Rand) gputest.Inputs {
			return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
				gputest.Poisoned[uint32](items), gputest.Buffer(words(r, items)), gputest.Scalar(n),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return launch(s, g, buf[uint32](a, 0), buf[uint32](a, 1), u32(a, 2))
		},
	}
}

func cases() []*gputest.Case {
	const n = 64
	return []*gputest.Case{
		inOutN(fission.StructCopiedInLoopKernel, 5, fission.LaunchStructCopiedInLoop),
		inOut(fission.StructFieldsInLoopKernel, 2, 1, fission.LaunchStructFieldsInLoop),
		inOut(fission.ArrayInLoopKernel, 4, 4, fission.LaunchArrayInLoop),
		inOut(fission.StructArrayInLoopKernel, 1, 1, fission.LaunchStructArrayInLoop),
		inOut(fission.ScalarCopiedInLoopKernel, 1, 1, fission.LaunchScalarCopiedInLoop),
		inOutN(fission.NestedLoopsKernel, 3, fission.LaunchNestedLoops),
		inOutN(fission.DeclaredInIfKernel, 5, fission.LaunchDeclaredInIf),
		inOut(fission.WaveInLoopKernel, 1, 1, fission.LaunchWaveInLoop),
		inOutN(fission.ConstantIndexOutOfRangeKernel, 0, fission.LaunchConstantIndexOutOfRange),
		inOutN(fission.ConstantFaultsKernel, 0, fission.LaunchConstantFaults),
		{
			Kernel: fission.NestedArrayInLoopKernel, Tol: gputest.Exact,
			Setup: func(r *rand.Rand) gputest.Inputs {
				ps := make([]fission.Pair, items)
				for i := range ps {
					ps[i] = fission.Pair{X: r.Uint32(), Y: r.Uint32()}
				}
				return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
					gputest.Poisoned[uint32](items), gputest.Buffer(ps),
				}}
			},
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				return fission.LaunchNestedArrayInLoop(s, g, buf[uint32](a, 0), buf[fission.Pair](a, 1))
			},
		},
		{
			// The else branch of DeclaredInIf.
			Kernel: fission.DeclaredInIfKernel, Tol: gputest.Exact,
			Setup: func(r *rand.Rand) gputest.Inputs {
				return gputest.Inputs{Groups: xpu.Dim3{X: groups}, Args: []gputest.Arg{
					gputest.Poisoned[uint32](items), gputest.Buffer(words(r, items)), gputest.Scalar(uint32(1)),
				}}
			},
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				return fission.LaunchDeclaredInIf(s, g, buf[uint32](a, 0), buf[uint32](a, 1), u32(a, 2))
			},
		},
		{
			Kernel: fission.MatMulKernel,
			Tol:    gputest.Tolerance{Name: "sums of 64 products of [0, 1) in the same order, each may be fused", ULP: 4, Rel: 1e-5},
			Setup: func(r *rand.Rand) gputest.Inputs {
				return gputest.Inputs{Groups: xpu.Dim3{X: n / 16, Y: n / 16}, Args: []gputest.Arg{
					gputest.Poisoned[float32](n * n), gputest.Buffer(floats(r, n*n)), gputest.Buffer(floats(r, n*n)), gputest.Scalar(uint32(n)),
				}}
			},
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				return fission.LaunchMatMul(s, g, buf[float32](a, 0), buf[float32](a, 1), buf[float32](a, 2), u32(a, 3))
			},
		},
	}
}
