package blas

import "github.com/goxpu/xpu"

// Axpy computes y = alpha*x + y for x and y of n elements, stored incX
// and incY apart, each work-item taking every grid's width-th element.
//
//xpu:kernel block=256 len(x)=n len(y)=n
func Axpy(t xpu.Thread, y, x []float32, n uint32, incX, incY int32, alpha float32) {
	for i := t.GlobalX(); i < n; i += t.NumGroupsX() * t.BlockX() {
		y[at(i, n, incY)] += alpha * x[at(i, n, incX)]
	}
}
