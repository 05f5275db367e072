// Package load is a kernel package for the Load test.
package load

import "github.com/goxpu/xpu"

// Saxpy computes y = a*x + y.
//
//xpu:kernel block=256
func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = scale(a, x[i]) + y[i]
	}
}
