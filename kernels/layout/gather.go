package layout

import "github.com/goxpu/xpu"

// gatherBlock is Gather's block: one work-item an element.
const gatherBlock = 256

// Gather stores into dst, contiguous, the n = d0*d1*d2*d3 elements of the
// tensor of dimensions (d0, d1, d2, d3) and strides (s0, s1, s2, s3) in
// src: dst[i] = src[i0*s0 + i1*s1 + i2*s2 + i3*s3] for the row-major
// index i of (i0, i1, i2, i3). A tensor of fewer dimensions is given
// leading dimensions of 1. Each work-item strides through the elements by
// the grid's size, so that any grid covers any n; the offsets stay below
// 2^32, which the host entry point checks.
//
//xpu:kernel block=256 len(dst)=n
func Gather(t xpu.Thread, dst, src []float32, n, d1, d2, d3, s0, s1, s2, s3 uint32) {
	for i := t.GlobalX(); i < n; i += t.NumGroupsX() * gatherBlock {
		i3 := i % d3
		r := i / d3
		i2 := r % d2
		r = r / d2
		i1 := r % d1
		i0 := r / d1
		dst[i] = src[i0*s0+i1*s1+i2*s2+i3*s3]
	}
}
