package blas

import "github.com/goxpu/xpu"

// Scal computes x = alpha*x for x of n elements, stored incX apart, each
// work-item taking every grid's width-th element. When alpha is 0, x is
// not read but zeroed, as gonum's Sscal does, so that NaN in it does not
// propagate.
//
//xpu:kernel block=256 len(x)=n
func Scal(t xpu.Thread, x []float32, n uint32, incX int32, alpha float32) {
	for i := t.GlobalX(); i < n; i += t.NumGroupsX() * t.BlockX() {
		v := float32(0)
		if alpha != 0 {
			v = alpha * x[at(i, n, incX)]
		}
		x[at(i, n, incX)] = v
	}
}
