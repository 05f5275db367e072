package nn

import "github.com/goxpu/xpu"

// rowBlock is the block of the row-wise kernels: one row a block.
const rowBlock = 32

// RowGroups returns the grid of a row-wise kernel over rows rows: a
// block a row, along X (a device whose grid holds fewer groups along X
// runs it folded onto Y, its GroupX unchanged).
func RowGroups(rows uint32) xpu.Dim3 { return xpu.Dim3{X: rows, Y: 1, Z: 1} }

// rowOf returns the row of t's block, in a grid of one dimension or two.
func rowOf(t xpu.Thread) uint32 { return t.GroupY()*t.NumGroupsX() + t.GroupX() }

// The row-wise kernels combine their work-items' partials in shared
// memory in two folds, written out in each kernel body (the CPU
// backend's lowerings take barriers in the kernel body only, not in a
// device function): each of the first rowFan work-items folds the
// partials rowFan apart from its own (rowBlock/rowFan of them), then the
// first folds those rowFan, and every work-item reads the result. Three
// barriers, where a tree takes five, and on the host tier the folds run
// in one chunk of lanes, not in all.
const rowFan = 8

// Each work-item strides through a row's columns at j0 + l, j0 a
// multiple of rowBlock that is the same in every work-item: a uniform
// loop, whose accesses the host tier loads as vectors.

// sumOf is the sum of sh[at + k*step] for k < n, in k's order.
func sumOf(sh []float32, at, step, n uint32) float32 {
	var s float32
	for k := uint32(0); k < n; k++ {
		s += sh[at+k*step]
	}
	return s
}

// maxOf is the largest of sh[at + k*step] for k < n.
func maxOf(sh []int32, at, step, n uint32) int32 {
	m := sh[at]
	for k := uint32(1); k < n; k++ {
		m = xpu.Max(m, sh[at+k*step])
	}
	return m
}

// orderKey maps a float32 to an int32 that orders as the float does: its
// bits, with a negative value's magnitude bits flipped (-0 lands just
// below +0, a NaN with a clear sign bit above +Inf, one with a set sign
// bit below -Inf). Softmax's maximum is an integer maximum of keys, a
// native instruction everywhere, where a float comparison is a call of
// an integer helper in WGSL (for NaN's sake). It is its own inverse.
func orderKey(bits uint32) int32 {
	k := int32(bits)
	return k ^ (k >> 31 & 0x7fffffff)
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

// A SoftmaxForm is how a softmax member spends its exponentials.
type SoftmaxForm struct {
	// Online keeps a running maximum and a sum rescaled to it, and takes
	// each exponential twice; otherwise the maximum comes first and each
	// exponential is stored and scaled in place.
	Online bool
}

// Softmax stores in each row of y (rows x cols) the softmax of x's row:
// exp(x - max) / sum(exp(x - max)), launched over RowGroups(rows). Its
// members compute it two ways, and which is faster depends on the device
// (the library measures it):
//
//   - SoftmaxStored takes one exponential an element: the row's maximum
//     first, then each exponential stored in y as it is summed, then y
//     scaled by the sum's inverse (x read twice, y written twice and read
//     once, the row in cache on a CPU).
//   - SoftmaxOnline reads x twice and writes y once: each work-item keeps
//     a running maximum of its columns and the sum of their exponentials
//     scaled to it, rescaling the sum when the maximum grows (Milakov and
//     Gimelshein's online normalizer); the folds take the row's maximum,
//     then the sum of the work-items' sums scaled to it; a second pass
//     stores each exponential times the sum's inverse. Two exponentials
//     an element.
//
// A row holding a NaN or +Inf is NaN throughout, as IEEE arithmetic has
// it (exp(Inf - Inf) enters the sum), decided from the row's keys (its
// largest above +Inf's, or its least below -Inf's: a NaN with its sign
// bit set), not from the device's exponential of NaN, which need not be
// NaN (SwiftShader's is not). The online running
// maximum starts at the lowest finite value, not -Inf, so that a -Inf
// element adds exp(-Inf) = 0, never exp(-Inf + Inf).
//
//xpu:kernel block=32 len(y)=rows*cols len(x)=rows*cols
//xpu:instance SoftmaxStored SoftmaxForm{Online: false}
//xpu:instance SoftmaxOnline SoftmaxForm{Online: true}
func Softmax(t xpu.Thread, c SoftmaxForm, y, x []float32, rows, cols uint32) {
	ms := xpu.Shared[int32](t, rowBlock)
	ss := xpu.Shared[float32](t, rowBlock)
	row := rowOf(t)
	l := t.LocalX()
	base := row * cols
	// The maximum as a key (orderKey); the online form's running maximum
	// m, whose key mk is, and its sum s; and the least key, a NaN with
	// its sign bit set below -Inf's (one without is above +Inf's).
	mk := orderKey(negInf)
	m := xpu.Float32FromBits(lowestBits)
	if c.Online {
		mk = orderKey(lowestBits)
	}
	var s float32
	least := int32(0x7fffffff)
	if row < rows {
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				v := x[base+j]
				vb := xpu.Float32Bits(v)
				k := orderKey(vb)
				least = xpu.Min(least, k)
				if !c.Online {
					mk = xpu.Max(mk, k)
				} else {
					if k > mk {
						s *= xpu.Exp(m - v)
						m, mk = v, k
					}
					s += xpu.Exp(v - m)
				}
			}
		}
	}
	if least < orderKey(negInf) {
		mk = orderKey(quietNaN) // above every other key
	}
	ms[l] = mk
	t.Barrier()
	if l < rowFan {
		ms[l] = maxOf(ms, l, rowFan, rowBlock/rowFan)
	}
	t.Barrier()
	if l == 0 {
		ms[0] = maxOf(ms, 0, 1, rowFan)
	}
	t.Barrier()
	// A NaN or +Inf in the row makes it NaN throughout, whatever the
	// device's exponential of NaN (SwiftShader's is not NaN).
	invalid := ms[0] >= posInf
	mr := xpu.Float32FromBits(uint32(orderKey(uint32(ms[0]))))
	if c.Online {
		s *= xpu.Exp(m - mr)
	} else if row < rows {
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				e := xpu.Exp(x[base+j] - mr)
				y[base+j] = e
				s += e
			}
		}
	}
	ss[l] = s
	t.Barrier()
	if l < rowFan {
		ss[l] = sumOf(ss, l, rowFan, rowBlock/rowFan)
	}
	t.Barrier()
	if l == 0 {
		ss[0] = sumOf(ss, 0, 1, rowFan)
	}
	t.Barrier()
	if row < rows {
		inv := 1 / ss[0]
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			if j < cols {
				if c.Online {
					y[base+j] = xpu.Exp(x[base+j]-mr) * inv
				} else {
					y[base+j] *= inv
				}
			}
		}
		if invalid {
			for j0 := uint32(0); j0 < cols; j0 += rowBlock {
				if j := j0 + l; j < cols {
					y[base+j] = xpu.Float32FromBits(quietNaN)
				}
			}
		}
	}
}

// The bits of -MaxFloat32, the lowest finite float32; of +Inf; and of
// the NaN a softmax row holding a NaN or +Inf is filled with.
const (
	lowestBits = 0xff7fffff
	posInf     = 0x7f800000
	quietNaN   = 0x7fc00000
)

// RMSNorm stores in each row of y (rows x cols) x's row scaled by the
// inverse of its root mean square and by w (cols): x / sqrt(mean(x^2) +
// eps) * w, as llama.cpp's rms_norm and a weight. Launched over
// RowGroups(rows).
//
//xpu:kernel block=32 len(y)=rows*cols len(x)=rows*cols len(w)=cols
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
		sh[l] = sumOf(sh, l, rowFan, rowBlock/rowFan)
	}
	t.Barrier()
	if l == 0 {
		sh[0] = sumOf(sh, 0, 1, rowFan)
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
// shifted by b (cols each): (x - mean) / sqrt(var + eps) * w + b.
// Launched over RowGroups(rows). Each work-item keeps its columns' count,
// mean and sum of squared deviations by Welford's update, and the folds
// merge those (mergeMoments): one read of x for both moments, none of the
// cancellation of a sum of squares.
//
//xpu:kernel block=32 len(y)=rows*cols len(x)=rows*cols len(w)=cols len(b)=cols
func LayerNorm(t xpu.Thread, y, x, w, b []float32, rows, cols uint32, eps float32) {
	ns := xpu.Shared[float32](t, rowBlock)
	ms := xpu.Shared[float32](t, rowBlock)
	qs := xpu.Shared[float32](t, rowBlock)
	row := rowOf(t)
	l := t.LocalX()
	base := row * cols
	var n, mean, q float32
	if row < rows {
		for j0 := uint32(0); j0 < cols; j0 += rowBlock {
			j := j0 + l
			// The count after this column, the same in every work-item
			// that has one: its inverse is uniform, a division a step.
			inv := 1 / float32(j0/rowBlock+1)
			if j < cols {
				v := x[base+j]
				n++
				d := v - mean
				mean += d * inv
				q += d * (v - mean)
			}
		}
	}
	ns[l], ms[l], qs[l] = n, mean, q
	t.Barrier()
	if l < rowFan {
		mergeMoments(ns, ms, qs, l, rowFan, rowBlock/rowFan)
	}
	t.Barrier()
	if l == 0 {
		mergeMoments(ns, ms, qs, 0, 1, rowFan)
	}
	t.Barrier()
	mean, q = ms[0], qs[0]
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

// mergeMoments merges into the count, mean and sum of squared deviations
// at at (ns, ms, qs) those at at + k*step for 0 < k < c, by Chan, Golub
// and LeVeque's pairwise update; an empty one (count 0) leaves them.
func mergeMoments(ns, ms, qs []float32, at, step, c uint32) {
	n, m, q := ns[at], ms[at], qs[at]
	for k := uint32(1); k < c; k++ {
		i := at + k*step
		nb := ns[i]
		if nb != 0 {
			d := ms[i] - m
			f := nb / (n + nb)
			q += qs[i] + d*d*n*f
			m += d * f
			n += nb
		}
	}
	ns[at], ms[at], qs[at] = n, m, q
}
