package conformance

import "github.com/goxpu/xpu"

// Array kernels: arrays of arrays in private and shared memory, and buffer
// elements with array fields, all with Go's value semantics.

// tileDim is the side of Transpose's tile; blockRows the rows of its block,
// each work-item moving tileDim/blockRows elements (the CUDA sample's
// TILE_DIM and BLOCK_ROWS).
const (
	tileDim   = 32
	blockRows = 8
)

// TransposeTiled writes the transpose of the rows x cols matrix in to out
// through a shared tile padded to tileDim+1 columns, so that a column of
// the tile falls in distinct banks: the CUDA sample's transposeNoBankConflicts.
//
//xpu:kernel block=32,8
func TransposeTiled(t xpu.Thread, out, in []float32, rows, cols uint32) {
	tile := xpu.Shared[[tileDim + 1]float32](t, tileDim)
	x := t.GroupX()*tileDim + t.LocalX()
	y := t.GroupY()*tileDim + t.LocalY()
	for j := uint32(0); j < tileDim; j += blockRows {
		if x < cols && y+j < rows {
			tile[t.LocalY()+j][t.LocalX()] = in[(y+j)*cols+x]
		}
	}
	t.Barrier()
	x = t.GroupY()*tileDim + t.LocalX()
	y = t.GroupX()*tileDim + t.LocalY()
	for j := uint32(0); j < tileDim; j += blockRows {
		if x < rows && y+j < cols {
			out[(y+j)*rows+x] = tile[t.LocalX()][t.LocalY()+j]
		}
	}
}

// Blocked4x4 computes c = a*b for an m x k matrix a and a k x n matrix b
// (m and n multiples of 4), each work-item accumulating a 4x4 block of c
// in registers.
//
//xpu:kernel block=8,8
func Blocked4x4(t xpu.Thread, c, a, b []float32, m, n, k uint32) {
	r0 := t.GlobalY() * 4
	c0 := t.GlobalX() * 4
	if r0 >= m || c0 >= n {
		return
	}
	var acc [4][4]float32
	for p := uint32(0); p < k; p++ {
		var col [4]float32
		for i := uint32(0); i < 4; i++ {
			col[i] = a[(r0+i)*k+p]
		}
		row := [4]float32{b[p*n+c0], b[p*n+c0+1], b[p*n+c0+2], b[p*n+c0+3]}
		for i := uint32(0); i < 4; i++ {
			for j := uint32(0); j < 4; j++ {
				acc[i][j] += col[i] * row[j]
			}
		}
	}
	for i := uint32(0); i < 4; i++ {
		for j := uint32(0); j < 4; j++ {
			c[(r0+i)*n+c0+j] = acc[i][j]
		}
	}
}

// scaleRow doubles its copy of a row and returns it; the caller's row is
// untouched.
func scaleRow(r [4]float32) [4]float32 {
	for j := uint32(0); j < 4; j++ {
		r[j] *= 2
	}
	return r
}

// ArrayCopies writes, per work-item, the 4x4 block of in it loads and the
// block after writes through copies: of the whole array, of a row taken
// out of it, of a row put into it, and of a row passed to a function.
// Any copy that aliases its source changes out.
//
//xpu:kernel block=64
func ArrayCopies(t xpu.Thread, out, in []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	var m [4][4]float32
	for r := uint32(0); r < 4; r++ {
		for c := uint32(0); c < 4; c++ {
			m[r][c] = in[i*16+r*4+c]
		}
	}
	saved := m
	row := m[1]
	m[1][2] = -1
	row[0] = 100
	m[3] = row
	row[1] = 200
	twice := scaleRow(m[2])
	m[0] = scaleRow(row)
	saved[2][3] += twice[3] + m[2][3]
	for r := uint32(0); r < 4; r++ {
		for c := uint32(0); c < 4; c++ {
			out[i*32+r*4+c] = m[r][c]
			out[i*32+16+r*4+c] = saved[r][c]
		}
	}
}

// Star is a buffer element whose position and velocity are float4s. Its
// Spin, three floats, is followed by a field at offset 44 in Go and in
// std430 alike: a WGSL array<f32, 3> is aligned to 4, as Go's [3]float32
// is (a vec3<f32> would be aligned to 16).
type Star struct {
	Pos  [4]float32
	Vel  [4]float32
	Spin [3]float32
	Mass float32
	Id   uint32
	Pad  [2]uint32
}

// Stars advances each star by dt, copies array fields in and out of
// variables, and writes the position's components reversed to a buffer
// of float4s.
//
//xpu:kernel block=64
func Stars(t xpu.Thread, bs []Star, flipped [][4]float32, dt float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	b := bs[i]
	for j := uint32(0); j < 3; j++ {
		b.Pos[j] += b.Vel[j] * dt
	}
	v := b.Vel
	v[3] = b.Mass
	b.Vel = v
	b.Id = b.Id*2 + 1
	b.Pad[1] = b.Id ^ b.Pad[0]
	spin := bs[i].Spin
	spin[b.Id%3] += b.Mass
	b.Spin = spin
	bs[i] = b
	var f [4]float32
	for j := uint32(0); j < 4; j++ {
		f[j] = b.Pos[3-j]
	}
	flipped[i] = f
	bs[i].Pos[3] = bs[i].Mass * 2
}
