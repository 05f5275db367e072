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
		{F32Lit(0.5), "0.5f"},
		{F32Lit(0.1), "0x1.99999ap-4f"},
		{F32Lit(1e6), "1e6f"},
		{F32Lit(1 << 40), "0x1p40f"},
		{F32Lit(1e20), "0x1.5af1d8p66f"},
		{F32Lit(1.5e-7), "0x1.421f6p-23f"},
		{F32Lit(math.MaxFloat32), "0x1.fffffep127f"},
		{F32Lit(-math.MaxFloat32), "-0x1.fffffep127f"},
		{F32Lit(math.SmallestNonzeroFloat32), "0x1p-149f"},
		{F32Lit(16777216), "1.6777216e7f"},
		{&Lit{Kind: F32, Bits: 0x80000000}, "bitcast<f32>(0x80000000u)"},
	} {
		got, err := LitText(c.lit)
		if err != nil || got != c.want {
			t.Errorf("LitText(%v) = %q, %v; want %q", c.lit, got, err, c.want)
		}
	}
}

// TestNonFiniteLiteralRefused: infinities and NaNs have no WGSL literal,
// and Tint refuses the bitcast that would spell them (a const-expression
// whose value is not finite), so the printer reports them.
func TestNonFiniteLiteralRefused(t *testing.T) {
	for _, b := range []uint32{0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001} {
		if s, err := LitText(&Lit{Kind: F32, Bits: b}); err == nil {
			t.Errorf("bits %#x printed as %q, want an error", b, s)
		}
	}
}

// TestF32LiteralExact checks on random bit patterns and on the edges
// (the largest and smallest values, subnormals, ones next to powers of
// two) that every finite f32 literal has the form WGSL requires and
// denotes exactly its float32: read as a float64 it is the float32's
// value itself, so a compiler that rounds the text to float64 first (as
// Tint does) and one that rounds straight to float32 (naga) read the
// same bits, and none sees a value out of f32's range.
func TestF32LiteralExact(t *testing.T) {
	edges := []uint32{0, 1, 2, 0x007fffff, 0x00800000, 0x00800001, 0x7f7fffff, 0x7f7ffffe, 0x3f800000, 0x3f7fffff, 0x3f800001, 0x33800000, 0x4b800000}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300000 {
		var b uint32
		if i < 2*len(edges) {
			b = edges[i/2] | uint32(i%2)<<31
		} else {
			b = r.Uint32()
		}
		if !F32Finite(b) {
			continue
		}
		s := f32Text(b)
		if b == 0x80000000 {
			if s != "bitcast<f32>(0x80000000u)" {
				t.Fatalf("negative zero printed as %q", s)
			}
			continue
		}
		num, ok := strings.CutSuffix(s, "f")
		hex := strings.HasPrefix(strings.TrimPrefix(num, "-"), "0x")
		if !ok || hex && !strings.Contains(num, "p") || !hex && !strings.ContainsAny(num, ".e") {
			t.Fatalf("bits %#x: %q is not a WGSL f32 literal (suffix f; '.' or e, or a hex float with p)", b, s)
		}
		g, err := strconv.ParseFloat(num, 64)
		if want := float64(math.Float32frombits(b)); err != nil || g != want {
			t.Fatalf("bits %#x: %q denotes %v, not exactly %v (%v)", b, s, g, want, err)
		}
	}
}
