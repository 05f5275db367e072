package conformance_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
)

// caseOf returns the suite's case of the kernel named name.
func caseOf(t *testing.T, name string) *gputest.Case {
	t.Helper()
	for _, c := range conformance.Cases() {
		if c.Name() == name {
			return c
		}
	}
	t.Fatalf("no case %s", name)
	return nil
}

// TestNaNCompare runs FloatCompare on every backend: every float32
// comparison, negated, against constants and inside Min, Max and Clamp,
// on fresh operands seasoned with NaN, infinities, signed zeros and
// subnormals, bit for bit against the reference. A lowering that leaves
// NaN to a compiler assuming finite math fails here.
func TestNaNCompare(t *testing.T) {
	c := caseOf(t, "FloatCompare")
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		seed, err := gputest.Seed()
		if err != nil {
			t.Fatal(err)
		}
		if err := gputest.Run(d, c, seed); err != nil {
			t.Errorf("%v\n(seed %d: rerun with %s=%d)", err, seed, gputest.SeedEnv, seed)
		}
	})
}

// TestNaNConvert runs FloatConvert on NaNs, infinities and values out of
// range of int32 and uint32, mixed with values in range. Where Go defines
// the conversion every backend must match the reference runner. Where it
// leaves it to the implementation, the CPU backend (Go itself) must still
// match it, and WebGPU must give the rule docs/language.md states:
// truncation toward zero, saturation, 0 for NaN.
func TestNaNConvert(t *testing.T) {
	c := *caseOf(t, "FloatConvert")
	c.Setup = func(r *rand.Rand) gputest.Inputs {
		const n = 1000
		a, b := make([]float32, n), make([]float32, n)
		for i := range n {
			a[i], b[i] = unconvertible(r), unconvertible(r)
		}
		return gputest.Inputs{Groups: xpu.Dim3{X: (n + 63) / 64}, Args: []gputest.Arg{
			gputest.Poisoned[int32](n), gputest.Poisoned[uint32](n),
			gputest.Buffer(a), gputest.Buffer(b), gputest.Scalar(uint32(n)),
		}}
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		c := c
		if d.Backend() != "cpu" {
			c.Reference = func(_ *gpu.Device, groups xpu.Dim3, args []any) error {
				return xpu.Run(xpu.Config{Groups: groups, Block: c.Kernel.Block()}, saturatingConvert, args...)
			}
		}
		seed, err := gputest.Seed()
		if err != nil {
			t.Fatal(err)
		}
		if err := gputest.Run(d, &c, seed); err != nil {
			t.Errorf("%v\n(seed %d: rerun with %s=%d)", err, seed, gputest.SeedEnv, seed)
		}
	})
}

// unconvertible returns a NaN, an infinity, a value just out of range of
// int32 or uint32, or half the time a value in range of both.
func unconvertible(r *rand.Rand) float32 {
	edges := []float32{
		float32(math.NaN()), -float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
		2147483648, -2147483904, 4294967296, -1, -1.5, math.MaxFloat32, -math.MaxFloat32,
	}
	if r.IntN(2) == 0 {
		return edges[r.IntN(len(edges))]
	}
	return float32(r.IntN(1 << 20))
}

// saturatingConvert is FloatConvert with the conversions WebGPU defines:
// Go's where Go defines them.
func saturatingConvert(t xpu.Thread, ints []int32, uints []uint32, a, b []float32, n uint32) {
	if i := t.GlobalX(); i < n {
		switch f := a[i]; {
		case f != f:
			ints[i] = 0
		case f < math.MinInt32:
			ints[i] = math.MinInt32
		case f >= 2147483648:
			ints[i] = math.MaxInt32
		default:
			ints[i] = int32(f)
		}
		switch f := b[i]; {
		case !(f > -1):
			uints[i] = 0
		case f >= 4294967296:
			uints[i] = math.MaxUint32
		default:
			uints[i] = uint32(f)
		}
	}
}
