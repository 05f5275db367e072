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

// The row-wise kernels combine their work-items' partials in two steps
// of rowFan (rowFan^2 = rowBlock) in shared memory, written out in each
// kernel body (the CPU backend's lowerings take barriers in the kernel
// body only, not in a device function): each of the first rowFan
// work-items folds the partials rowFan apart from its own, then every
// work-item folds those rowFan, in the same order. Two barriers, where a
// tree takes eight; the fold's loads are contiguous across work-items.
const rowFan = 16

// Each work-item strides through a row's columns at j0 + l, j0 a
// multiple of rowBlock that is the same in every work-item: a uniform
// loop, whose accesses the host tier loads as vectors.

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
// cache on a CPU).
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
				m = maxNaN(m, x[base+j])
			}
		}
	}
	ms[l] = m
	t.Barrier()
	if l < rowFan {
		for k := uint32(1); k < rowFan; k++ {
			m = maxNaN(m, ms[l+k*rowFan])
		}
		ms[l] = m
	}
	t.Barrier()
	m = ms[0]
	for k := uint32(1); k < rowFan; k++ {
		m = maxNaN(m, ms[k])
	}
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
		for k := uint32(1); k < rowFan; k++ {
			s += ss[l+k*rowFan]
		}
		ss[l] = s
	}
	t.Barrier()
	s = ss[0]
	for k := uint32(1); k < rowFan; k++ {
		s += ss[k]
	}
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
		for k := uint32(1); k < rowFan; k++ {
			s += sh[l+k*rowFan]
		}
		sh[l] = s
	}
	t.Barrier()
	s = sh[0]
	for k := uint32(1); k < rowFan; k++ {
		s += sh[k]
	}
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
		for k := uint32(1); k < rowFan; k++ {
			s += ms[l+k*rowFan]
		}
		ms[l] = s
	}
	t.Barrier()
	s = ms[0]
	for k := uint32(1); k < rowFan; k++ {
		s += ms[k]
	}
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
		for k := uint32(1); k < rowFan; k++ {
			q += qs[l+k*rowFan]
		}
		qs[l] = q
	}
	t.Barrier()
	q = qs[0]
	for k := uint32(1); k < rowFan; k++ {
		q += qs[k]
	}
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
