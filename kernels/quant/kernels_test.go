package quant_test

import (
	"fmt"
	"github.com/goxpu/xpu/kernels/tensor"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant"
)

// formats are the formats every kernel test runs.
var formats = []tensor.Format{tensor.Q8_0, tensor.Q4_0, tensor.Q4_K}

// dequantKernel returns the dequantize kernel of f and its launcher.
func dequantKernel(f tensor.Format) (*gpu.Kernel, func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[float32], *gpu.Buffer[uint32], uint32, uint32) error) {
	switch f {
	case tensor.Q4_0:
		return quant.DequantizeQ4_0Kernel, quant.LaunchDequantizeQ4_0
	case tensor.Q4_K:
		return quant.DequantizeQ4_KKernel, quant.LaunchDequantizeQ4_K
	}
	return quant.DequantizeQ8_0Kernel, quant.LaunchDequantizeQ8_0
}

// matVecKernel returns the mat-vec kernel of f and its launcher.
func matVecKernel(f tensor.Format) (*gpu.Kernel, func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[float32], *gpu.Buffer[float32], *gpu.Buffer[uint32], uint32, uint32, uint32) error) {
	switch f {
	case tensor.Q4_0:
		return quant.MatVecQ4_0Kernel, quant.LaunchMatVecQ4_0
	case tensor.Q4_K:
		return quant.MatVecQ4_KKernel, quant.LaunchMatVecQ4_K
	}
	return quant.MatVecQ8_0Kernel, quant.LaunchMatVecQ8_0
}

// randomBlocks returns the bytes of n blocks of f: the first half
// quantized from random rows, the second random bytes, so that the
// scales take every kind of float16 (subnormals, infinities, NaNs).
func randomBlocks(t testing.TB, r *rand.Rand, f tensor.Format, n int) []byte {
	b, err := quant.Encode(f, rows(r, f.BlockSize()*(n/2)))
	if err != nil {
		t.Fatal(err)
	}
	for range (n - n/2) * f.BlockBytes() {
		b = append(b, byte(r.Uint32()))
	}
	return b
}

// exact is the tolerance of the dequantize kernels: a Q8_0 or Q4_0 value
// is an integer of at most 8 bits times a float16 scale, one float32
// product of exact operands, which every device rounds the same (the
// product is never subnormal: the least scale is 2^-24); a Q4_K value is
// d*sc*q - dmin*m whose products are exact (at most 21 significant
// bits), so only the subtraction rounds, fused or not. The kernels are
// bit-exact with the reference and with the plain-Go Dequantize (NaNs
// compare equal whatever their payload).
var exact = gputest.Tolerance{Name: "bit-exact: one rounded product of exact operands"}

// dequantCases are the dequantize kernels' cases at blocks blocks,
// launched over groups blocks of work-items (0: enough for one value
// each; fewer make the kernel stride).
func dequantCases(t *testing.T, blocks int, groups uint32) []*gputest.Case {
	var cs []*gputest.Case
	for _, f := range formats {
		k, launch := dequantKernel(f)
		nb := max(1, blocks*32/f.BlockSize()) // about as many values in every format
		n := uint32(f.BlockSize() * nb)
		g := groups
		if g == 0 {
			g = xpu.GroupsFor(n, 256)
		}
		cs = append(cs, &gputest.Case{
			Kernel: k,
			Tol:    exact,
			Setup: func(r *rand.Rand) gputest.Inputs {
				w := quant.Words(randomBlocks(t, r, f, nb))
				return gputest.Inputs{Groups: xpu.Dim3{X: g}, Args: []gputest.Arg{
					gputest.Poisoned[float32](int(n)),
					gputest.Buffer(w),
					gputest.Scalar(n), gputest.Scalar(uint32(len(w))),
				}}
			},
			Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
				return launch(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[uint32]](a, 1), gputest.At[uint32](a, 2), gputest.At[uint32](a, 3))
			},
		})
	}
	return cs
}

// matVecTolerance bounds the difference of one element of y from the
// reference's. Both run the same float32 operations in the same order
// (the same split of the row over work-items, the same halving tree),
// but a device may fuse any multiply with the add that follows where the
// reference rounds the product first. Each of a row's 2*cols operations
// may then round differently, by at most half an ulp of a partial sum,
// and every partial sum is at most the sum of |w||x| over the row: at
// most cols, for weights quantized from [-1, 1] (a scale's rounding
// adds 2^-11, a whole step under 1/8) and x in [-1, 1]; Q4_K sums
// d*sc*q*x and dmin*m*x apart, terms of at most 2 and 1, so 3*cols.
func matVecTolerance(f tensor.Format, cols uint32) gputest.Tolerance {
	mag := float64(cols)
	if f == tensor.Q4_K {
		mag *= 3
	}
	return gputest.Tolerance{
		Name: fmt.Sprintf("%d fusable float32 operations on partial sums up to %g: 2*cols*%g*2^-24 absolute", 2*cols, mag, mag),
		ULP:  1,
		Abs:  2 * float64(cols) * mag * 1.2 * 0x1p-24,
	}
}

// shape is the size of W in a mat-vec case and the grid it runs on (0:
// a block per row; fewer make the kernel stride over rows).
type shape struct{ rows, cols, groups uint32 }

func (s shape) String() string { return fmt.Sprintf("%dx%d/%d", s.rows, s.cols, s.groups) }

// matVecShapes are the mat-vec cases' shapes by block size: one block,
// rows whose units fill less than one block of work-items, rows that
// take each work-item several turns, and a grid of fewer blocks than
// rows. Short mode and the race detector keep the first two.
var matVecShapes = map[int][]shape{
	32:  {{1, 32, 0}, {5, 96, 0}, {37, 1056, 0}, {70, 160, 16}},
	256: {{1, 256, 0}, {5, 512, 0}, {37, 1280, 0}, {70, 256, 16}},
}

// matVecCases are the cases of the mat-vec kernels of block size bs at
// s.
func matVecCases(t *testing.T, bs int, s shape) []*gputest.Case {
	var cs []*gputest.Case
	for _, f := range formats {
		if f.BlockSize() != bs {
			continue
		}
		k, launch := matVecKernel(f)
		g := s.groups
		if g == 0 {
			g = s.rows
		}
		cs = append(cs, &gputest.Case{
			Kernel: k,
			Tol:    matVecTolerance(f, s.cols),
			Setup: func(r *rand.Rand) gputest.Inputs {
				wb, err := quant.Encode(f, gputest.Floats(r, int(s.rows*s.cols), -1, 1))
				if err != nil {
					t.Fatal(err)
				}
				w := quant.Words(wb)
				return gputest.Inputs{Groups: xpu.Dim3{X: g}, Args: []gputest.Arg{
					gputest.Poisoned[float32](int(s.rows)),
					gputest.Buffer(gputest.Floats(r, int(s.cols), -1, 1)),
					gputest.Buffer(w),
					gputest.Scalar(s.rows), gputest.Scalar(s.cols), gputest.Scalar(uint32(len(w))),
				}}
			},
			Launch: func(st *gpu.Stream, g xpu.Dim3, a []any) error {
				buf := func(i int) *gpu.Buffer[float32] { return gputest.At[*gpu.Buffer[float32]](a, i) }
				return launch(st, g, buf(0), buf(1), gputest.At[*gpu.Buffer[uint32]](a, 2), gputest.At[uint32](a, 3), gputest.At[uint32](a, 4), gputest.At[uint32](a, 5))
			},
		})
	}
	return cs
}

// TestDequantizeKernels checks both dequantize kernels on every device
// present against the reference runner, with a grid of one work-item per
// value and with one that makes each work-item stride.
func TestDequantizeKernels(t *testing.T) {
	blocks := 300
	if testing.Short() || underRace {
		blocks = 40
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		t.Run("grid", func(t *testing.T) { gputest.Check(t, d, dequantCases(t, blocks, 0)) })
		t.Run("strided", func(t *testing.T) { gputest.Check(t, d, dequantCases(t, blocks, 3)) })
	})
}

// TestMatVecKernels checks both mat-vec kernels on every device present
// against the reference runner, at every shape.
func TestMatVecKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, bs := range []int{32, 256} {
			ss := matVecShapes[bs]
			if testing.Short() || underRace {
				ss = ss[:2]
			}
			for _, s := range ss {
				t.Run(s.String(), func(t *testing.T) { gputest.Check(t, d, matVecCases(t, bs, s)) })
			}
		}
	})
}
