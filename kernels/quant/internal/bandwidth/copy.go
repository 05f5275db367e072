package bandwidth

import "github.com/goxpu/xpu"

// Copy copies the n words of x into y, one work-item per word.
//
//xpu:kernel block=256 len(y)=n len(x)=n
func Copy(t xpu.Thread, y, x []uint32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = x[i]
	}
}
