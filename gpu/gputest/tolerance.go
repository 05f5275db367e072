package gputest

import (
	"fmt"
	"math"

	"github.com/goxpu/xpu/gpu/corpus"
)

// Tolerance bounds how far a device's float32 result may be from the
// reference's. A value is within it when the two are equal (NaN equals
// NaN), or at most ULP units in the last place apart, or at most Abs apart,
// or at most Rel times the larger magnitude apart. Integers are always
// compared bit for bit.
type Tolerance struct {
	Name string // why the bound is what it is, e.g. "WGSL division: 2.5 ulp"
	ULP  uint32
	Abs  float64
	Rel  float64
}

// Exact is the tolerance of results that every device computes exactly.
var Exact = Tolerance{Name: "exact"}

func (t Tolerance) String() string {
	return fmt.Sprintf("%s (ulp %d, abs %g, rel %g)", t.Name, t.ULP, t.Abs, t.Rel)
}

// Within reports whether got is within t of want.
func (t Tolerance) Within(want, got float32) bool {
	if want == got || (want != want && got != got) {
		return true
	}
	if want != want || got != got || math.IsInf(float64(want), 0) || math.IsInf(float64(got), 0) {
		return false
	}
	if ULPDistance(want, got) <= uint64(t.ULP) {
		return true
	}
	d := math.Abs(float64(want) - float64(got))
	m := math.Max(math.Abs(float64(want)), math.Abs(float64(got)))
	return d <= t.Abs || d <= t.Rel*m
}

// ULPDistance returns how many float32 values lie between a and b, plus
// one: 0 when they are equal (+0 and -0 are equal); the corpus's measure
// ([corpus.ULPDistance]).
func ULPDistance(a, b float32) uint64 { return corpus.ULPDistance(a, b) }
