package conformance_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestReferenceDeterministic runs every case's reference twice on the same
// inputs: the results must agree bit for bit, or the case cannot judge a
// device.
func TestReferenceDeterministic(t *testing.T) {
	for _, c := range conformance.Cases() {
		t.Run(c.Name(), func(t *testing.T) {
			var runs [2][]any
			for i := range runs {
				runs[i] = referenceRun(t, c, 1)
			}
			if !reflect.DeepEqual(bits(runs[0]), bits(runs[1])) {
				t.Error("two reference runs on the same inputs differ")
			}
		})
	}
}

// referenceRun runs c's reference on inputs made from seed and returns the
// final arguments.
func referenceRun(t *testing.T, c *conformance.Case, seed uint64) []any {
	t.Helper()
	in := c.Setup(rand.New(rand.NewPCG(seed, 0)))
	args := conformance.ReferenceArgs(in)
	if err := xpu.Run(xpu.Config{Groups: in.Groups, Block: c.Kernel.Block()}, c.Ref, args...); err != nil {
		t.Fatal(err)
	}
	return args
}

// bits replaces float32 slices with their bits, so that NaN compares equal.
func bits(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a
		if f, ok := a.([]float32); ok {
			b := make([]uint32, len(f))
			for j := range f {
				b[j] = math.Float32bits(f[j])
			}
			out[i] = b
		}
	}
	return out
}

// TestReferenceValues spot-checks reference results that Go defines and
// devices get wrong first.
func TestReferenceValues(t *testing.T) {
	out := make([]int32, 5)
	a, b := []int32{math.MinInt32}, []int32{-1}
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 1}, Block: xpu.Dim3{X: 64}}, conformance.IntArith, out, a, b, uint32(1)); err != nil {
		t.Fatal(err)
	}
	if out[3] != math.MinInt32 || out[4] != 0 {
		t.Errorf("MinInt32 / -1 = %d rem %d, want MinInt32 rem 0", out[3], out[4])
	}
	ints, uints := make([]int32, 2), make([]uint32, 2)
	err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: 1}, Block: xpu.Dim3{X: 64}}, conformance.Shifts,
		ints, uints, []int32{-5}, []uint32{0xffffffff}, []uint32{40}, uint32(1))
	if err != nil {
		t.Fatal(err)
	}
	if ints[0] != 0 || ints[1] != -1 || uints[0] != 0 || uints[1] != 0 {
		t.Errorf("shifts by 40: %v %v, want [0 -1] [0 0]", ints, uints)
	}
}
