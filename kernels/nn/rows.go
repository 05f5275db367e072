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

// The row-wise kernels combine their work-items' partials in shared
// memory in two folds of rowFan (rowFan^2 = rowBlock), written out in
// each kernel body (the CPU backend's lowerings take barriers in the
// kernel body only, not in a device function): each of the first rowFan
// work-items folds the partials rowFan apart from its own, then the
// first folds those rowFan, and every work-item reads the result. Three
// barriers, where a tree takes eight, and on the host tier the folds run
// in one or two chunks of lanes, not in all.
const rowFan = 16

// Each work-item strides through a row's columns at j0 + l, j0 a
// multiple of rowBlock that is the same in every work-item: a uniform
// loop, whose accesses the host tier loads as vectors.

// sumOf is the sum of sh[at + k*step] for k < rowFan, in k's order.
func sumOf(sh []float32, at, step uint32) float32 {
	var s float32
	for k := uint32(0); k < rowFan; k++ {
		s += sh[at+k*step]
	}
	return s
}

// maxOf is the largest of sh[at + k*step] for k < rowFan, as xpu.Max
// takes it (a NaN in sh[at] wins, a later one loses: Softmax's sum
// carries a NaN of the row instead).
func maxOf(sh []float32, at, step uint32) float32 {
	m := sh[at]
	for k := uint32(1); k < rowFan; k++ {
		m = xpu.Max(m, sh[at+k*step])
	}
	return m
}

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
// exp(x - max) / sum(exp(x - max)), launched over RowGroups(rows). One
// exponential an element: the row's maximum first, then each
// exponential stored in y as it is summed, then y scaled by the sum's
// inverse (x read twice, y written twice and read once, the row in
// cache on a CPU). The maximum is xpu.Max's, which may pass over a NaN:
// the sum takes it, and every element of its row.
//
//xpu:kernel block=256 len(y)=rows*cols len(x)=rows*cols
func Softmax(t xpu.Thread, y, x []float32, rows, cols uint32) {
	ms := xpu.Shared[float32](t, rowBlock)
	ss := xpu.Shared[float32](t, rowBlock)
	row := rowOf(t)
	l := t.LocalX()
	base := row * cols
	m := xpu.Float32FromBits(negInf)
	if row < rows {
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				m = xpu.Max(m, x[base+j])
			}
		}
	}
	ms[l] = m
	t.Barrier()
	if l < rowFan {
		ms[l] = maxOf(ms, l, rowFan)
	}
	t.Barrier()
	if l == 0 {
		ms[0] = maxOf(ms, 0, 1)
	}
	t.Barrier()
	m = ms[0]
	var s float32
	if row < rows {
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				e := xpu.Exp(x[base+j] - m)
				y[base+j] = e
				s += e
			}
		}
	}
	ss[l] = s
	t.Barrier()
	if l < rowFan {
		ss[l] = sumOf(ss, l, rowFan)
	}
	t.Barrier()
	if l == 0 {
		ss[0] = sumOf(ss, 0, 1)
	}
	t.Barrier()
	s = ss[0]
	if row < rows {
		inv := 1 / s
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				y[base+j] *= inv
			}
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
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				v := x[base+j]
				s += v * v
			}
		}
	}
	sh[l] = s
	t.Barrier()
	if l < rowFan {
		sh[l] = sumOf(sh, l, rowFan)
	}
	t.Barrier()
	if l == 0 {
		sh[0] = sumOf(sh, 0, 1)
	}
	t.Barrier()
	s = sh[0]
	if row < rows {
		scale := 1 / xpu.Sqrt(s/float32(cols)+eps)
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				y[base+j] = x[base+j] * scale * w[j]
			}
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
	ms := xpu.Shared[float32](t, rowBlock)
	qs := xpu.Shared[float32](t, rowBlock)
	row := rowOf(t)
	l := t.LocalX()
	base := row * cols
	var s float32
	if row < rows {
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				s += x[base+j]
			}
		}
	}
	ms[l] = s
	t.Barrier()
	if l < rowFan {
		ms[l] = sumOf(ms, l, rowFan)
	}
	t.Barrier()
	if l == 0 {
		ms[0] = sumOf(ms, 0, 1)
	}
	t.Barrier()
	s = ms[0]
	mean := s / float32(cols)
	var q float32
	if row < rows {
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				d := x[base+j] - mean
				q += d * d
			}
		}
	}
	qs[l] = q
	t.Barrier()
	if l < rowFan {
		qs[l] = sumOf(qs, l, rowFan)
	}
	t.Barrier()
	if l == 0 {
		qs[0] = sumOf(qs, 0, 1)
	}
	t.Barrier()
	q = qs[0]
	if row < rows {
		scale := 1 / xpu.Sqrt(q/float32(cols)+eps)
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				y[base+j] = (x[base+j]-mean)*scale*w[j] + b[j]
			}
		}
	}
}
