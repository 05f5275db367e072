package gpu_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// Poison values written into outputs before a run, so that an element a
// kernel fails to write cannot match the reference by accident.
var (
	poisonF32 = float32(math.NaN())
	poisonI32 = int32(-559038737) // 0xDEADBEEF
	poisonU32 = uint32(0xDEADBEEF)
)

// newRand returns a generator with a fresh seed, logged for replay.
func newRand(t testing.TB) *rand.Rand {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// closeF32 reports whether got is within 2 ulp of want, relative to the
// magnitude m of the terms that produced want: a device may fuse a*x+y
// where Go does not.
func closeF32(got, want, m float32) bool {
	if math.IsNaN(float64(got)) || math.IsNaN(float64(want)) {
		return false
	}
	d := math.Abs(float64(got) - float64(want))
	return d <= 2*math.Pow(2, -23)*float64(m)+1e-37
}

func randF32s(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

func randU32s(r *rand.Rand, n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = r.Uint32()
	}
	return s
}

func fill[T any](n int, v T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = v
	}
	return s
}
