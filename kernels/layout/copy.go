package layout

import "github.com/goxpu/xpu"

// copyBlock is Copy's block.
const copyBlock = 256

// CopyGroups returns the grid of Copy and CopyWords over n elements: a
// work-item an element, up to maxGroups blocks, which then stride.
func CopyGroups(n uint32) xpu.Dim3 {
	return xpu.Dim3{X: max(1, min(xpu.GroupsFor(n, copyBlock), maxGroups)), Y: 1, Z: 1}
}

// Copy copies the n elements of x into y. Besides its use, it is the
// library's benchmarks' reference point: it moves the bytes a kernel
// reads, and writes as many, at the bandwidth the device gives a kernel.
//
//xpu:kernel block=256 len(y)=n len(x)=n
func Copy(t xpu.Thread, y, x []float32, n uint32) {
	for i := t.GlobalX(); i < n; i += t.NumGroupsX() * copyBlock {
		y[i] = x[i]
	}
}

// CopyWords is Copy of 32-bit words: a block format's bytes.
//
//xpu:kernel block=256 len(y)=n len(x)=n
func CopyWords(t xpu.Thread, y, x []uint32, n uint32) {
	for i := t.GlobalX(); i < n; i += t.NumGroupsX() * copyBlock {
		y[i] = x[i]
	}
}
