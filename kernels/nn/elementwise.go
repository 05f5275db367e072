package nn

import "github.com/goxpu/xpu"

// elemBlock is the block of the element-wise kernels.
const elemBlock = 256

// maxGroupsX bounds the grids of the kernels that stride by their grid
// (and the attention's heads and tokens a launch): the least a WebGPU
// device offers along X, so that none is folded.
const maxGroupsX = 65535

// The element-wise kernels stride through their n elements by the grid's
// size, so that any grid covers any n: [ElemGroups] of n.

// ElemGroups returns the grid of an element-wise kernel over n elements:
// a work-item an element, up to maxGroupsX blocks.
func ElemGroups(n uint32) xpu.Dim3 {
	return xpu.Dim3{X: max(1, min(xpu.GroupsFor(n, elemBlock), maxGroupsX)), Y: 1, Z: 1}
}

// SiLU stores x / (1 + exp(-x)), x's sigmoid-weighted linear unit, in y.
//
//xpu:kernel block=256 len(y)=n len(x)=n
func SiLU(t xpu.Thread, y, x []float32, n uint32) {
	for i := t.GlobalX(); i < n; i += t.NumGroupsX() * elemBlock {
		v := x[i]
		y[i] = v / (1 + xpu.Exp(-v))
	}
}

// geluC is sqrt(2/pi), the tanh approximation's constant.
const geluC = 0.7978845608028654

// GELU stores the Gaussian error linear unit of x in y, by the tanh
// approximation llama.cpp and GPT-2 use: 0.5x(1 + tanh(sqrt(2/pi)(x +
// 0.044715x^3))).
//
//xpu:kernel block=256 len(y)=n len(x)=n
func GELU(t xpu.Thread, y, x []float32, n uint32) {
	for i := t.GlobalX(); i < n; i += t.NumGroupsX() * elemBlock {
		v := x[i]
		y[i] = 0.5 * v * (1 + xpu.Tanh(geluC*(v+0.044715*v*v*v)))
	}
}

// twoPi is 2*pi.
const twoPi = 6.283185307179586

// RoPE rotates each head of x, (tokens x heads x dim), by its token's
// position pos[token], into y: the pair (x[2i], x[2i+1]) of a head turns
// by pos * theta^(-2i/dim), llama.cpp's normal (interleaved) mode, the
// angle reduced into [-pi, pi] before its sine and cosine are taken. A
// work-item a pair: tokens*heads*dim/2 of them, over ElemGroups of that.
//
//xpu:kernel block=256 len(y)=tokens*heads*dim len(x)=tokens*heads*dim len(pos)=tokens
func RoPE(t xpu.Thread, y, x []float32, pos []uint32, tokens, heads, dim uint32, theta float32) {
	half := dim / 2
	n := tokens * heads * half
	for p := t.GlobalX(); p < n; p += t.NumGroupsX() * elemBlock {
		i := p % half
		token := p / half / heads
		angle := float32(pos[token]) * xpu.Pow(theta, -2*float32(i)/float32(dim))
		// Into [-pi, pi], where WGSL bounds sin's and cos's error.
		angle -= twoPi * xpu.Round(angle/twoPi)
		c, s := xpu.Cos(angle), xpu.Sin(angle)
		at := 2 * p
		a, b := x[at], x[at+1]
		y[at] = a*c - b*s
		y[at+1] = a*s + b*c
	}
}

// Add stores a + b in y, element by element: a residual connection.
//
//xpu:kernel block=256 len(y)=n len(a)=n len(b)=n
func Add(t xpu.Thread, y, a, b []float32, n uint32) {
	for i := t.GlobalX(); i < n; i += t.NumGroupsX() * elemBlock {
		y[i] = a[i] + b[i]
	}
}

// Mul stores a * b in y, element by element: a gate applied.
//
//xpu:kernel block=256 len(y)=n len(a)=n len(b)=n
func Mul(t xpu.Thread, y, a, b []float32, n uint32) {
	for i := t.GlobalX(); i < n; i += t.NumGroupsX() * elemBlock {
		y[i] = a[i] * b[i]
	}
}
