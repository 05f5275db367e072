package llvmgen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// The bounds floatmath.go states, in ulps of the correctly rounded
// float32 result of package math's float64 function.
const expULP, tanhULP = 1, 2

// floatClasses are float32s of every class and the edges of exp's and
// tanh's reductions: signed zeros, the least and largest subnormals and
// normals, infinities, NaNs of both signs and a payload, and the
// neighbourhood of exp's overflow (88.72), its subnormal results (below
// -87.34) and its underflow (-103.97), of ln 2's multiples, and of tanh's
// bound.
func floatClasses() []float32 {
	bits := []uint32{0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
		0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc0dead}
	var out []float32
	for _, b := range bits {
		out = append(out, math.Float32frombits(b))
	}
	for _, c := range []float32{88.72284, 88.7, 89, 89.5, -87.33655, -87.4, -100, -103.27893, -103.97208, -104, -104.5, -150,
		0.5 * math.Ln2, -0.5 * math.Ln2, math.Ln2, 10 * math.Ln2, -10 * math.Ln2, 20, -20, 9, 40, 1, -1, 0.5, 1e-4, 1.0 / 4096} {
		f := c
		for range 64 { // c and its 64 float32 neighbours above, and below
			out = append(out, f, -f)
			f = math.Nextafter32(f, float32(math.Inf(1)))
		}
		f = c
		for range 64 {
			f = math.Nextafter32(f, float32(math.Inf(-1)))
			out = append(out, f, -f)
		}
	}
	return out
}

// floatSweep is a dense sweep of float32: every 1024th bit pattern, with
// random low bits, of both signs (4M values, every exponent).
func floatSweep(r *rand.Rand) []float32 {
	out := make([]float32, 0, 1<<22)
	for hi := range uint32(1 << 22) {
		out = append(out, math.Float32frombits(hi<<10|r.Uint32N(1<<10)))
	}
	return out
}

// TestExpTanh runs the host's float32 exp and tanh over every float32
// class and a dense sweep, on each target this machine runs, against
// package math in float64 rounded to float32: within expULP and tanhULP,
// NaN for NaN, and signed zeros, infinities and the results of overflow
// and underflow exactly.
func TestExpTanh(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	x := append(floatClasses(), floatSweep(r)...)
	n := len(x)
	for _, tgt := range append(runnable(), wideOnV3()...) {
		t.Run(tgt.ISA, func(t *testing.T) {
			e := load(t, kernel(t, "ExpTanh"), tgt)
			exp, tanh := poisonF32(n), poisonF32(n)
			var stop uint32
			blocks := uint32((n + 63) / 64)
			if res := firstFault(e.run(groups1(blocks), []any{exp, tanh, x, uint32(n)}, 3, &stop)); res.code != 0 {
				t.Fatalf("code %d, fault %+v", res.code, res.fault)
			}
			check := func(name string, f func(float64) float64, got []float32, bound uint64) {
				var worst uint64
				var bad []string
				for i, v := range x {
					want := float32(f(float64(v)))
					d := ulpDistance(want, got[i])
					exact := want == 0 || math.IsInf(float64(want), 0) || want != want
					if exact && math.Float32bits(want) != math.Float32bits(got[i]) && !(want != want && got[i] != got[i]) || d > bound {
						if len(bad) < 8 {
							bad = append(bad, fmt.Sprintf("%s(%v = %#x) = %v (%#x), want %v (%#x), %d ulp",
								name, v, math.Float32bits(v), got[i], math.Float32bits(got[i]), want, math.Float32bits(want), d))
						}
					}
					if want == want {
						worst = max(worst, d)
					}
				}
				for _, b := range bad {
					t.Error(b)
				}
				t.Logf("%s: worst %d ulp over %d values (bound %d)", name, worst, n, bound)
			}
			check("exp", math.Exp, exp, expULP)
			check("tanh", math.Tanh, tanh, tanhULP)
		})
	}
}
