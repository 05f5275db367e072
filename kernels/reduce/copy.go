package reduce

import "github.com/goxpu/xpu"

// The reference point of the package's benchmark: a copy moves the bytes
// a sum reads, and writes as many, at the bandwidth the device gives a
// kernel.

// bandwidthCopy copies x into y.
//
//xpu:kernel block=256 len(y)=n len(x)=n
func bandwidthCopy(t xpu.Thread, y, x []float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = x[i]
	}
}
