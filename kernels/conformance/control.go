package conformance

import "github.com/goxpu/xpu"

// Control-flow kernels: loops with break and continue, early returns,
// nested loops, short-circuit conditions and device functions.

// LoopBreakContinue sums the values of a row that are not multiples of 3,
// stopping at the first value above limit.
//
//xpu:kernel block=64
func LoopBreakContinue(t xpu.Thread, out []uint32, steps []uint32, in []uint32, width, limit, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	var sum, k uint32
	for k = 0; k < width; k++ {
		v := in[i*width+k]
		if v%3 == 0 {
			continue
		}
		if v > limit {
			break
		}
		sum += v
	}
	out[i] = sum
	steps[i] = k
}

// EarlyReturn returns early from the kernel on several conditions.
//
//xpu:kernel block=64
func EarlyReturn(t xpu.Thread, out []int32, in []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	v := in[i]
	out[i] = 1
	if v < 0 {
		return
	}
	out[i] = 2
	if v%2 == 0 {
		out[i] = v / 2
		return
	}
	out[i] = 3*v + 1
}

// NestedLoops counts, for each element, the pairs (j, k) of a small
// window whose product of values is even, with an inner loop that
// depends on the outer one.
//
//xpu:kernel block=64
func NestedLoops(t xpu.Thread, out []int32, in []int32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	var acc int32
	for j := uint32(0); j < 8; j++ {
		for k := j; k < 8; k++ {
			x := in[(i+j)%n] * in[(i+k)%n]
			if x%2 == 0 {
				acc++
			} else {
				acc -= x % 5
			}
		}
	}
	out[i] = acc
}

// Collatz counts the steps of the Collatz sequence from each value: a loop
// whose trip count depends on the data.
//
//xpu:kernel block=64
func Collatz(t xpu.Thread, out []uint32, in []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	v := in[i]
	steps := uint32(0)
	for v != 1 && steps < 1000 {
		if v%2 == 0 {
			v /= 2
		} else {
			v = 3*v + 1
		}
		steps++
	}
	out[i] = steps
}

// ShortCircuit relies on && and || not evaluating their right operand: an
// out-of-range index stands behind each.
//
//xpu:kernel block=64
func ShortCircuit(t xpu.Thread, out []int32, in []int32, n uint32) {
	i := t.GlobalX()
	var r int32
	if i < n && in[i] > 0 {
		r = 1
	}
	if i >= n || in[i] < -100 {
		r += 2
	}
	if i < n {
		out[i] = r
	}
}

// Branches chooses among several arms with if / else if / else.
//
//xpu:kernel block=64
func Branches(t xpu.Thread, out []float32, in []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x := in[i]
	var y float32
	if x < -0.5 {
		y = -1
	} else if x < 0 {
		y = x * 2
	} else if x < 0.5 {
		y = x * x
	} else {
		y = 1 - x
	}
	out[i] = y
}

// FuncChain calls device functions, one of which calls another.
//
//xpu:kernel block=64
func FuncChain(t xpu.Thread, out []float32, a, b []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	out[i] = smoothstep(a[i], b[i], 0.5) + lerp(a[i], b[i], 0.25)
}

// lerp interpolates linearly between a and b.
func lerp(a, b, s float32) float32 { return a + (b-a)*s }

// smoothstep maps x onto [0, 1] between e0 and e1 with a cubic.
func smoothstep(e0, e1, x float32) float32 {
	s := saturate((x - e0) / (e1 - e0))
	return s * s * (3 - 2*s)
}

// saturate clamps x to [0, 1].
func saturate(x float32) float32 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// FuncBuffer calls a device function that takes a buffer, with two
// different buffers.
//
//xpu:kernel block=64
func FuncBuffer(t xpu.Thread, out []float32, in, w []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	out[i] = window(in, i, n) * window(w, i, n)
}

// window sums the three values of buf around i, clamped at the ends.
func window(buf []float32, i, n uint32) float32 {
	s := buf[i]
	if i > 0 {
		s += buf[i-1]
	}
	if i+1 < n {
		s += buf[i+1]
	}
	return s
}

// LoopLocalZero declares a variable without a value inside a loop and
// sets it only on some iterations: Go zeroes it on every iteration. It is
// the regression case of the bug Sgemm first showed on wgpu 0.19, whose
// shader compiler zeroed a `var x: T;` inside a loop only once.
//
//xpu:kernel block=64
func LoopLocalZero(t xpu.Thread, out []uint32, in []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	var sum uint32
	for k := uint32(0); k < 4; k++ {
		var v uint32
		if k == in[i]%4 {
			v = k + 1
		}
		sum = sum*10 + v
	}
	out[i] = sum
}

// LogicalInLoop evaluates && and || inside a loop, where the right
// operand calls a device function that counts its calls: with a constant
// left operand, and with one that changes every iteration. The call must
// happen exactly on the iterations Go makes it. The WGSL short-circuit
// declares its flag inside the loop with the left operand as initializer,
// which must run every iteration (a compiler that moved a constant one
// out of the loop, as naga does with a variable's missing zero, fails
// this case).
//
//xpu:kernel block=64
func LogicalInLoop(t xpu.Thread, out, calls []uint32, in []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	calls[i] = 0
	var r uint32
	for k := uint32(0); k < 8; k++ {
		if true && countedBit(calls, i, in[i], k) {
			r |= 1 << k
		}
		if false || countedBit(calls, i, in[i], k+8) {
			r |= 1 << (k + 8)
		}
		if k%3 != 0 && countedBit(calls, i, in[i], k+16) {
			r |= 1 << (k + 16)
		}
		if in[i]>>(k+24)&1 != 0 || countedBit(calls, i, in[i], k) {
			r |= 1 << (k + 24)
		}
	}
	out[i] = r
}

// countedBit reports whether bit k of x is set, and counts its call in
// calls[i].
func countedBit(calls []uint32, i, x, k uint32) bool {
	calls[i]++
	return x>>k&1 != 0
}

// Spin steps a linear congruential generator rounds times from each
// work-item's seed: a loop whose length a scalar sets, so that the tests
// of waits can keep a device busy for as long as they need.
//
//xpu:kernel block=64
func Spin(t xpu.Thread, out []uint32, seed []uint32, rounds, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	x := seed[i]
	for r := uint32(0); r < rounds; r++ {
		x = x*1664525 + 1013904223
	}
	out[i] = x
}
