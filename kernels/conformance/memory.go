package conformance

import "github.com/goxpu/xpu"

// Memory kernels: buffers of structs and of scalars, uniforms of every
// scalar type, private arrays and buffer lengths.

// Particle is a buffer element: a struct of 32-bit scalars.
type Particle struct {
	X, Y, Z    float32
	VX, VY, VZ float32
	Mass       float32
	Hits       uint32
}

// ParticlesAoS advances an array of particles by one time step dt,
// bouncing them off the floor at z = 0.
//
//xpu:kernel block=64
func ParticlesAoS(t xpu.Thread, ps []Particle, dt float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	p := ps[i]
	p.VZ = p.VZ - 9.75*dt
	p.X = p.X + p.VX*dt
	p.Y = p.Y + p.VY*dt
	p.Z = p.Z + p.VZ*dt
	if p.Z < 0 {
		p.Z = -p.Z
		p.VZ = -p.VZ * 0.5
		p.Hits++
	}
	ps[i] = p
	ps[i].Mass = p.Mass * 0.75
}

// ParticlesSoA is ParticlesAoS on a struct of arrays: one buffer per field.
//
//xpu:kernel block=64
func ParticlesSoA(t xpu.Thread, x, z, vx, vz []float32, hits []uint32, dt float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	vz[i] = vz[i] - 9.75*dt
	x[i] = x[i] + vx[i]*dt
	z[i] = z[i] + vz[i]*dt
	if z[i] < 0 {
		z[i] = -z[i]
		vz[i] = -vz[i] * 0.5
		hits[i] = hits[i] + 1
	}
}

// Uniforms writes its scalar parameters, of each scalar type and
// interleaved so that their offsets differ, into the buffers.
//
//xpu:kernel block=32
func Uniforms(t xpu.Thread, ints []int32, uints []uint32, floats []float32, a int32, b uint32, c float32, d float32, e int32, f uint32, g uint32, h int32) {
	i := t.GlobalX()
	ints[i*3+0] = a + int32(i)
	ints[i*3+1] = e - int32(i)
	ints[i*3+2] = h
	uints[i*3+0] = b + i
	uints[i*3+1] = f * i
	uints[i*3+2] = g
	floats[i*2+0] = c * float32(i)
	floats[i*2+1] = d + float32(i)
}

// PrivateArray sorts eight values per work-item in a private array and
// writes them back in order, with a prefix sum of the sorted values.
//
//xpu:kernel block=64
func PrivateArray(t xpu.Thread, out, sums []float32, in []float32, n uint32) {
	i := t.GlobalX()
	if i >= n {
		return
	}
	var v [8]float32
	for k := uint32(0); k < 8; k++ {
		v[k] = in[i*8+k]
	}
	for k := int32(1); k < 8; k++ {
		x := v[k]
		j := k - 1
		for j >= 0 && v[j] > x {
			v[j+1] = v[j]
			j--
		}
		v[j+1] = x
	}
	var acc float32
	for k := uint32(0); k < 8; k++ {
		acc += v[k]
		out[i*8+k] = v[k]
		sums[i*8+k] = acc
	}
}

// LenGuard bounds its work by the length of the buffer, not by a uniform.
//
//xpu:kernel block=64
func LenGuard(t xpu.Thread, y []int32, x []int32) {
	i := t.GlobalX()
	if i < uint32(len(y)) {
		y[i] = x[i%uint32(len(x))] * 2
	}
}
