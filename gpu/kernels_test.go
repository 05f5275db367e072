package gpu_test

import (
	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/gpuimpl"
	"github.com/goxpu/xpu/schema"
)

// The kernels of these tests, each as Go (the reference semantics) and as
// the spec generated code would register, with hand-written WGSL.

func saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}

var saxpyKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:  "github.com/goxpu/xpu/gpu_test.Saxpy",
	Block: xpu.Dim3{X: 64},
	Params: []schema.Param{
		{Name: "y", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "float32"}, Size: 4, Access: schema.AccessReadWrite, Binding: 0},
		{Name: "x", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "float32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
		{Name: "a", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "float32"}, Size: 4, Binding: 0},
		{Name: "n", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 4},
	},
	UniformSize: 16,
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: `
struct Uniforms { a: f32, n: u32 }
@group(0) @binding(0) var<storage, read_write> y: array<f32>;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<uniform> u: Uniforms;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if i < u.n {
		y[i] = u.a * x[i] + y[i];
	}
}
`},
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: saxpyCPU},
	},
})

// iaxpy is saxpy on wrapping uint32: bit-exact, for chains of launches.
func iaxpy(t xpu.Thread, y, x []uint32, a, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*y[i] + x[i]
	}
}

var iaxpyKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:  "github.com/goxpu/xpu/gpu_test.Iaxpy",
	Block: xpu.Dim3{X: 64},
	Params: []schema.Param{
		{Name: "y", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessReadWrite, Binding: 0},
		{Name: "x", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
		{Name: "a", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 0},
		{Name: "n", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 4},
	},
	UniformSize: 16,
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: `
struct Uniforms { a: u32, n: u32 }
@group(0) @binding(0) var<storage, read_write> y: array<u32>;
@group(0) @binding(1) var<storage, read> x: array<u32>;
@group(0) @binding(2) var<uniform> u: Uniforms;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if i < u.n {
		y[i] = u.a * y[i] + x[i];
	}
}
`},
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: iaxpyCPU},
	},
})

// scramble has no scalars: a read-only and a write-only buffer, 2D grid.
func scramble(t xpu.Thread, out, in []int32) {
	i := t.GlobalY()*t.NumGroupsX()*t.BlockX() + t.GlobalX()
	if i < uint32(len(in)) {
		out[i] = (in[i] ^ int32(i*2654435761)) >> 3
	}
}

var scrambleKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:  "github.com/goxpu/xpu/gpu_test.Scramble",
	Block: xpu.Dim3{X: 8, Y: 4},
	Params: []schema.Param{
		{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "int32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
		{Name: "in", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "int32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
	},
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: `
@group(0) @binding(0) var<storage, read_write> out: array<i32>;
@group(0) @binding(1) var<storage, read> in: array<i32>;

@compute @workgroup_size(8, 4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) ng: vec3<u32>) {
	let i = gid.y * ng.x * 8u + gid.x;
	if i < arrayLength(&in) {
		out[i] = (in[i] ^ i32(i * 2654435761u)) >> 3u;
	}
}
`},
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: scrambleCPU},
	},
})

// Particle is a struct buffer element (std430: five 4-byte fields).
type Particle struct {
	X, Y, VX, VY float32
	Hits         uint32
}

func step(t xpu.Thread, ps []Particle, dt float32, n uint32) {
	if i := t.GlobalX(); i < n {
		p := ps[i]
		p.X += p.VX * dt
		p.Y += p.VY * dt
		if p.X > 1 {
			p.Hits++
		}
		ps[i] = p
	}
}

var stepKernel = gpuimpl.Register(&gpuimpl.KernelSpec{
	Name:  "github.com/goxpu/xpu/gpu_test.Step",
	Block: xpu.Dim3{X: 32},
	Params: []schema.Param{
		{Name: "ps", Kind: schema.ParamBuffer, Type: schema.TypeName{Pkg: "github.com/goxpu/xpu/gpu_test", Name: "Particle"}, Size: 20, Access: schema.AccessReadWrite, Binding: 0},
		{Name: "dt", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "float32"}, Size: 4, Binding: 0},
		{Name: "n", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 4},
	},
	UniformSize: 16,
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: `
struct Particle { x: f32, y: f32, vx: f32, vy: f32, hits: u32 }
struct Uniforms { dt: f32, n: u32 }
@group(0) @binding(0) var<storage, read_write> ps: array<Particle>;
@group(0) @binding(1) var<uniform> u: Uniforms;

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if i < u.n {
		var p = ps[i];
		p.x += p.vx * u.dt;
		p.y += p.vy * u.dt;
		if p.x > 1.0 {
			p.hits += 1u;
		}
		ps[i] = p;
	}
}
`},
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: stepCPU},
	},
})

// The Go lowerings of the kernels above for the CPU backend, written by
// hand as codegen would write them.

func saxpyCPU(b *gpuimpl.CPUBlock) {
	y, x := gpuimpl.CPUView[float32](b.Buffers[0]), gpuimpl.CPUView[float32](b.Buffers[1])
	a, n := gpuimpl.CPUUniform[float32](b.Uniforms, 0), gpuimpl.CPUUniform[uint32](b.Uniforms, 4)
	for lx := range uint32(64) {
		if i := b.Group.X*64 + lx; i < n {
			y[i] = a*x[i] + y[i]
		}
	}
}

func iaxpyCPU(b *gpuimpl.CPUBlock) {
	y, x := gpuimpl.CPUView[uint32](b.Buffers[0]), gpuimpl.CPUView[uint32](b.Buffers[1])
	a, n := gpuimpl.CPUUniform[uint32](b.Uniforms, 0), gpuimpl.CPUUniform[uint32](b.Uniforms, 4)
	for lx := range uint32(64) {
		if i := b.Group.X*64 + lx; i < n {
			y[i] = a*y[i] + x[i]
		}
	}
}

func scrambleCPU(b *gpuimpl.CPUBlock) {
	out, in := gpuimpl.CPUView[int32](b.Buffers[0]), gpuimpl.CPUView[int32](b.Buffers[1])
	for ly := range uint32(4) {
		for lx := range uint32(8) {
			gx, gy := b.Group.X*8+lx, b.Group.Y*4+ly
			if i := gy*b.Groups.X*8 + gx; i < uint32(len(in)) {
				out[i] = (in[i] ^ int32(i*2654435761)) >> 3
			}
		}
	}
}

func stepCPU(b *gpuimpl.CPUBlock) {
	ps := gpuimpl.CPUView[Particle](b.Buffers[0])
	dt, n := gpuimpl.CPUUniform[float32](b.Uniforms, 0), gpuimpl.CPUUniform[uint32](b.Uniforms, 4)
	for lx := range uint32(32) {
		if i := b.Group.X*32 + lx; i < n {
			p := ps[i]
			p.X += p.VX * dt
			p.Y += p.VY * dt
			if p.X > 1 {
				p.Hits++
			}
			ps[i] = p
		}
	}
}
