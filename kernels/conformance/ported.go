package conformance

import "github.com/goxpu/xpu"

// This file holds kernels of real shape, spelled as their public sources
// spell them: the n-body force tile of GPU Gems 3 (chapter 31), the
// Black-Scholes pricer of the CUDA samples, an escape-time Mandelbrot
// loop, and the register-tiled SGEMM of the GEMM tutorials (64x64 tile,
// 4x4 micro-tile, guarded loads). Their speed on each tier is measured by
// the benchmarks (bench/), their values here.

// Body is a body of the n-body simulation: its position and mass, the
// float4 of the CUDA version.
type Body struct{ X, Y, Z, W float32 }

// NBody writes the acceleration of each of n bodies due to all n, with
// the softening eps2: each block stages a tile of 64 bodies in shared
// memory, and each work-item adds its body's interaction with every body
// of the tile before the block moves to the next tile.
//
//xpu:kernel block=64
func NBody(t xpu.Thread, accel, pos []Body, n uint32, eps2 float32) {
	sx := xpu.Shared[float32](t, 64)
	sy := xpu.Shared[float32](t, 64)
	sz := xpu.Shared[float32](t, 64)
	sw := xpu.Shared[float32](t, 64)
	i := t.GlobalX()
	var me Body
	if i < n {
		me = pos[i]
	}
	var ax, ay, az float32
	for base := uint32(0); base < n; base += 64 {
		j := base + t.LocalX()
		if j < n {
			p := pos[j]
			sx[t.LocalX()], sy[t.LocalX()], sz[t.LocalX()], sw[t.LocalX()] = p.X, p.Y, p.Z, p.W
		} else {
			sx[t.LocalX()], sy[t.LocalX()], sz[t.LocalX()], sw[t.LocalX()] = 0, 0, 0, 0
		}
		t.Barrier()
		for k := uint32(0); k < 64; k++ {
			rx := sx[k] - me.X
			ry := sy[k] - me.Y
			rz := sz[k] - me.Z
			d2 := rx*rx + ry*ry + rz*rz + eps2
			inv := 1 / xpu.Sqrt(d2)
			s := sw[k] * inv * inv * inv
			ax += rx * s
			ay += ry * s
			az += rz * s
		}
		t.Barrier()
	}
	if i < n {
		accel[i] = Body{X: ax, Y: ay, Z: az}
	}
}

// cnd is the cumulative normal distribution of the CUDA samples'
// Black-Scholes: a polynomial approximation.
func cnd(d float32) float32 {
	const (
		a1       = 0.31938153
		a2       = -0.356563782
		a3       = 1.781477937
		a4       = -1.821255978
		a5       = 1.330274429
		rsqrt2pi = 0.39894228040143267793994605993438
	)
	k := 1 / (1 + 0.2316419*xpu.Abs(d))
	c := rsqrt2pi * xpu.Exp(-0.5*d*d) * (k * (a1 + k*(a2+k*(a3+k*(a4+k*a5)))))
	if d > 0 {
		c = 1 - c
	}
	return c
}

// BlackScholes prices n European options (stock price s, strike x, years
// to expiry t) under the riskless rate r and volatility v, writing the
// call and the put price, as the CUDA samples' kernel does.
//
//xpu:kernel block=128
func BlackScholes(th xpu.Thread, call, put, s, x, t []float32, r, v float32, n uint32) {
	for i := th.GlobalX(); i < n; i += th.BlockX() * th.NumGroupsX() {
		sqrtT := xpu.Sqrt(t[i])
		d1 := (xpu.Log(s[i]/x[i]) + (r+0.5*v*v)*t[i]) / (v * sqrtT)
		d2 := d1 - v*sqrtT
		cndD1, cndD2 := cnd(d1), cnd(d2)
		expRT := xpu.Exp(-r * t[i])
		call[i] = s[i]*cndD1 - x[i]*expRT*cndD2
		put[i] = x[i]*expRT*(1-cndD2) - s[i]*(1-cndD1)
	}
}

// Mandelbrot writes, for each pixel of a w x h image of the plane from
// (x0, y0) with step d, the escape count of its point, at most maxIter.
//
//xpu:kernel block=16,16
func Mandelbrot(t xpu.Thread, out []uint32, w, h uint32, x0, y0, d float32, maxIter uint32) {
	px, py := t.GlobalX(), t.GlobalY()
	if px >= w || py >= h {
		return
	}
	cr := x0 + float32(px)*d
	ci := y0 + float32(py)*d
	var zr, zi float32
	it := uint32(0)
	for ; it < maxIter; it++ {
		zr2, zi2 := zr*zr, zi*zi
		if zr2+zi2 > 4 {
			break
		}
		zi = 2*zr*zi + ci
		zr = zr2 - zi2 + cr
	}
	out[py*w+px] = it
}

// SgemmTiled computes C = A*B for row-major A (m-by-k), B (k-by-n) and C
// (m-by-n) of any size, as the register-tiling tutorials write it: a
// block of 16x16 work-items computes a 64x64 tile of C, each work-item a
// 4x4 micro-tile held in registers, from 64x16 tiles of A and 16x64 tiles
// of B loaded into shared memory with guards at the matrix edges.
//
//xpu:kernel block=16,16
func SgemmTiled(t xpu.Thread, c, a, b []float32, m, n, k uint32) {
	as := xpu.Shared[float32](t, 64*16)
	bs := xpu.Shared[float32](t, 16*64)
	tx, ty := t.LocalX(), t.LocalY()
	rowBase := t.GroupY()*64 + ty*4
	colBase := t.GroupX()*64 + tx*4
	var acc [16]float32 // acc[i*4+j]: row rowBase+i, column colBase+j
	for k0 := uint32(0); k0 < k; k0 += 16 {
		// Each work-item loads four elements of each tile.
		for l := uint32(0); l < 4; l++ {
			r := ty*4 + l
			row := t.GroupY()*64 + r
			if row < m && k0+tx < k {
				as[r*16+tx] = a[row*k+k0+tx]
			} else {
				as[r*16+tx] = 0
			}
			q := tx*4 + l
			col := t.GroupX()*64 + q
			if k0+ty < k && col < n {
				bs[ty*64+q] = b[(k0+ty)*n+col]
			} else {
				bs[ty*64+q] = 0
			}
		}
		t.Barrier()
		for kk := uint32(0); kk < 16; kk++ {
			var ar, bc [4]float32
			for l := uint32(0); l < 4; l++ {
				ar[l] = as[(ty*4+l)*16+kk]
				bc[l] = bs[kk*64+tx*4+l]
			}
			for i := uint32(0); i < 4; i++ {
				for j := uint32(0); j < 4; j++ {
					acc[i*4+j] += ar[i] * bc[j]
				}
			}
		}
		t.Barrier()
	}
	for i := uint32(0); i < 4; i++ {
		for j := uint32(0); j < 4; j++ {
			if rowBase+i < m && colBase+j < n {
				c[(rowBase+i)*n+colBase+j] = acc[i*4+j]
			}
		}
	}
}
