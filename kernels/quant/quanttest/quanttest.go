// Package quanttest holds the cases of package quant's kernels: the
// dequantize, mat-vec (row-major and input-major), mat-mul and packing
// kernels of every format, each launched through its launcher on fresh
// random blocks (quantized rows and random bytes, so that the scales take
// every kind of float16) with poisoned outputs, against the reference
// runner, within a named tolerance. The package's tests run them on
// every device, and so does any program that checks the library where
// tests cannot run (the browser demo). It sits above quant and gputest.
package quanttest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// must returns v. The cases encode and pack whole blocks of finite
// values, which quant never refuses: an error is a bug of this package.
func must[T any](v T, err error) T {
	if err != nil {
		panic("quanttest: " + err.Error())
	}
	return v
}

// Formats are the formats every case runs.
var Formats = []tensor.Format{tensor.Q8_0, tensor.Q4_0, tensor.Q4_K}

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

// RandomBlocks returns the bytes of n blocks of f: the first half
// quantized from random rows, the second random bytes, so that the
// scales take every kind of float16 (subnormals, infinities, NaNs).
func RandomBlocks(r *rand.Rand, f tensor.Format, n int) []byte {
	b := must(quant.Encode(f, Rows(r, f.BlockSize()*(n/2))))
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
func dequantCases(blocks int, groups uint32) []*gputest.Case {
	var cs []*gputest.Case
	for _, f := range Formats {
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
				w := quant.Words(RandomBlocks(r, f, nb))
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

// matVecShapes are the mat-vec cases' shapes by block size: one block,
// rows whose units fill less than one block of work-items, rows that
// take each work-item several turns, and a grid of fewer blocks than
// rows. Cases(true) keeps the first two.
var matVecShapes = map[int][]shape{
	32:  {{1, 32, 0}, {5, 96, 0}, {37, 1056, 0}, {70, 160, 16}},
	256: {{1, 256, 0}, {5, 512, 0}, {37, 1280, 0}, {70, 256, 16}},
}

// matVecCases are the cases of the mat-vec kernels of block size bs at
// s.
func matVecCases(bs int, s shape) []*gputest.Case {
	var cs []*gputest.Case
	for _, f := range Formats {
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
				wb := must(quant.Encode(f, gputest.Floats(r, int(s.rows*s.cols), -1, 1)))
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

// inputMajorKernel returns the input-major mat-vec kernel of f in form
// fm and its launcher.
func inputMajorKernel(fm quant.Form, f tensor.Format) (*gpu.Kernel, func(*gpu.Stream, xpu.Dim3, *gpu.Buffer[float32], *gpu.Buffer[float32], *gpu.Buffer[uint32], uint32, uint32, uint32) error) {
	if fm == quant.Whole {
		switch f {
		case tensor.Q4_0:
			return quant.MatVecInputMajorWholeQ4_0Kernel, quant.LaunchMatVecInputMajorWholeQ4_0
		case tensor.Q4_K:
			return quant.MatVecInputMajorWholeQ4_KKernel, quant.LaunchMatVecInputMajorWholeQ4_K
		}
		return quant.MatVecInputMajorWholeQ8_0Kernel, quant.LaunchMatVecInputMajorWholeQ8_0
	}
	switch f {
	case tensor.Q4_0:
		return quant.MatVecInputMajorQ4_0Kernel, quant.LaunchMatVecInputMajorQ4_0
	case tensor.Q4_K:
		return quant.MatVecInputMajorQ4_KKernel, quant.LaunchMatVecInputMajorQ4_K
	}
	return quant.MatVecInputMajorQ8_0Kernel, quant.LaunchMatVecInputMajorQ8_0
}

// inputMajorRows are the rows a block of each form's kernels takes.
var inputMajorRows = map[quant.Form]uint32{quant.Split: 32, quant.Whole: 256}

// inputMajorShapes are the input-major mat-vec cases' shapes by block
// size (groups 0: a block per row tile of the form): one block; odd rows
// under one block's 32; rows over one block and not a multiple of 32,
// with more column blocks than the 8 phases; and grids of fewer blocks
// than row tiles, of each form (the split form's 32 rows, the whole
// form's 256). Cases(true) keeps the first two.
var inputMajorShapes = map[int][]shape{
	32:  {{1, 32, 0}, {5, 96, 0}, {37, 1056, 0}, {70, 160, 1}, {300, 64, 1}},
	256: {{1, 256, 0}, {5, 512, 0}, {37, 2560, 0}, {70, 256, 1}, {300, 256, 1}},
}

// inputMajorCases are the cases of the input-major mat-vec kernels of
// block size bs at s, in both forms, on weights packed by the plain-Go
// packer. The kernels' sums are of the same kind as the row-major
// kernels', split differently over work-items, so matVecTolerance
// bounds them too.
func inputMajorCases(bs int, s shape) []*gputest.Case {
	var cs []*gputest.Case
	for _, f := range Formats {
		for _, fm := range []quant.Form{quant.Split, quant.Whole} {
			if f.BlockSize() != bs {
				continue
			}
			cs = append(cs, inputMajorCase(fm, f, s))
		}
	}
	return cs
}

// inputMajorCase is the case of the input-major mat-vec kernel of f in
// form fm at s.
func inputMajorCase(fm quant.Form, f tensor.Format, s shape) *gputest.Case {
	k, launch := inputMajorKernel(fm, f)
	g := s.groups
	if g == 0 {
		g = xpu.GroupsFor(s.rows, inputMajorRows[fm])
	}
	return &gputest.Case{
		Kernel: k,
		Tol:    matVecTolerance(f, s.cols),
		Setup: func(r *rand.Rand) gputest.Inputs {
			wb := must(quant.Encode(f, gputest.Floats(r, int(s.rows*s.cols), -1, 1)))
			w := packedWords(f, wb, int(s.rows), int(s.cols))
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
	}
}

// packShapes are the packing cases' shapes, cols in blocks: one block,
// odd rows of odd and even block counts (so that the bytes end in the
// middle of a word or on one), and a grid of fewer blocks than words
// (groups 2). Cases(true) keeps the first three.
var packShapes = []shape{{1, 1, 0}, {5, 3, 0}, {6, 2, 0}, {37, 7, 0}, {70, 9, 2}}

// moved is the tolerance of the packing kernel: it moves bytes.
var moved = gputest.Tolerance{Name: "bit-exact: the kernel moves bytes"}

// packCases are the packing kernel's cases at s (cols in blocks), one per
// format.
func packCases(s shape) []*gputest.Case {
	var cs []*gputest.Case
	for _, f := range Formats {
		cs = append(cs, &gputest.Case{
			Kernel: quant.PackInputMajorKernel,
			Tol:    moved,
			Setup: func(r *rand.Rand) gputest.Inputs {
				w := quant.Words(RandomBlocks(r, f, int(s.rows*s.cols)))
				g := s.groups
				if g == 0 {
					g = xpu.GroupsFor(uint32(len(w)), 256)
				}
				return gputest.Inputs{Groups: xpu.Dim3{X: g}, Args: []gputest.Arg{
					gputest.Poisoned[uint32](len(w)),
					gputest.Buffer(w),
					gputest.Scalar(s.rows), gputest.Scalar(s.cols), gputest.Scalar(uint32(f.BlockBytes())), gputest.Scalar(uint32(len(w))),
				}}
			},
			Launch: func(st *gpu.Stream, g xpu.Dim3, a []any) error {
				buf := func(i int) *gpu.Buffer[uint32] { return gputest.At[*gpu.Buffer[uint32]](a, i) }
				return quant.LaunchPackInputMajor(st, g, buf(0), buf(1), gputest.At[uint32](a, 2), gputest.At[uint32](a, 3), gputest.At[uint32](a, 4), gputest.At[uint32](a, 5))
			},
		})
	}
	return cs
}

// packedWords returns the words of the blocks in wb (row-major, rows x
// cols values of f) in input-major order.
func packedWords(f tensor.Format, wb []byte, rows, cols int) []uint32 {
	p := must(quant.InputMajor(f, wb, rows, cols))
	return quant.Words(p)
}

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

// matMulShapes are the mat-mul cases' shapes by block size: one block
// and batch 1; odd rows under a tile with a batch under one; rows and
// batch over a tile, neither a multiple of it; and a grid of one block
// striding over both. Cases(true) keeps the first
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
func matMulCases(bs int, s mmShape) []*gputest.Case {
	var cs []*gputest.Case
	for _, f := range Formats {
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
				wb := must(quant.Encode(f, gputest.Floats(r, int(s.rows*s.cols), -1, 1)))
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

// Rows returns n random values in [-1, 1], some blocks scaled down or up
// by powers of two so that scales run over float16's range, its
// subnormals included.
func Rows(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for b := 0; b < n; b += 32 {
		scale := float32(math.Ldexp(1, r.IntN(40)-30))
		for i := b; i < b+32; i++ {
			x[i] = (2*r.Float32() - 1) * scale
		}
	}
	return x
}

// Cases returns the cases of every kernel at every shape; short keeps
// the small ones, for short mode, a binary built with the race detector
// and the browser, where the reference runner's goroutine per work-item
// is slow.
func Cases(short bool) []*gputest.Case {
	blocks, n, packs := 300, 4, packShapes
	if short {
		blocks, n, packs = 40, 2, packShapes[:3]
	}
	cs := append(dequantCases(blocks, 0), dequantCases(blocks, 3)...)
	for _, bs := range []int{32, 256} {
		for _, s := range matVecShapes[bs][:n] {
			cs = append(cs, matVecCases(bs, s)...)
		}
		for _, s := range inputMajorShapes[bs][:n] {
			cs = append(cs, inputMajorCases(bs, s)...)
		}
		for _, s := range matMulShapes[bs][:n] {
			cs = append(cs, matMulCases(bs, s)...)
		}
	}
	for _, s := range packs {
		cs = append(cs, packCases(s)...)
	}
	return cs
}
