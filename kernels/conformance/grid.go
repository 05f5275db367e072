package conformance

import "github.com/goxpu/xpu"

// Grid kernels: one-, two- and three-dimensional launches and every thread
// coordinate query.

// Saxpy computes y = a*x + y. Its buffers hold at least n elements.
//
//xpu:kernel block=256 len(y)=n len(x)=n
func Saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}

// Grid2D writes a function of each cell's coordinates into a w-by-h image.
//
//xpu:kernel block=16,8
func Grid2D(t xpu.Thread, out []uint32, in []uint32, w, h uint32) {
	x, y := t.GlobalX(), t.GlobalY()
	if x >= w || y >= h {
		return
	}
	i := y*w + x
	out[i] = in[i]*3 + x*1000 + y
}

// Grid3D writes a function of each cell's coordinates into a w*h*d volume.
//
//xpu:kernel block=4,4,4
func Grid3D(t xpu.Thread, out []int32, w, h, d uint32) {
	x, y, z := t.GlobalX(), t.GlobalY(), t.GlobalZ()
	if x < w && y < h && z < d {
		out[(z*h+y)*w+x] = int32(x) - 2*int32(y) + 7*int32(z)
	}
}

// coordsPerItem is how many values ThreadCoords writes per work-item.
const coordsPerItem = 16

// ThreadCoords writes every coordinate query of every work-item, at the
// work-item's linear global index.
//
//xpu:kernel block=4,2,2
func ThreadCoords(t xpu.Thread, out []uint32) {
	w := t.NumGroupsX() * t.BlockX()
	h := t.NumGroupsY() * t.BlockY()
	i := (t.GlobalZ()*h+t.GlobalY())*w + t.GlobalX()
	o := i * coordsPerItem
	out[o+0] = t.GlobalX()
	out[o+1] = t.GlobalY()
	out[o+2] = t.GlobalZ()
	out[o+3] = t.LocalX()
	out[o+4] = t.LocalY()
	out[o+5] = t.LocalZ()
	out[o+6] = t.GroupX()
	out[o+7] = t.GroupY()
	out[o+8] = t.GroupZ()
	out[o+9] = t.NumGroupsX()
	out[o+10] = t.NumGroupsY()
	out[o+11] = t.NumGroupsZ()
	out[o+12] = t.LocalIndex()
	out[o+13] = t.BlockX()
	out[o+14] = t.BlockY()
	out[o+15] = t.BlockZ()
}

// GridStride adds 1 to every element with a grid-stride loop, so that a
// small grid covers a large buffer.
//
//xpu:kernel block=64
func GridStride(t xpu.Thread, y []float32, n uint32) {
	stride := t.NumGroupsX() * t.BlockX()
	for i := t.GlobalX(); i < n; i += stride {
		y[i] = y[i] + 1
	}
}

// GroupCensus writes, for each group of a grid of any size, its
// coordinates and the grid's, at the group's linear index, and counts the
// groups that ran: a grid beyond a device's groups per dimension, which
// WebGPU dispatches folded, must run each of its groups once, and no
// other.
//
//xpu:kernel block=32
func GroupCensus(t xpu.Thread, out []uint32, count []uint32) {
	g := (t.GroupZ()*t.NumGroupsY()+t.GroupY())*t.NumGroupsX() + t.GroupX()
	if t.LocalX() == 31 {
		out[g] = t.GlobalX()*3 ^ t.GroupY()<<20 ^ t.GroupZ()<<27 ^ t.NumGroupsX()*5 ^ t.NumGroupsY()<<9 ^ t.NumGroupsZ()<<29
		xpu.AtomicAdd(&count[0], 1)
	}
}
