package nn

import "github.com/goxpu/xpu"

// rowBlock is the block of the row-wise kernels: one row a block.
const rowBlock = 256

// maxGroupsX bounds a grid's X: the least a WebGPU device offers.
const maxGroupsX = 65535

// RowGroups returns the grid of a row-wise kernel over rows rows: a
// block a row, at most maxGroupsX in X, as many rows of them in Y as
// that takes.
func RowGroups(rows uint32) xpu.Dim3 {
	x := min(rows, maxGroupsX)
	return xpu.Dim3{X: x, Y: xpu.GroupsFor(rows, x), Z: 1}
}

// rowOf returns the row of t's block.
func rowOf(t xpu.Thread) uint32 { return t.GroupY()*t.NumGroupsX() + t.GroupX() }

// The row-wise kernels combine their work-items' partials by a tree in
// shared memory written out in each kernel body: the CPU backend's
// lowerings take barriers in the kernel body only, not in a device
// function.

// maxNaN is the larger of a and b, NaN when either is.
func maxNaN(a, b float32) float32 {
	if b != b || b > a {
		return b
	}
	return a
}

// rescale returns exp(m - n) for a running maximum m overtaken by n,
// and 1 when it was not (m == n, -Inf included, where m - n is NaN).
func rescale(m, n float32) float32 {
	if m == n {
		return 1
	}
	return xpu.Exp(m - n)
}

// negInf is -Inf's bits: the language has no infinite constant.
const negInf = 0xff800000

// Softmax stores in each row of y (rows x cols) the softmax of x's row:
// exp(x - max) / sum(exp(x - max)), launched over RowGroups(rows). Each
// work-item keeps a running maximum and the sum of exponentials below
// it, rescaled when the maximum grows (the online softmax), and the
// tree combines those pairs: x is read twice, y written once.
//
//xpu:kernel block=256 len(y)=rows*cols len(x)=rows*cols
func Softmax(t xpu.Thread, y, x []float32, rows, cols uint32) {
	ms := xpu.Shared[float32](t, rowBlock)
	ss := xpu.Shared[float32](t, rowBlock)
	row := rowOf(t)
	l := t.LocalX()
	base := row * cols
	m := xpu.Float32FromBits(negInf)
	var s float32
	if row < rows {
		for j := l; j < cols; j += rowBlock {
			v := x[base+j]
			n := maxNaN(m, v)
			s = s*rescale(m, n) + rescale(v, n)
			m = n
		}
	}
	ms[l], ss[l] = m, s
	t.Barrier()
	for step := uint32(rowBlock / 2); step > 0; step /= 2 {
		if l < step {
			a, b := ms[l], ms[l+step]
			n := maxNaN(a, b)
			ss[l] = ss[l]*rescale(a, n) + ss[l+step]*rescale(b, n)
			ms[l] = n
		}
		t.Barrier()
	}
	m, s = ms[0], ss[0]
	if row < rows {
		inv := 1 / s
		for j := l; j < cols; j += rowBlock {
			y[base+j] = xpu.Exp(x[base+j]-m) * inv
		}
	}
}

// RMSNorm stores in each row of y (rows x cols) x's row scaled by the
// inverse of its root mean square and by w (cols): x / sqrt(mean(x^2) +
// eps) * w, as llama.cpp's rms_norm and a weight. Launched over
// RowGroups(rows).
//
//xpu:kernel block=256 len(y)=rows*cols len(x)=rows*cols len(w)=cols
func RMSNorm(t xpu.Thread, y, x, w []float32, rows, cols uint32, eps float32) {
	sh := xpu.Shared[float32](t, rowBlock)
	row := rowOf(t)
	l := t.LocalX()
	base := row * cols
	var s float32
	if row < rows {
		for j := l; j < cols; j += rowBlock {
			v := x[base+j]
			s += v * v
		}
	}
	sh[l] = s
	t.Barrier()
	for step := uint32(rowBlock / 2); step > 0; step /= 2 {
		if l < step {
			sh[l] += sh[l+step]
		}
		t.Barrier()
	}
	if row < rows {
		scale := 1 / xpu.Sqrt(sh[0]/float32(cols)+eps)
		for j := l; j < cols; j += rowBlock {
			y[base+j] = x[base+j] * scale * w[j]
		}
	}
}

// LayerNorm stores in each row of y (rows x cols) x's row centred on its
// mean, scaled by the inverse of its standard deviation, then by w and
// shifted by b (cols each): (x - mean) / sqrt(var + eps) * w + b, the
// variance that of the centred values (a second pass, which loses
// nothing to cancellation). Launched over RowGroups(rows).
//
//xpu:kernel block=256 len(y)=rows*cols len(x)=rows*cols len(w)=cols len(b)=cols
func LayerNorm(t xpu.Thread, y, x, w, b []float32, rows, cols uint32, eps float32) {
	sh := xpu.Shared[float32](t, rowBlock)
	row := rowOf(t)
	l := t.LocalX()
	base := row * cols
	var s float32
	if row < rows {
		for j := l; j < cols; j += rowBlock {
			s += x[base+j]
		}
	}
	sh[l] = s
	t.Barrier()
	for step := uint32(rowBlock / 2); step > 0; step /= 2 {
		if l < step {
			sh[l] += sh[l+step]
		}
		t.Barrier()
	}
	mean := sh[0] / float32(cols)
	t.Barrier() // every work-item has read the sum before sh is reused
	var q float32
	if row < rows {
		for j := l; j < cols; j += rowBlock {
			d := x[base+j] - mean
			q += d * d
		}
	}
	sh[l] = q
	t.Barrier()
	for step := uint32(rowBlock / 2); step > 0; step /= 2 {
		if l < step {
			sh[l] += sh[l+step]
		}
		t.Barrier()
	}
	if row < rows {
		scale := 1 / xpu.Sqrt(sh[0]/float32(cols)+eps)
		for j := l; j < cols; j += rowBlock {
			y[base+j] = (x[base+j]-mean)*scale*w[j] + b[j]
		}
	}
}
