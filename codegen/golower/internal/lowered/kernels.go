// Package lowered holds kernels whose IR the golower tests build by hand,
// and their Go lowering as golower writes it (lowered_gen.go, kept current
// by go test ./codegen/golower -update). Its tests run the lowering on the
// CPU backend against the reference runner.
package lowered

import "github.com/goxpu/xpu"

// Saxpy computes y = a*x + y.
func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}

// BlockSum sums each block of 64 elements by a tree in shared memory: a
// barrier inside a loop with a uniform bound, after a uniform early return.
func BlockSum(t xpu.Thread, out, in []float32, groups uint32) {
	if t.GroupX() >= groups {
		return
	}
	s := xpu.Shared[float32](t, 64)
	l := t.LocalIndex()
	s[l] = in[t.GlobalX()]
	t.Barrier()
	for h := uint32(32); h > 0; h >>= 1 {
		if l < h {
			s[l] = s[l] + s[l+h]
		}
		t.Barrier()
	}
	if l == 0 {
		out[t.GroupX()] = s[0]
	}
}

// Dot writes, for each work-item of an 8x2 block, 0.5 plus the dot
// product of row ty of a (rows of 32) from element 1 to m-1 with column tx
// of b (rows of 8): the strip dot product's case.
func Dot(t xpu.Thread, out, a, b []float32, m uint32) {
	tx, ty := t.LocalX(), t.LocalY()
	acc := float32(0.5)
	t.Barrier()
	for k := uint32(1); k < m; k++ {
		acc = b[k*8+tx]*a[ty<<5+k] + acc
	}
	t.Barrier()
	out[ty*8+tx] = acc
}

// Gemm computes c = a*b for n x n matrices (n a multiple of 16) with
// 16x16 tiles in shared memory: the tiled GEMM case.
func Gemm(t xpu.Thread, c, a, b []float32, n uint32) {
	as := xpu.Shared[float32](t, 256)
	bs := xpu.Shared[float32](t, 256)
	tx, ty := t.LocalX(), t.LocalY()
	row, col := t.GroupY()*16+ty, t.GroupX()*16+tx
	var acc float32
	for k0 := uint32(0); k0 < n; k0 += 16 {
		as[ty*16+tx] = a[row*n+k0+tx]
		bs[ty*16+tx] = b[(k0+ty)*n+col]
		t.Barrier()
		for k := uint32(0); k < 16; k++ {
			acc += as[ty*16+k] * bs[k*16+tx]
		}
		t.Barrier()
	}
	c[row*n+col] = acc
}

// bucket is a device function: the bin of a value.
func bucket(x uint32) uint32 { return x % 8 }

// Histogram counts the values of in by bucket with atomics, after a
// non-uniform early return.
func Histogram(t xpu.Thread, bins, in []uint32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	xpu.AtomicAdd(&bins[bucket(in[i])], 1)
}

// Below, Above, SignedBelow and SignedFrom write x[i]+1 to out[i] for the
// work-items that pass a guard comparing i+k with m, under each
// comparison, in uint32 and int32: the guard the lowering hoists out of
// the work-item loop, including where i+k wraps inside a block.
func Below(t xpu.Thread, out, x []float32, k, m uint32) {
	i := t.GlobalX()
	j := i + k
	if m >= j {
		out[i] = x[i] + 1
	}
}

// Above is Below's guard with i+k > m.
func Above(t xpu.Thread, out, x []float32, k, m uint32) {
	i := t.GlobalX()
	j := i + k
	if j > m {
		out[i] = x[i] + 1
	}
}

// SignedBelow is Below's guard with int32(i)+k < m.
func SignedBelow(t xpu.Thread, out, x []float32, k, m int32) {
	i := t.GlobalX()
	j := int32(i) + k
	if j < m {
		out[i] = x[i] + 1
	}
}

// SignedFrom is Below's guard with m <= int32(i)+k.
func SignedFrom(t xpu.Thread, out, x []float32, k, m int32) {
	i := t.GlobalX()
	j := int32(i) + k
	if m <= j {
		out[i] = x[i] + 1
	}
}
