package webgpubench

// This file holds the hand-written WGSL, the same for every driver, and
// the uniform blocks it reads.

import (
	"encoding/binary"
	"math"
)

// saxpyWGSL is kernels.Saxpy written by hand: y = a*x + y over n
// elements, 256 work-items a group.
const saxpyWGSL = `
struct Uniforms { a: f32, n: u32 }
@group(0) @binding(0) var<storage, read_write> y: array<f32>;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<uniform> u: Uniforms;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if i < u.n {
		y[i] = u.a * x[i] + y[i];
	}
}
`

// sgemmWGSL is conformance.Sgemm written by hand, the same algorithm: C =
// alpha*A*B + beta*C, one element of C per work-item, A and B staged
// through 16x16 workgroup tiles with a barrier on each side of a step.
const sgemmWGSL = `
struct Uniforms { m: u32, n: u32, k: u32, alpha: f32, beta: f32 }
@group(0) @binding(0) var<storage, read_write> c: array<f32>;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<uniform> u: Uniforms;

var<workgroup> ta: array<f32, 256>;
var<workgroup> tb: array<f32, 256>;

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) g: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>) {
	let col = g.x * 16u + l.x;
	let row = g.y * 16u + l.y;
	var acc = 0.0;
	for (var k0 = 0u; k0 < u.k; k0 += 16u) {
		var av = 0.0;
		var bv = 0.0;
		if row < u.m && k0 + l.x < u.k { av = a[row * u.k + k0 + l.x]; }
		if col < u.n && k0 + l.y < u.k { bv = b[(k0 + l.y) * u.n + col]; }
		ta[l.y * 16u + l.x] = av;
		tb[l.y * 16u + l.x] = bv;
		workgroupBarrier();
		for (var kk = 0u; kk < 16u; kk++) {
			acc += ta[l.y * 16u + kk] * tb[kk * 16u + l.x];
		}
		workgroupBarrier();
	}
	if row < u.m && col < u.n {
		c[row * u.n + col] = u.alpha * acc + u.beta * c[row * u.n + col];
	}
}
`

// uniforms packs 32-bit words into a uniform block of 32 bytes.
func uniforms(words ...uint32) []byte {
	u := make([]byte, 32)
	for i, w := range words {
		binary.LittleEndian.PutUint32(u[4*i:], w)
	}
	return u
}

func saxpyUniforms(a float32, n uint32) []byte {
	return uniforms(math.Float32bits(a), n)
}

func sgemmUniforms(m, n, k uint32, alpha, beta float32) []byte {
	return uniforms(m, n, k, math.Float32bits(alpha), math.Float32bits(beta))
}
