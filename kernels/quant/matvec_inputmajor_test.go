package quant_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// inputMajorKernel returns the input-major mat-vec kernel of f and its
// launcher.
func inputMajorKernel(f tensor.Format) (*gpu.Kernel, func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[float32], *gpu.Buffer[float32], *gpu.Buffer[uint32], uint32, uint32, uint32) error) {
	switch f {
	case tensor.Q4_0:
		return quant.MatVecInputMajorQ4_0Kernel, quant.LaunchMatVecInputMajorQ4_0
	case tensor.Q4_K:
		return quant.MatVecInputMajorQ4_KKernel, quant.LaunchMatVecInputMajorQ4_K
	}
	return quant.MatVecInputMajorQ8_0Kernel, quant.LaunchMatVecInputMajorQ8_0
}

// inputMajorShapes are the input-major mat-vec cases' shapes by block
// size (groups 0: a block per 32 rows): one block; odd rows under one
// block's 32; rows over one block and not a multiple of 32, with more
// column blocks than the 8 phases; and a grid of fewer blocks than row
// tiles. Short mode and the race detector keep the first two.
var inputMajorShapes = map[int][]shape{
	32:  {{1, 32, 0}, {5, 96, 0}, {37, 1056, 0}, {70, 160, 1}},
	256: {{1, 256, 0}, {5, 512, 0}, {37, 2560, 0}, {70, 256, 1}},
}

// inputMajorCases are the cases of the input-major mat-vec kernels of
// block size bs at s, on weights packed by the plain-Go packer. The
// kernels' sums are of the same kind as the row-major kernels', split
// differently over work-items, so matVecTolerance bounds them too.
func inputMajorCases(t *testing.T, bs int, s shape) []*gputest.Case {
	var cs []*gputest.Case
	for _, f := range formats {
		if f.BlockSize() != bs {
			continue
		}
		k, launch := inputMajorKernel(f)
		g := s.groups
		if g == 0 {
			g = xpu.GroupsFor(s.rows, 32)
		}
		cs = append(cs, &gputest.Case{
			Kernel: k,
			Tol:    matVecTolerance(f, s.cols),
			Setup: func(r *rand.Rand) gputest.Inputs {
				wb, err := quant.Encode(f, gputest.Floats(r, int(s.rows*s.cols), -1, 1))
				if err != nil {
					t.Fatal(err)
				}
				w := packedWords(t, f, wb, int(s.rows), int(s.cols))
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

// TestMatVecInputMajorKernels checks the input-major mat-vec kernels on
// every device present against the reference runner, at every shape.
func TestMatVecInputMajorKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, bs := range []int{32, 256} {
			ss := inputMajorShapes[bs]
			if testing.Short() || underRace {
				ss = ss[:2]
			}
			for _, s := range ss {
				t.Run(s.String(), func(t *testing.T) { gputest.Check(t, d, inputMajorCases(t, bs, s)) })
			}
		}
	})
}

// TestMatVecInputMajorEntry checks quant.MatVecInputMajor on every device
// present, on weights packed on the device by quant.Pack, against the
// plain-Go dequantize-then-dot in float64 of the row-major weights, with
// TestMatVecEntry's bound, and that it agrees with quant.MatVec of the
// same weights within twice that bound.
func TestMatVecInputMajorEntry(t *testing.T) {
	shapes := [][2]int{{1, 1}, {3, 2}, {33, 9}, {257, 1}, {70, 17}}
	r := rand.New(rand.NewPCG(17, 18))
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		s := d.Stream()
		for _, f := range formats {
			for _, sh := range shapes {
				rows, cols := sh[0], sh[1]*f.BlockSize()
				wb, err := quant.Encode(f, gputest.Floats(r, rows*cols, -1, 1))
				if err != nil {
					t.Fatal(err)
				}
				wf, err := quant.Decode(f, wb)
				if err != nil {
					t.Fatal(err)
				}
				x := gputest.Floats(r, cols, -1, 1)
				want, mag := dot64(f, wb, wf, x, rows, cols)
				rowMajor := upload(t, d, quant.Words(wb))
				packed := upload(t, d, make([]uint32, len(quant.Words(wb))))
				if err := quant.Pack(s, f, packed, rowMajor, rows, cols); err != nil {
					t.Fatal(err)
				}
				xb := upload(t, d, x)
				y, yr := upload(t, d, poisoned(rows+16)), upload(t, d, poisoned(rows))
				if err := quant.MatVecInputMajor(s, f, y, packed, xb, rows, cols); err != nil {
					t.Fatal(err)
				}
				if err := quant.MatVec(s, f, yr, rowMajor, xb, rows, cols); err != nil {
					t.Fatal(err)
				}
				got, byRow := download(t, y), download(t, yr)
				for i := range rows {
					bound := 2 * float64(cols) * 0x1p-24 * mag[i]
					if e := math.Abs(float64(got[i]) - want[i]); !(e <= bound) {
						t.Fatalf("%v %dx%d: y[%d] = %g, want %g (off by %g, bound %g)", f, rows, cols, i, got[i], want[i], e, bound)
					}
					if e := math.Abs(float64(got[i]) - float64(byRow[i])); !(e <= 2*bound) {
						t.Fatalf("%v %dx%d: y[%d] = %g, quant.MatVec's %g (off by %g, bound %g)", f, rows, cols, i, got[i], byRow[i], e, 2*bound)
					}
				}
				for i := rows; i < len(got); i++ {
					if got[i] == got[i] {
						t.Fatalf("%v %dx%d: wrote past the end: y[%d] = %g", f, rows, cols, i, got[i])
					}
				}
			}
		}
	})
}
