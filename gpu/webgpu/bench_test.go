//go:build cgo

package webgpu_test

import (
	"errors"
	"testing"
	"time"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

const saxpyWGSL = `
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
`

var benchSaxpy = gpu.Register(&gpu.KernelSpec{
	Name:  "github.com/goxpu/xpu/gpu/webgpu_test.Saxpy",
	Block: xpu.Dim3{X: 64},
	Params: []gpu.Param{
		{Name: "y", Kind: gpu.ParamBuffer, Type: "float32", Size: 4, Access: gpu.AccessReadWrite, Binding: 0},
		{Name: "x", Kind: gpu.ParamBuffer, Type: "float32", Size: 4, Access: gpu.AccessRead, Binding: 1},
		{Name: "a", Kind: gpu.ParamScalar, Type: "float32", Size: 4, Binding: 0},
		{Name: "n", Kind: gpu.ParamScalar, Type: "uint32", Size: 4, Binding: 4},
	},
	UniformSize: 16,
	WGSL:        saxpyWGSL,
})

// BenchmarkLaunches makes 1,000 small saxpy launches (256 elements, 4
// groups) three ways in each iteration, and reports them side by side:
//
//	xpu-us/launch   through a gpu.Stream (checked, batched) and one Sync
//	raw-us/launch   the same dispatches with raw wgpu calls, one pass, one submit and wait
//	wait-us/launch  raw wgpu, one submit and wait per dispatch
//	xpu/raw         the runtime's cost relative to raw batching
//	wait/xpu        what batching saves over a submit and wait per launch
func BenchmarkLaunches(b *testing.B) {
	const launches, n = 1000, 256
	d, err := gpu.OpenBackend("webgpu")
	if errors.Is(err, gpu.ErrUnavailable) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	y, err := gpu.NewBuffer[float32](d, n)
	if err != nil {
		b.Fatal(err)
	}
	x, err := gpu.NewBuffer[float32](d, n)
	if err != nil {
		b.Fatal(err)
	}
	raw := newRawSaxpy(b, n)
	defer raw.release()
	groups := xpu.Dim3{X: n / 64}
	s := d.Stream()

	viaXPU := func() {
		for range launches {
			if err := s.Launch(benchSaxpy, groups, y, x, float32(0.5), uint32(n)); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
	}
	timed := func(f func()) time.Duration {
		t0 := time.Now()
		f()
		return time.Since(t0)
	}
	var tXPU, tRaw, tWait time.Duration
	i := 0
	for b.Loop() {
		// Alternate which batch goes first, so neither always runs on
		// a cold or a warm device.
		if i%2 == 0 {
			tXPU += timed(viaXPU)
			tRaw += timed(func() { raw.batched(b, launches) })
		} else {
			tRaw += timed(func() { raw.batched(b, launches) })
			tXPU += timed(viaXPU)
		}
		tWait += timed(func() {
			for range launches {
				raw.batched(b, 1)
			}
		})
		i++
	}
	per := func(t time.Duration) float64 { return float64(t.Microseconds()) / float64(b.N*launches) }
	b.ReportMetric(per(tXPU), "xpu-us/launch")
	b.ReportMetric(per(tRaw), "raw-us/launch")
	b.ReportMetric(per(tWait), "wait-us/launch")
	b.ReportMetric(float64(tXPU)/float64(tRaw), "xpu/raw")
	b.ReportMetric(float64(tWait)/float64(tXPU), "wait/xpu")
}

// rawSaxpy is the same kernel driven by wgpu calls alone, the reference
// point of the benchmark.
type rawSaxpy struct {
	inst     *wgpu.Instance
	adapter  *wgpu.Adapter
	dev      *wgpu.Device
	queue    *wgpu.Queue
	module   *wgpu.ShaderModule
	bgl      *wgpu.BindGroupLayout
	layout   *wgpu.PipelineLayout
	pipeline *wgpu.ComputePipeline
	bufs     []*wgpu.Buffer
	group    *wgpu.BindGroup
	groups   uint32
}

func newRawSaxpy(b *testing.B, n int) *rawSaxpy {
	r := &rawSaxpy{inst: wgpu.CreateInstance(nil), groups: uint32(n / 64)}
	var err error
	must := func(err error) {
		if err != nil {
			r.release()
			b.Fatal(err)
		}
	}
	r.adapter, err = r.inst.RequestAdapter(&wgpu.RequestAdapterOptions{PowerPreference: wgpu.PowerPreferenceHighPerformance})
	must(err)
	r.dev, err = r.adapter.RequestDevice(nil)
	must(err)
	r.queue = r.dev.GetQueue()
	r.module, err = r.dev.CreateShaderModule(&wgpu.ShaderModuleDescriptor{WGSLDescriptor: &wgpu.ShaderModuleWGSLDescriptor{Code: saxpyWGSL}})
	must(err)
	storage := func(binding uint32, typ wgpu.BufferBindingType) wgpu.BindGroupLayoutEntry {
		return wgpu.BindGroupLayoutEntry{Binding: binding, Visibility: wgpu.ShaderStageCompute, Buffer: wgpu.BufferBindingLayout{Type: typ}}
	}
	r.bgl, err = r.dev.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{Entries: []wgpu.BindGroupLayoutEntry{
		storage(0, wgpu.BufferBindingTypeStorage),
		storage(1, wgpu.BufferBindingTypeReadOnlyStorage),
		storage(2, wgpu.BufferBindingTypeUniform),
	}})
	must(err)
	r.layout, err = r.dev.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{BindGroupLayouts: []*wgpu.BindGroupLayout{r.bgl}})
	must(err)
	r.pipeline, err = r.dev.CreateComputePipeline(&wgpu.ComputePipelineDescriptor{
		Layout:  r.layout,
		Compute: wgpu.ProgrammableStageDescriptor{Module: r.module, EntryPoint: "main"},
	})
	must(err)
	for _, u := range []wgpu.BufferUsage{wgpu.BufferUsageStorage, wgpu.BufferUsageStorage, wgpu.BufferUsageUniform} {
		buf, err := r.dev.CreateBuffer(&wgpu.BufferDescriptor{Usage: u | wgpu.BufferUsageCopyDst, Size: uint64(4 * n)})
		must(err)
		r.bufs = append(r.bufs, buf)
	}
	must(r.queue.WriteBuffer(r.bufs[2], 0, wgpu.ToBytes([]float32{0.5, 0, 0, 0})[:4]))
	must(r.queue.WriteBuffer(r.bufs[2], 4, wgpu.ToBytes([]uint32{uint32(n)})))
	r.group, err = r.dev.CreateBindGroup(&wgpu.BindGroupDescriptor{Layout: r.bgl, Entries: []wgpu.BindGroupEntry{
		{Binding: 0, Buffer: r.bufs[0], Size: wgpu.WholeSize},
		{Binding: 1, Buffer: r.bufs[1], Size: wgpu.WholeSize},
		{Binding: 2, Buffer: r.bufs[2], Size: 16},
	}})
	must(err)
	return r
}

// batched records k dispatches in one pass, submits them and waits.
func (r *rawSaxpy) batched(b *testing.B, k int) {
	enc, err := r.dev.CreateCommandEncoder(nil)
	if err != nil {
		b.Fatal(err)
	}
	pass := enc.BeginComputePass(nil)
	pass.SetPipeline(r.pipeline)
	for range k {
		pass.SetBindGroup(0, r.group, nil)
		pass.DispatchWorkgroups(r.groups, 1, 1)
	}
	if err := pass.End(); err != nil {
		b.Fatal(err)
	}
	pass.Release()
	cmd, err := enc.Finish(nil)
	enc.Release()
	if err != nil {
		b.Fatal(err)
	}
	r.queue.Submit(cmd)
	cmd.Release()
	r.dev.Poll(true, nil)
}

func (r *rawSaxpy) release() {
	if r.group != nil {
		r.group.Release()
	}
	if r.pipeline != nil {
		r.pipeline.Release()
	}
	if r.layout != nil {
		r.layout.Release()
	}
	if r.bgl != nil {
		r.bgl.Release()
	}
	if r.module != nil {
		r.module.Release()
	}
	for _, buf := range r.bufs {
		buf.Release()
	}
	if r.queue != nil {
		r.queue.Release()
	}
	if r.dev != nil {
		r.dev.Release()
	}
	if r.adapter != nil {
		r.adapter.Release()
	}
	r.inst.Release()
}
