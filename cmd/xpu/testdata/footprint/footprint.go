// Package footprint is a kernel package for the tests of xpu manifest: a
// kernel whose buffers' lengths are declared.
package footprint

import "github.com/goxpu/xpu"

// Saxpy computes y = a*x + y over the first n elements.
//
//xpu:kernel block=256 len(y)=n len(x)=n
func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}
