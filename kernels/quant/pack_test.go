package quant_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// packShapes are the packing cases' shapes, cols in blocks: one block,
// odd rows of odd and even block counts (so that the bytes end in the
// middle of a word or on one), and a grid of fewer blocks than words
// (groups 2). Short mode and the race detector keep the first three.
var packShapes = []shape{{1, 1, 0}, {5, 3, 0}, {6, 2, 0}, {37, 7, 0}, {70, 9, 2}}

// moved is the tolerance of the packing kernel: it moves bytes.
var moved = gputest.Tolerance{Name: "bit-exact: the kernel moves bytes"}

// packCases are the packing kernel's cases at s (cols in blocks), one per
// format.
func packCases(t *testing.T, s shape) []*gputest.Case {
	var cs []*gputest.Case
	for _, f := range formats {
		cs = append(cs, &gputest.Case{
			Kernel: quant.PackInputMajorKernel,
			Tol:    moved,
			Setup: func(r *rand.Rand) gputest.Inputs {
				w := quant.Words(randomBlocks(t, r, f, int(s.rows*s.cols)))
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

// TestPackKernel checks the packing kernel on every device present
// against the reference runner.
func TestPackKernel(t *testing.T) {
	ss := packShapes
	if testing.Short() || underRace {
		ss = ss[:3]
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, s := range ss {
			t.Run(s.blocks(), func(t *testing.T) { gputest.Check(t, d, packCases(t, s)) })
		}
	})
}

// TestInputMajor checks the plain-Go packer against the layout's
// definition, block by block, and that packing is a permutation of whole
// blocks: a matrix of one row or of one column of blocks is unchanged.
func TestInputMajor(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, f := range formats {
		size := f.BlockBytes()
		for _, sh := range [][2]int{{1, 1}, {1, 4}, {3, 1}, {5, 3}, {4, 6}} {
			rows, nb := sh[0], sh[1]
			b := randomBlocks(t, r, f, rows*nb)
			p, err := quant.InputMajor(f, b, rows, nb*f.BlockSize())
			if err != nil {
				t.Fatal(err)
			}
			for row := range rows {
				for j := range nb {
					if got, want := p[(j*rows+row)*size:][:size], b[(row*nb+j)*size:][:size]; !bytes.Equal(got, want) {
						t.Fatalf("%v %dx%d blocks: block (%d, %d) is % x, want % x", f, rows, nb, row, j, got, want)
					}
				}
			}
			if (rows == 1 || nb == 1) && !bytes.Equal(p, b) {
				t.Errorf("%v %dx%d blocks: packing changed a matrix of one row or column of blocks", f, rows, nb)
			}
		}
	}
	if _, err := quant.InputMajor(tensor.Q8_0, make([]byte, 33), 1, 32); err == nil {
		t.Error("33 bytes for a block of 34: no error")
	}
}

// TestPackEntry checks quant.Pack on every device present against the
// plain-Go packer, word for word, the padding included, and that it
// writes nothing past the blocks' words.
func TestPackEntry(t *testing.T) {
	shapes := [][2]int{{1, 1}, {3, 1}, {1, 5}, {7, 3}, {33, 4}}
	if !testing.Short() && !underRace {
		shapes = append(shapes, [2]int{301, 17})
	}
	r := rand.New(rand.NewPCG(15, 16))
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, f := range formats {
			for _, sh := range shapes {
				rows, cols := sh[0], sh[1]*f.BlockSize()
				b := randomBlocks(t, r, f, rows*sh[1])
				p, err := quant.InputMajor(f, b, rows, cols)
				if err != nil {
					t.Fatal(err)
				}
				want := quant.Words(p)
				dst := upload(t, d, slices.Repeat([]uint32{0xDEADBEEF}, len(want)+8))
				if err := quant.Pack(d.Stream(), f, dst, upload(t, d, quant.Words(b)), rows, cols); err != nil {
					t.Fatal(err)
				}
				got := download(t, dst)
				for i, w := range want {
					if got[i] != w {
						t.Fatalf("%v %dx%d: word %d is %#08x, want %#08x", f, rows, cols, i, got[i], w)
					}
				}
				for i := len(want); i < len(got); i++ {
					if got[i] != 0xDEADBEEF {
						t.Fatalf("%v %dx%d: wrote past the end: word %d is %#08x", f, rows, cols, i, got[i])
					}
				}
			}
		}
	})
}

// packedWords returns the words of the blocks in wb (row-major, rows x
// cols values of f) in input-major order.
func packedWords(t testing.TB, f tensor.Format, wb []byte, rows, cols int) []uint32 {
	t.Helper()
	p, err := quant.InputMajor(f, wb, rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	return quant.Words(p)
}

// blocks names a packing shape, whose cols count blocks.
func (s shape) blocks() string { return fmt.Sprintf("%dx%d blocks/%d", s.rows, s.cols, s.groups) }
