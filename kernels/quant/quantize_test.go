package quant_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/goxpu/xpu/kernels/tensor"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/quant/quanttest"
)

// repeat returns n copies of b.
func repeat(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }

// cat joins byte slices.
func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// TestQuantizeByHand checks blocks whose bytes follow from the formats'
// definitions by hand.
func TestQuantizeByHand(t *testing.T) {
	oneAt := func(i int, v float32) []float32 {
		x := make([]float32, 32)
		x[i] = v
		return x
	}
	roundings := make([]float32, 32) // d = 127/127 = 1: the quants are the values rounded half away from zero
	copy(roundings, []float32{127, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999997, 126.5})
	q4pair := make([]float32, 32) // the first of two largest magnitudes sets the scale's sign
	q4pair[0], q4pair[1] = -8, 8
	for _, c := range []struct {
		name string
		f    tensor.Format
		x    []float32
		want []byte
	}{
		{"Q8_0 zeros", tensor.Q8_0, make([]float32, 32), repeat(0, 34)},
		{"Q8_0 one max", tensor.Q8_0, oneAt(5, 127), cat([]byte{0x00, 0x3C}, repeat(0, 5), []byte{0x7F}, repeat(0, 26))},           // d = 1
		{"Q8_0 one negative max", tensor.Q8_0, oneAt(3, -254), cat([]byte{0x00, 0x40}, repeat(0, 3), []byte{0x81}, repeat(0, 28))}, // d = 2, q = -127
		{"Q8_0 roundings", tensor.Q8_0, roundings, cat([]byte{0x00, 0x3C, 0x7F, 0x01, 0xFF, 0x02, 0x03, 0xFD, 0x00, 0x7F}, repeat(0, 24))},
		// max = 0, so d = 0/-8 = -0 (f16 0x8000), and every value 0*0 + 8.5 truncates to 8.
		{"Q4_0 zeros", tensor.Q4_0, make([]float32, 32), cat([]byte{0x00, 0x80}, repeat(0x88, 16))},
		// max = 8, d = -1 (0xBC00): value 20 (high nibble of byte 4) is 8*-1 + 8.5 -> 0.
		{"Q4_0 one max", tensor.Q4_0, oneAt(20, 8), cat([]byte{0x00, 0xBC}, repeat(0x88, 4), []byte{0x08}, repeat(0x88, 11))},
		// max = -8 (the first), d = 1: -8 -> 0, 8 -> 16.5 -> 16, capped at 15.
		{"Q4_0 both signs", tensor.Q4_0, q4pair, cat([]byte{0x00, 0x3C, 0x80, 0x8F}, repeat(0x88, 14))},
	} {
		got, err := quant.Encode(c.f, c.x)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s: % x, %v\nwant % x", c.name, got, err, c.want)
		}
	}
}

// half is the value of float16 bits, by the definition.
func half(h uint16) float64 {
	s, e, m := h>>15, int(h>>10)&0x1F, float64(h&0x3FF)
	v := math.Ldexp(m, -24)
	if e != 0 {
		v = math.Ldexp(1024+m, e-25)
	}
	if s == 1 {
		v = -v
	}
	return v
}

// TestQuantizeLayout checks the bytes of random rows against the formats'
// layouts, read here byte by byte: the scale is the float16 nearest the
// quantizer's scale (the largest magnitude over 127 for Q8_0, the value
// of largest magnitude over -8 for Q4_0), and each quant is within half a
// step of its value over the scale (or capped at 15 for Q4_0). The
// values Dequantize gives are those the layout defines, exactly.
func TestQuantizeLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const n = 32 * 400
	x := quanttest.Rows(r, n)
	for _, f := range []tensor.Format{tensor.Q8_0, tensor.Q4_0} {
		b, err := quant.Encode(f, x)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != n/32*f.BlockBytes() {
			t.Fatalf("%v: %d bytes, want %d", f, len(b), n/32*f.BlockBytes())
		}
		deq, err := quant.Decode(f, b)
		if err != nil {
			t.Fatal(err)
		}
		for k := range n / 32 {
			blk, xs := b[k*f.BlockBytes():(k+1)*f.BlockBytes()], x[32*k:32*k+32]
			dBits := binary.LittleEndian.Uint16(blk)
			var amax, max float64
			for _, v := range xs {
				if a := math.Abs(float64(v)); a > amax {
					amax, max = a, float64(v)
				}
			}
			d32 := amax / 127
			if f == tensor.Q4_0 {
				d32 = max / -8
			}
			if d := half(dBits); math.Abs(d-d32) > math.Max(math.Abs(d32)*0x1p-11, 0x1p-25)*(1+1e-6) {
				t.Fatalf("%v block %d: scale %g (%#04x), want about %g", f, k, d, dBits, d32)
			}
			for i, v := range xs {
				var q int
				if f == tensor.Q8_0 {
					q = int(int8(blk[2+i]))
				} else {
					q = int(blk[2+i%16]>>(4*(i/16))&0xF) - 8
				}
				if want := half(dBits) * float64(q); float64(deq[32*k+i]) != want {
					t.Fatalf("%v block %d value %d: dequantized %g, want %g", f, k, i, deq[32*k+i], want)
				}
				if d32 == 0 {
					continue
				}
				e := float64(v)/d32 - float64(q)
				if f == tensor.Q4_0 && q == 7 && e > 0 { // capped at 15
					continue
				}
				if math.Abs(e) > 0.5+1e-5 {
					t.Fatalf("%v block %d value %d: %g over the scale %g is %g, quant %d", f, k, i, v, d32, float64(v)/d32, q)
				}
			}
		}
	}
}

// TestRoundTrip checks that Dequantize of Quantize stays within the
// formats' step: half a step of the float16 scale plus the scale's own
// rounding (half an ulp of float16, or 2^-25 where it is subnormal) times
// the largest quant (a whole step for Q4_0, whose values opposite the
// scale's value may be capped at 7 where 8 was due); and that quantizing
// the dequantized values of a block whose scale is not 0 gives its bytes
// again: its largest magnitude is the scale times 127 (or -8), exactly.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	x := quanttest.Rows(r, 32*300)
	for _, f := range []tensor.Format{tensor.Q8_0, tensor.Q4_0} {
		b, err := quant.Encode(f, x)
		if err != nil {
			t.Fatal(err)
		}
		y, err := quant.Decode(f, b)
		if err != nil {
			t.Fatal(err)
		}
		bb := f.BlockBytes()
		for k := range len(x) / 32 {
			blk := b[k*bb : (k+1)*bb]
			d := math.Abs(half(binary.LittleEndian.Uint16(blk)))
			scaleErr := math.Max(d*0x1p-11, 0x1p-25)
			bound := d/2 + 128*scaleErr
			if f == tensor.Q4_0 {
				bound = d + 8*scaleErr
			}
			for i := 32 * k; i < 32*k+32; i++ {
				if e := math.Abs(float64(x[i]) - float64(y[i])); e > bound*(1+1e-6) {
					t.Fatalf("%v value %d: %g comes back %g, off by %g > %g", f, i, x[i], y[i], e, bound)
				}
			}
			if d == 0 {
				continue
			}
			again, err := quant.Encode(f, y[32*k:32*k+32])
			if err != nil || !bytes.Equal(again, blk) {
				t.Fatalf("%v block %d: % x quantizes again to % x, %v", f, k, blk, again, err)
			}
		}
	}
}

// TestWholeBlocks checks that lengths that are not whole blocks are
// refused with gpu.ErrSize naming the rule, and unknown formats with
// gpu.ErrArgs.
func TestWholeBlocks(t *testing.T) {
	for _, f := range []tensor.Format{tensor.Q8_0, tensor.Q4_0, tensor.Q4_K} {
		if _, err := quant.Encode(f, make([]float32, 33)); !errors.Is(err, gpu.ErrSize) || !strings.Contains(err.Error(), fmt.Sprintf("33 values is not a whole number of blocks of %d values", f.BlockSize())) {
			t.Errorf("%v: Quantize of 33 values: %v", f, err)
		}
		nb := f.BlockBytes()*2 + 1
		if _, err := quant.Decode(f, make([]byte, nb)); !errors.Is(err, gpu.ErrSize) || !strings.Contains(err.Error(), fmt.Sprintf("%d bytes is not a whole number of blocks of %d bytes", nb, f.BlockBytes())) {
			t.Errorf("%v: Dequantize of %d bytes: %v", f, nb, err)
		}
	}
	if _, err := quant.Encode(tensor.Format(9), nil); !errors.Is(err, gpu.ErrArgs) {
		t.Errorf("an unknown format: %v", err)
	}
	var k quant.BlockQ8_0
	if err := k.UnmarshalBinary(make([]byte, 33)); !errors.Is(err, gpu.ErrSize) {
		t.Errorf("a Q8_0 block of 33 bytes: %v", err)
	}
}

// TestWords checks the packing of bytes into little-endian words.
func TestWords(t *testing.T) {
	got := quant.Words([]byte{1, 2, 3, 4, 5, 6})
	if want := []uint32{0x04030201, 0x0605}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Words: %#x, want %#x", got, want)
	}
}

// TestQuantizeQ4_KByHand checks a super-block whose bytes follow from
// the format's definition: all zeros, where every sub-block's range is
// empty, so its scale and min are 0 and so are d, dmin and the quants.
func TestQuantizeQ4_KByHand(t *testing.T) {
	got, err := quant.Encode(tensor.Q4_K, make([]float32, 256))
	if err != nil || !bytes.Equal(got, make([]byte, 144)) {
		t.Errorf("zeros: % x, %v; want 144 zero bytes", got, err)
	}
}

// TestQuantizeQ4_KLayout checks random super-blocks against the layout,
// read here from the bytes: d and dmin little-endian at 0 and 2, the
// 6-bit scales and mins packed in bytes 4 to 15 as get_scale_min_k4
// unpacks them, and the quants in the nibbles of bytes 16 on. Dequantize
// gives (d*sc)*q - dmin*m exactly; a quant strictly inside 0..15 is the
// nearest to its value, so it is within half a step d*sc of it (plus the
// rounding of the float32 arithmetic).
func TestQuantizeQ4_KLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	x := quanttest.Rows(r, 256*60)
	b, err := quant.Encode(tensor.Q4_K, x)
	if err != nil {
		t.Fatal(err)
	}
	deq, err := quant.Decode(tensor.Q4_K, b)
	if err != nil {
		t.Fatal(err)
	}
	for k := range len(x) / 256 {
		blk := b[144*k : 144*k+144]
		d, dmin := half(binary.LittleEndian.Uint16(blk)), half(binary.LittleEndian.Uint16(blk[2:]))
		s := blk[4:16]
		for j := range 8 {
			var sc, m byte
			if j < 4 {
				sc, m = s[j]&63, s[j+4]&63
			} else {
				sc, m = s[j+4]&0xF|s[j-4]>>6<<4, s[j+4]>>4|s[j]>>6<<4
			}
			step, off := float32(d)*float32(sc), float32(dmin)*float32(m)
			for l := range 32 {
				q := blk[16+32*(j/2)+l] >> (4 * (j % 2)) & 0xF
				i := 256*k + 32*j + l
				if want := step*float32(q) - off; deq[i] != want {
					t.Fatalf("block %d sub-block %d value %d: dequantized %g, want %g", k, j, l, deq[i], want)
				}
				if q == 0 || q == 15 || step == 0 {
					continue
				}
				if e := math.Abs(float64(x[i]) - float64(deq[i])); e > float64(step)/2*(1+1e-5)+math.Abs(float64(x[i]))*0x1p-20 {
					t.Fatalf("block %d sub-block %d value %d: %g comes back %g, off by %g, over half the step %g", k, j, l, x[i], deq[i], e, step)
				}
			}
		}
	}
}
