package wgsl

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestLitText(t *testing.T) {
	for _, c := range []struct {
		lit  *Lit
		want string
	}{
		{BoolLit(true), "true"},
		{BoolLit(false), "false"},
		{I32Lit(0), "0i"},
		{I32Lit(-7), "-7i"},
		{I32Lit(math.MaxInt32), "2147483647i"},
		{I32Lit(math.MinInt32), "bitcast<i32>(0x80000000u)"},
		{I32Lit(math.MinInt32 + 1), "-2147483647i"},
		{U32Lit(0), "0u"},
		{U32Lit(math.MaxUint32), "4294967295u"},
		{F32Lit(0), "0.0f"},
		{F32Lit(1), "1.0f"},
		{F32Lit(-2), "-2.0f"},
		{F32Lit(0.1), "0.1f"},
		{F32Lit(1e6), "1e6f"},
		{F32Lit(1e20), "1e20f"},
		{F32Lit(1.5e-7), "1.5e-7f"},
		{F32Lit(math.MaxFloat32), "3.4028235e38f"},
		{F32Lit(math.SmallestNonzeroFloat32), "1e-45f"},
		{F32Lit(16777216), "1.6777216e7f"},
		{F32Lit(float32(math.Inf(1))), "bitcast<f32>(0x7f800000u)"},
		{F32Lit(float32(math.Inf(-1))), "bitcast<f32>(0xff800000u)"},
		{&Lit{Kind: F32, Bits: 0x7fc00000}, "bitcast<f32>(0x7fc00000u)"},
		{&Lit{Kind: F32, Bits: 0xffc00001}, "bitcast<f32>(0xffc00001u)"},
		{&Lit{Kind: F32, Bits: 0x80000000}, "bitcast<f32>(0x80000000u)"},
	} {
		got, err := LitText(c.lit)
		if err != nil || got != c.want {
			t.Errorf("LitText(%v) = %q, %v; want %q", c.lit, got, err, c.want)
		}
	}
}

// TestF32RoundTrip checks on random bit patterns that every finite f32
// literal reads back as exactly the same float32, and has the form WGSL
// requires: a '.' or an exponent, and the f suffix.
func TestF32RoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		b := r.Uint32()
		s := f32Text(b)
		f := math.Float32frombits(b)
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) || b == 0x80000000 {
			if !strings.HasPrefix(s, "bitcast<f32>(") {
				t.Fatalf("bits %#x: %q is not a bitcast", b, s)
			}
			continue
		}
		num, ok := strings.CutSuffix(s, "f")
		if !ok || !strings.ContainsAny(num, ".e") {
			t.Fatalf("bits %#x: %q lacks the f suffix or a '.'/exponent", b, s)
		}
		g, err := strconv.ParseFloat(num, 32)
		if err != nil || math.Float32bits(float32(g)) != b {
			t.Fatalf("bits %#x: %q reads back as %#x (%v)", b, s, math.Float32bits(float32(g)), err)
		}
	}
}
