package quant_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// matMulKernel returns the mat-mul kernel of f and its launcher.
func matMulKernel(f tensor.Format) (*gpu.Kernel, func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[float32], *gpu.Buffer[float32], *gpu.Buffer[uint32], uint32, uint32, uint32, uint32) error) {
	switch f {
	case tensor.Q4_0:
		return quant.MatMulQ4_0Kernel, quant.LaunchMatMulQ4_0
	case tensor.Q4_K:
		return quant.MatMulQ4_KKernel, quant.LaunchMatMulQ4_K
	}
	return quant.MatMulQ8_0Kernel, quant.LaunchMatMulQ8_0
}

// mmShape is the size of a mat-mul case and its grid (0: a block per
// tile of 64 rows by 16 columns; fewer make the kernel stride).
type mmShape struct{ rows, cols, batch, gx, gy uint32 }

func (s mmShape) String() string {
	return fmt.Sprintf("%dx%dx%d/%dx%d", s.rows, s.cols, s.batch, s.gx, s.gy)
}

// matMulShapes are the mat-mul cases' shapes by block size: one block
// and batch 1; odd rows under a tile with a batch under one; rows and
// batch over a tile, neither a multiple of it; and a grid of one block
// striding over both. Short mode and the race detector keep the first
// two.
var matMulShapes = map[int][]mmShape{
	32:  {{1, 32, 1, 0, 0}, {5, 64, 3, 0, 0}, {70, 96, 17, 0, 0}, {130, 64, 33, 1, 1}},
	256: {{1, 256, 1, 0, 0}, {5, 256, 3, 0, 0}, {70, 512, 17, 0, 0}, {130, 256, 33, 1, 1}},
}

// matMulTolerance bounds the difference of one element of Y from the
// reference's. A decoded weight is the same float32 everywhere (see
// exact), so the only difference is the cols multiply-adds into the
// element, each of which a device may fuse: at most an ulp of a partial
// sum each, and a partial sum is at most the sum of |w||x|, at most
// 1.2*cols for weights quantized from [-1, 1] (a decoded value
// overshoots its input by under a fifth in every format) and x in
// [-1, 1].
func matMulTolerance(cols uint32) gputest.Tolerance {
	mag := 1.2 * float64(cols)
	return gputest.Tolerance{
		Name: fmt.Sprintf("%d fusable float32 multiply-adds on partial sums up to %g: 2*cols*%g*2^-24 absolute", cols, mag, mag),
		ULP:  1,
		Abs:  2 * float64(cols) * mag * 0x1p-24,
	}
}

// matMulCases are the cases of the mat-mul kernels of block size bs at s.
func matMulCases(t *testing.T, bs int, s mmShape) []*gputest.Case {
	var cs []*gputest.Case
	for _, f := range formats {
		if f.BlockSize() != bs {
			continue
		}
		k, launch := matMulKernel(f)
		g := xpu.Dim3{X: s.gx, Y: s.gy}
		if g.X == 0 {
			g = xpu.Dim3{X: xpu.GroupsFor(s.rows, 64), Y: xpu.GroupsFor(s.batch, 16)}
		}
		cs = append(cs, &gputest.Case{
			Kernel: k,
			Tol:    matMulTolerance(s.cols),
			Setup: func(r *rand.Rand) gputest.Inputs {
				wb, err := quant.Encode(f, gputest.Floats(r, int(s.rows*s.cols), -1, 1))
				if err != nil {
					t.Fatal(err)
				}
				w := quant.Words(wb)
				return gputest.Inputs{Groups: g, Args: []gputest.Arg{
					gputest.Poisoned[float32](int(s.rows * s.batch)),
					gputest.Buffer(gputest.Floats(r, int(s.cols*s.batch), -1, 1)),
					gputest.Buffer(w),
					gputest.Scalar(s.rows), gputest.Scalar(s.cols), gputest.Scalar(s.batch), gputest.Scalar(uint32(len(w))),
				}}
			},
			Launch: func(st *gpu.Stream, g xpu.Dim3, a []any) error {
				buf := func(i int) *gpu.Buffer[float32] { return gputest.At[*gpu.Buffer[float32]](a, i) }
				u := func(i int) uint32 { return gputest.At[uint32](a, i) }
				return launch(st, g, buf(0), buf(1), gputest.At[*gpu.Buffer[uint32]](a, 2), u(3), u(4), u(5), u(6))
			},
		})
	}
	return cs
}

// TestMatMulKernels checks the mat-mul kernels on every device present
// against the reference runner, at every shape.
func TestMatMulKernels(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, bs := range []int{32, 256} {
			ss := matMulShapes[bs]
			if testing.Short() || underRace {
				ss = ss[:2]
			}
			for _, s := range ss {
				t.Run(s.String(), func(t *testing.T) { gputest.Check(t, d, matMulCases(t, bs, s)) })
			}
		}
	})
}

// TestMatMulEntry checks quant.MatMul on every device present against a
// plain-Go dequantize-then-multiply in float64: each element within
// 2*cols roundings of 2^-24 of the sum of its terms' magnitudes |w||x|
// (the decoded weights are exact, so only the sums round). Batch 1,
// batches under, over and not a multiple of the tile's 16, rows of one
// and not a multiple of the tile's 64.
func TestMatMulEntry(t *testing.T) {
	shapes := [][3]int{{1, 1, 1}, {3, 2, 5}, {65, 3, 16}, {33, 2, 17}}
	if !testing.Short() && !underRace {
		shapes = append(shapes, [3]int{130, 5, 40})
	}
	r := rand.New(rand.NewPCG(19, 20))
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, f := range formats {
			for _, sh := range shapes {
				rows, cols, batch := sh[0], sh[1]*f.BlockSize(), sh[2]
				wb, err := quant.Encode(f, gputest.Floats(r, rows*cols, -1, 1))
				if err != nil {
					t.Fatal(err)
				}
				wf, err := quant.Decode(f, wb)
				if err != nil {
					t.Fatal(err)
				}
				x := gputest.Floats(r, cols*batch, -1, 1)
				y := upload(t, d, poisoned(rows*batch+16))
				if err := quant.MatMul(d.Stream(), f, y, upload(t, d, quant.Words(wb)), upload(t, d, x), rows, cols, batch); err != nil {
					t.Fatal(err)
				}
				got := download(t, y)
				for i := range rows {
					for n := range batch {
						var want, mag float64
						for c := range cols {
							p := float64(wf[i*cols+c]) * float64(x[c*batch+n])
							want += p
							mag += math.Abs(p)
						}
						v := got[i*batch+n]
						if e := math.Abs(float64(v) - want); !(e <= 2*float64(cols)*0x1p-24*mag) {
							t.Fatalf("%v %dx%dx%d: Y[%d, %d] = %g, want %g (off by %g, bound %g)", f, rows, cols, batch, i, n, v, want, e, 2*float64(cols)*0x1p-24*mag)
						}
					}
				}
				for i := rows * batch; i < len(got); i++ {
					if got[i] == got[i] {
						t.Fatalf("%v %dx%dx%d: wrote past the end: value %d = %g", f, rows, cols, batch, i, got[i])
					}
				}
			}
		}
	})
}
