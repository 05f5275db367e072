package quant_test

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/quant/quanttest"
	"github.com/goxpu/xpu/kernels/tensor"
)

// TestInputMajor checks the plain-Go packer against the layout's
// definition, block by block, and that packing is a permutation of whole
// blocks: a matrix of one row or of one column of blocks is unchanged.
func TestInputMajor(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, f := range quanttest.Formats {
		size := f.BlockBytes()
		for _, sh := range [][2]int{{1, 1}, {1, 4}, {3, 1}, {5, 3}, {4, 6}} {
			rows, nb := sh[0], sh[1]
			b := quanttest.RandomBlocks(r, f, rows*nb)
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
		for _, f := range quanttest.Formats {
			for _, sh := range shapes {
				rows, cols := sh[0], sh[1]*f.BlockSize()
				b := quanttest.RandomBlocks(r, f, rows*sh[1])
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
