package conformance

import "github.com/goxpu/xpu"

// Generic kernels and device functions: one Go function per algorithm,
// instantiated per element type by //xpu:instance lines and at each call
// of a generic device function.

// Number is the element types the generic kernels take.
type Number interface{ int32 | uint32 | float32 }

// plus is a generic device function, instantiated at each type it is
// called with.
func plus[T Number](a, b T) T { return a + b }

// at reads a buffer or shared array of any element type.
func at[T Number](s []T, i uint32) T { return s[i] }

// twice calls a generic device function from a generic one.
func twice[T Number](x T) T { return plus(x, x) }

// BlockSum sums each block's slice of in into one partial sum per block,
// by a tree in shared memory of the element type, in the same order on
// every device.
//
//xpu:kernel block=128
//xpu:instance BlockSumI32 BlockSum[int32]
//xpu:instance BlockSumU32 BlockSum[uint32]
//xpu:instance BlockSumF32 BlockSum[float32]
func BlockSum[T Number](t xpu.Thread, partial, in []T, n uint32) {
	s := xpu.Shared[T](t, reduceBlock)
	l := t.LocalX()
	i := t.GlobalX()
	var v T
	if i < n {
		v = at(in, i)
	}
	s[l] = v
	t.Barrier()
	for step := t.BlockX() / 2; step > 0; step /= 2 {
		if l < step {
			s[l] = plus(s[l], at(s, l+step))
		}
		t.Barrier()
	}
	if l == 0 {
		partial[t.GroupX()] = s[0]
	}
}

// TwoTypes calls the generic device functions of a plain kernel at two
// types: plus and twice at float32 and at int32.
//
//xpu:kernel block=64
func TwoTypes(t xpu.Thread, y []float32, z []int32, x []float32, w []int32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = twice(plus(x[i], 0.5))
		z[i] = plus(twice(w[i]), int32(i))
	}
}

// Affine is the comptime configuration of ScaleBy.
type Affine struct {
	Factor int32 // the multiplier; must be positive
	Offset int32 // added after scaling
}

// ScaleBy is generic and a template: y = x*Factor + Offset in the
// element type, with the factor and offset known at compile time.
//
//xpu:kernel block=64
//xpu:instance ScaleByI32 ScaleBy[int32] Affine{Factor: 3, Offset: -7}
//xpu:instance ScaleByF32 ScaleBy[float32] Affine{Factor: 2, Offset: 1}
//xpu:requires c.Factor > 0
func ScaleBy[T int32 | float32](t xpu.Thread, c Affine, y, x []T, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = x[i]*T(c.Factor) + T(c.Offset)
	}
}
