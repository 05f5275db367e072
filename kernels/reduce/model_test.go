package reduce_test

// A plain-Go model of the operations, independent of the kernels: sums in
// float64 with the bound a float32 summation tree of a given height
// keeps to, and the total order of Max and ArgMax by comparisons, not
// keys.

import "math"

// eps32 is the unit roundoff of float32: 2^-24.
const eps32 = 0x1p-24

// sum64 returns the sum of x in float64 and of their magnitudes.
func sum64(x []float32) (sum, abs float64) {
	for _, v := range x {
		sum += float64(v)
		abs += math.Abs(float64(v))
	}
	return sum, abs
}

// dot64 returns the sum of x[i]*y[i] in float64 and of their magnitudes.
func dot64(x, y []float32) (sum, abs float64) {
	for i := range x {
		p := float64(x[i]) * float64(y[i])
		sum += p
		abs += math.Abs(p)
	}
	return sum, abs
}

// within reports whether got is within h*eps32*abs of want: the bound of
// a float32 sum whose addition tree has height h, over terms whose
// magnitudes sum to abs.
func within(got float32, want, abs float64, h int) bool {
	return math.Abs(float64(got)-want) <= float64(h)*eps32*abs+1e-30
}

// greater reports whether a comes after b in the order of Max: -Inf <
// ... < -0 < +0 < ... < +Inf < NaN, every NaN equal.
func greater(a, b float32) bool {
	an, bn := a != a, b != b
	switch {
	case an || bn:
		return an && !bn
	case a == 0 && b == 0:
		return !math.Signbit(float64(a)) && math.Signbit(float64(b))
	}
	return a > b
}

// argMaxOf returns the lowest index of the greatest element of x.
func argMaxOf(x []float32) int {
	best := 0
	for i, v := range x {
		if greater(v, x[best]) {
			best = i
		}
	}
	return best
}

// maxOf returns the greatest element of x, the quiet NaN 0x7fc00000 for
// any NaN.
func maxOf(x []float32) float32 {
	m := x[argMaxOf(x)]
	if m != m {
		return math.Float32frombits(0x7fc00000)
	}
	return m
}

// sameFloat reports whether a and b have the same bits.
func sameFloat(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }
