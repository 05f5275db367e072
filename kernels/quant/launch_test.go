package quant_test

import (
	"errors"
	"github.com/goxpu/xpu/kernels/tensor"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/quant/quanttest"
)

// upload uploads data to d or fails the test.
func upload[T any](t testing.TB, d *gpu.Device, data []T) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}

// download reads b back or fails the test.
func download[T any](t testing.TB, b *gpu.Buffer[T]) []T {
	t.Helper()
	v, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// poisoned returns n NaNs.
func poisoned(n int) []float32 {
	p := make([]float32, n)
	for i := range p {
		p[i] = float32(math.NaN())
	}
	return p
}

// sameFloat reports whether a and b are the same float32, any NaN
// matching any NaN (a device's product of a NaN scale keeps no payload
// a test could rely on).
func sameFloat(a, b float32) bool {
	return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
}

// TestDequantizeEntry checks quant.Dequantize on every device present
// against the plain-Go Format.Dequantize, bit for bit, on random blocks
// and, for Q8_0, on a tensor whose block h has the float16 scale h and
// random quants: every float16 through the kernel's conversion (every
// 64th under -short and the race detector, with the specials).
func TestDequantizeEntry(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var every []byte // Q8_0 blocks with every float16 scale
	step := 1
	if testing.Short() || underRace {
		step = 64
	}
	for h := 0; h < 1<<16; h++ {
		if h%step != 0 && h&0x7C00 != 0x7C00 && h&0x7C00 != 0 {
			continue
		}
		blk := quant.BlockQ8_0{D: uint16(h)}
		for i := range blk.Qs {
			blk.Qs[i] = int8(r.Uint32())
		}
		every, _ = blk.AppendBinary(every)
	}
	type encoded struct {
		f     tensor.Format
		bytes []byte
	}
	tensors := []encoded{{tensor.Q8_0, every}}
	for _, f := range quanttest.Formats {
		tensors = append(tensors, encoded{f, quanttest.RandomBlocks(r, f, 501)})
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, c := range tensors {
			want, err := quant.Decode(c.f, c.bytes)
			if err != nil {
				t.Fatal(err)
			}
			dst := upload(t, d, poisoned(len(want)+16))
			src := upload(t, d, quant.Words(c.bytes))
			if err := quant.Dequantize(d.Stream(), c.f, dst, src, len(want)); err != nil {
				t.Fatal(err)
			}
			got := download(t, dst)
			for i, v := range want {
				if !sameFloat(got[i], v) {
					t.Fatalf("%v, %d values: value %d is %g (%#08x), want %g (%#08x)", c.f, len(want), i, got[i], math.Float32bits(got[i]), v, math.Float32bits(v))
				}
			}
			for i := len(want); i < len(got); i++ {
				if got[i] == got[i] {
					t.Fatalf("%v: wrote past the end: value %d is %g", c.f, i, got[i])
				}
			}
		}
	})
}

// dot64 returns W x and, per row, the sum of |w||x|, in float64 from the
// plain-Go dequantized W: the independent computation MatVec must meet.
// For Q4_K, whose kernel sums d*sc*q*x and dmin*m*x apart, the
// magnitude is the sum of both terms' (|d*sc*q| + |dmin*m|)|x|, from
// the blocks' bytes.
func dot64(f tensor.Format, wb []byte, w []float32, x []float32, rows, cols int) (y, mag []float64) {
	y, mag = make([]float64, rows), make([]float64, rows)
	for r := range rows {
		for c := range cols {
			p := float64(w[r*cols+c]) * float64(x[c])
			y[r] += p
			mag[r] += math.Abs(p)
		}
	}
	if f != tensor.Q4_K {
		return y, mag
	}
	for r := range rows {
		mag[r] = 0
		for b := range cols / 256 {
			var k quant.BlockQ4_K
			off := (r*cols/256 + b) * 144
			if err := k.UnmarshalBinary(wb[off : off+144]); err != nil {
				panic(err)
			}
			for j := range 8 {
				sc, m := k.ScaleMin(j)
				d, dm := half(k.D)*float64(sc), half(k.Dmin)*float64(m)
				for l := range 32 {
					q := k.Qs[32*(j/2)+l] >> (4 * (j % 2)) & 0xF
					mag[r] += (math.Abs(d*float64(q)) + math.Abs(dm)) * math.Abs(float64(x[b*256+32*j+l]))
				}
			}
		}
	}
	return y, mag
}

// TestMatVecEntry checks quant.MatVec on every device present against a
// plain-Go dequantize-then-dot in float64, at shapes from one block to
// more rows than a grid has blocks (65535). The float32 sums differ from
// the exact ones by at most a relative 2^-24 of the row's sum of |w||x|
// per operation on its path: 2*cols operations at most.
func TestMatVecEntry(t *testing.T) {
	shapes := [][2]int{{1, 1}, {3, 2}, {33, 129}, {257, 8}}
	if !testing.Short() && !underRace {
		shapes = append(shapes, [2]int{65535 + 70, 1})
	}
	r := rand.New(rand.NewPCG(9, 10))
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, f := range quanttest.Formats {
			for _, sh := range shapes {
				rows, cols := sh[0], sh[1]*f.BlockSize() // cols in blocks
				if rows > 65535 && f == tensor.Q4_K {
					continue // its quantizer takes seconds over 2^24 values; the kernel case 70x256/16 strides over rows
				}
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
				y := upload(t, d, poisoned(rows+16))
				if err := quant.MatVec(d.Stream(), f, y, upload(t, d, quant.Words(wb)), upload(t, d, x), rows, cols); err != nil {
					t.Fatal(err)
				}
				got := download(t, y)
				for i := range rows {
					if e := math.Abs(float64(got[i]) - want[i]); !(e <= 2*float64(cols)*0x1p-24*mag[i]) {
						t.Fatalf("%v %dx%d: y[%d] = %g, want %g (off by %g, bound %g)", f, rows, cols, i, got[i], want[i], e, 2*float64(cols)*0x1p-24*mag[i])
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

// TestEntryRefusals checks that bad shapes, lengths and arguments are
// refused with the error that names the rule, before anything launches.
func TestEntryRefusals(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		s := d.Stream()
		f32 := func(n int) *gpu.Buffer[float32] { return upload(t, d, make([]float32, n)) }
		u32 := func(n int) *gpu.Buffer[uint32] { return upload(t, d, make([]uint32, n)) }
		for _, c := range []struct {
			name string
			err  error
			want error
			text string
		}{
			{"n not whole blocks", quant.Dequantize(s, tensor.Q8_0, f32(64), u32(100), 33), gpu.ErrSize, "n = 33 values, want a positive multiple of 32"},
			{"n zero", quant.Dequantize(s, tensor.Q4_0, f32(64), u32(100), 0), gpu.ErrSize, "n = 0 values"},
			{"short output", quant.Dequantize(s, tensor.Q8_0, f32(63), u32(100), 64), gpu.ErrBufferLen, "the output holds 63 values, want 64"},
			{"short blocks Q8_0", quant.Dequantize(s, tensor.Q8_0, f32(64), u32(16), 64), gpu.ErrBufferLen, "holds 16 words, want 17"},
			{"short blocks Q4_0", quant.Dequantize(s, tensor.Q4_0, f32(96), u32(13), 96), gpu.ErrBufferLen, "holds 13 words, want 14"},
			{"unknown format", quant.Dequantize(s, tensor.Format(7), f32(64), u32(100), 64), gpu.ErrArgs, "Format(7) is no block format"},
			{"a scalar format", quant.Dequantize(s, tensor.F32, f32(64), u32(100), 64), gpu.ErrArgs, "f32 is no block format"},
			{"nil stream", quant.Dequantize(nil, tensor.Q8_0, f32(64), u32(100), 64), gpu.ErrArgs, "the stream is nil"},
			{"nil source", quant.Dequantize(s, tensor.Q8_0, f32(64), nil, 64), gpu.ErrArgs, "the blocks' buffer is nil"},
			{"zero rows", quant.MatVec(s, tensor.Q8_0, f32(4), u32(100), f32(64), 0, 64), gpu.ErrSize, "rows = 0, want at least 1"},
			{"cols not whole blocks", quant.MatVec(s, tensor.Q8_0, f32(4), u32(100), f32(64), 1, 48), gpu.ErrSize, "cols = 48, want a positive multiple of the block size 32"},
			{"short y", quant.MatVec(s, tensor.Q4_0, f32(1), u32(100), f32(64), 2, 64), gpu.ErrBufferLen, "the output holds 1 values, want 2"},
			{"short x", quant.MatVec(s, tensor.Q4_0, f32(2), u32(100), f32(63), 2, 64), gpu.ErrBufferLen, "x holds 63 values, want cols = 64"},
			{"short w", quant.MatVec(s, tensor.Q8_0, f32(2), u32(33), f32(64), 2, 64), gpu.ErrBufferLen, "holds 33 words, want 34"},
			{"nil x", quant.MatVec(s, tensor.Q8_0, f32(2), u32(34), nil, 2, 64), gpu.ErrArgs, "x is nil"},
			{"Q4_K cols", quant.MatVec(s, tensor.Q4_K, f32(2), u32(100), f32(512), 1, 288), gpu.ErrSize, "cols = 288, want a positive multiple of the block size 256"},
			{"Q4_K n", quant.Dequantize(s, tensor.Q4_K, f32(512), u32(100), 288), gpu.ErrSize, "n = 288 values, want a positive multiple of 256"},
			{"short blocks Q4_K", quant.Dequantize(s, tensor.Q4_K, f32(512), u32(71), 512), gpu.ErrBufferLen, "holds 71 words, want 72"},
			{"too large", quant.MatVec(s, tensor.Q8_0, f32(2), u32(34), f32(64), 1<<26, 64), gpu.ErrSize, "more than 2^31"},
			{"input-major short w", quant.MatVecInputMajor(s, tensor.Q4_0, f32(3), u32(26), f32(64), 3, 64), gpu.ErrBufferLen, "holds 26 words, want 27"},
			{"input-major cols", quant.MatVecInputMajor(s, tensor.Q4_K, f32(2), u32(100), f32(512), 1, 128), gpu.ErrSize, "cols = 128, want a positive multiple of the block size 256"},
			{"input-major nil x", quant.MatVecInputMajor(s, tensor.Q8_0, f32(2), u32(34), nil, 2, 64), gpu.ErrArgs, "x is nil"},
			{"input-major form", quant.MatVecInputMajorForm(s, quant.Form(7), tensor.Q8_0, f32(2), u32(34), f32(64), 2, 32), gpu.ErrArgs, "form 7 is neither Split nor Whole"},
			{"input-major zero rows", quant.MatVecInputMajor(s, tensor.Q8_0, f32(2), u32(34), f32(64), 0, 64), gpu.ErrSize, "rows = 0"},
			{"matmul zero batch", quant.MatMul(s, tensor.Q8_0, f32(8), u32(34), f32(64), 2, 32, 0), gpu.ErrSize, "batch = 0, want at least 1"},
			{"matmul short x", quant.MatMul(s, tensor.Q8_0, f32(8), u32(34), f32(95), 2, 32, 3), gpu.ErrBufferLen, "x holds 95 values, want cols*batch = 96"},
			{"matmul short y", quant.MatMul(s, tensor.Q8_0, f32(5), u32(34), f32(96), 2, 32, 3), gpu.ErrBufferLen, "the output holds 5 values, want 6"},
			{"matmul short w", quant.MatMul(s, tensor.Q4_K, f32(6), u32(71), f32(1536), 2, 256, 3), gpu.ErrBufferLen, "holds 71 words, want 72"},
			{"matmul nil x", quant.MatMul(s, tensor.Q8_0, f32(6), u32(34), nil, 2, 32, 3), gpu.ErrArgs, "x is nil"},
			{"matmul too large", quant.MatMul(s, tensor.Q8_0, f32(6), u32(34), f32(96), 2, 32, 1<<30), gpu.ErrSize, "rows*batch and cols*batch at most 2^31"},
			{"pack in place", func() error { b := u32(34); return quant.Pack(s, tensor.Q8_0, b, b, 2, 32) }(), gpu.ErrArgs, "dst is src"},
			{"pack short dst", quant.Pack(s, tensor.Q8_0, u32(42), u32(43), 5, 32), gpu.ErrBufferLen, "dst holds 42 words, want 43"},
			{"pack short src", quant.Pack(s, tensor.Q4_0, u32(23), u32(22), 5, 32), gpu.ErrBufferLen, "src holds 22 words, want 23"},
			{"pack scalar format", quant.Pack(s, tensor.F32, u32(64), u32(64), 2, 32), gpu.ErrArgs, "f32 is no block format"},
			{"pack nil", quant.Pack(s, tensor.Q8_0, nil, u32(64), 2, 32), gpu.ErrArgs, "a blocks' buffer is nil"},
			{"pack cols", quant.Pack(s, tensor.Q8_0, u32(64), u32(64), 2, 40), gpu.ErrSize, "cols = 40"},
			{"host pack format", func() error { _, err := quant.InputMajor(tensor.F32, nil, 1, 32); return err }(), gpu.ErrArgs, "f32 is no block format"},
			{"host pack length", func() error { _, err := quant.InputMajor(tensor.Q4_0, make([]byte, 35), 2, 32); return err }(), gpu.ErrSize, "35 bytes, want 36"},
		} {
			if !errors.Is(c.err, c.want) || !strings.Contains(c.err.Error(), c.text) {
				t.Errorf("%s: %v, want %v naming %q", c.name, c.err, c.want, c.text)
			}
		}
	})
}
