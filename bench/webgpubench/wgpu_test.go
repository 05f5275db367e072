//go:build cgo

package webgpubench

// This file holds wgpu-native's raw calls (cogentcore/webgpu) and the
// launch benchmark, which runs on them.

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/bench/internal/kernels"
	"github.com/goxpu/xpu/gpu"
)

func init() {
	rawDrivers["wgpu"] = func(b *testing.B) rawDriver {
		r := openRaw(b)
		b.Cleanup(r.release)
		return r
	}
}

// BenchmarkLaunches makes 1,000 small saxpy launches (256 elements, one
// group) three ways in each iteration, and reports them side by side:
//
//	xpu-us/launch   through a gpu.Stream (checked, batched) and one Sync
//	raw-us/launch   the same dispatches with raw wgpu calls, one pass, one submit and wait
//	wait-us/launch  raw wgpu, one submit and wait per dispatch
//	xpu/raw         the runtime's cost relative to raw batching
//	wait/xpu        what batching saves over a submit and wait per launch
func BenchmarkLaunches(b *testing.B) {
	const launches, n = 1000, 256
	b.Setenv("XPU_WEBGPU", "wgpu")
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
	r := openRaw(b)
	defer r.release()
	k, err := r.Kernel(saxpyWGSL, [][]float32{make([]float32, n), make([]float32, n)}, make([]byte, 16), false)
	if err != nil {
		b.Fatal(err)
	}
	defer k.Release()
	groups := xpu.Dim3{X: 1, Y: 1, Z: 1}
	s := d.Stream()

	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	viaXPU := func() {
		for range launches {
			must(kernels.LaunchSaxpy(s, groups, y, x, 0.5, n))
		}
		must(s.Sync())
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
			tRaw += timed(func() { must(k.Run(groups, launches)) })
		} else {
			tRaw += timed(func() { must(k.Run(groups, launches)) })
			tXPU += timed(viaXPU)
		}
		tWait += timed(func() {
			for range launches {
				must(k.Run(groups, 1))
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

// raw is a wgpu-native device of its own, driven by cogentcore/webgpu
// calls alone: the reference point of the benchmarks.
type raw struct {
	inst    *wgpu.Instance
	adapter *wgpu.Adapter
	dev     *wgpu.Device
	queue   *wgpu.Queue
}

var _ rawDriver = (*raw)(nil)

func openRaw(b *testing.B) *raw {
	r := &raw{inst: wgpu.CreateInstance(nil)}
	var err error
	r.adapter, err = r.inst.RequestAdapter(&wgpu.RequestAdapterOptions{PowerPreference: wgpu.PowerPreferenceHighPerformance})
	if err == nil {
		r.dev, err = r.adapter.RequestDevice(nil)
	}
	if err != nil {
		r.release()
		b.Skip(err)
	}
	r.queue = r.dev.GetQueue()
	return r
}

func (r *raw) release() {
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

// wgpuKernel is a pipeline with its layouts, buffers and bind group.
type wgpuKernel struct {
	r        *raw
	module   *wgpu.ShaderModule
	bgl      *wgpu.BindGroupLayout
	layout   *wgpu.PipelineLayout
	pipeline *wgpu.ComputePipeline
	bufs     []*wgpu.Buffer
	group    *wgpu.BindGroup
	offsets  []uint32 // the dynamic offset, when the uniform block has one
}

// ringBytes is the size of the runtime's uniform ring (core.RingBytes).
const ringBytes = 256 << 10

// Kernel compiles wgsl with an explicit layout: bufs as storage, the
// first read-write, then the uniform block, at a dynamic offset (0) in a
// buffer as large as the runtime's uniform ring when dynamic.
func (r *raw) Kernel(wgsl string, bufs [][]float32, uniforms []byte, dynamic bool) (rawKernel, error) {
	k := &wgpuKernel{r: r}
	if err := k.build(wgsl, bufs, uniforms, dynamic); err != nil {
		k.Release()
		return nil, err
	}
	return k, nil
}

func (k *wgpuKernel) build(wgsl string, bufs [][]float32, uniforms []byte, dynamic bool) error {
	r := k.r
	var err error
	k.module, err = r.dev.CreateShaderModule(&wgpu.ShaderModuleDescriptor{WGSLDescriptor: &wgpu.ShaderModuleWGSLDescriptor{Code: wgsl}})
	if err != nil {
		return err
	}
	var layout []wgpu.BindGroupLayoutEntry
	var entries []wgpu.BindGroupEntry
	add := func(typ wgpu.BufferBindingType, usage wgpu.BufferUsage, data []byte) error {
		i := uint32(len(layout))
		layout = append(layout, wgpu.BindGroupLayoutEntry{Binding: i, Visibility: wgpu.ShaderStageCompute, Buffer: wgpu.BufferBindingLayout{Type: typ}})
		buf, err := r.dev.CreateBuffer(&wgpu.BufferDescriptor{Usage: usage | wgpu.BufferUsageCopyDst | wgpu.BufferUsageCopySrc, Size: uint64(len(data))})
		if err != nil {
			return err
		}
		k.bufs = append(k.bufs, buf)
		entries = append(entries, wgpu.BindGroupEntry{Binding: i, Buffer: buf, Size: wgpu.WholeSize})
		return r.queue.WriteBuffer(buf, 0, data)
	}
	for i, v := range bufs {
		typ := wgpu.BufferBindingTypeReadOnlyStorage
		if i == 0 {
			typ = wgpu.BufferBindingTypeStorage
		}
		if err := add(typ, wgpu.BufferUsageStorage, wgpu.ToBytes(v)); err != nil {
			return err
		}
	}
	block := uniforms
	if dynamic {
		block = make([]byte, ringBytes)
		copy(block, uniforms)
	}
	if err := add(wgpu.BufferBindingTypeUniform, wgpu.BufferUsageUniform, block); err != nil {
		return err
	}
	if dynamic {
		u := len(layout) - 1
		layout[u].Buffer.HasDynamicOffset = true
		layout[u].Buffer.MinBindingSize = uint64(len(uniforms))
		entries[u].Size = uint64(len(uniforms))
		k.offsets = []uint32{0}
	}
	if k.bgl, err = r.dev.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{Entries: layout}); err != nil {
		return err
	}
	if k.layout, err = r.dev.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{BindGroupLayouts: []*wgpu.BindGroupLayout{k.bgl}}); err != nil {
		return err
	}
	k.pipeline, err = r.dev.CreateComputePipeline(&wgpu.ComputePipelineDescriptor{
		Layout:  k.layout,
		Compute: wgpu.ProgrammableStageDescriptor{Module: k.module, EntryPoint: "main"},
	})
	if err != nil {
		return err
	}
	k.group, err = r.dev.CreateBindGroup(&wgpu.BindGroupDescriptor{Layout: k.bgl, Entries: entries})
	return err
}

// Run records n dispatches in one pass, the bind group set once, submits
// them and waits.
func (k *wgpuKernel) Run(groups xpu.Dim3, n int) error {
	r := k.r
	enc, err := r.dev.CreateCommandEncoder(nil)
	if err != nil {
		return err
	}
	pass := enc.BeginComputePass(nil)
	pass.SetPipeline(k.pipeline)
	pass.SetBindGroup(0, k.group, k.offsets)
	for range n {
		pass.DispatchWorkgroups(groups.X, groups.Y, groups.Z)
	}
	err = pass.End()
	pass.Release()
	if err != nil {
		enc.Release()
		return err
	}
	cmd, err := enc.Finish(nil)
	enc.Release()
	if err != nil {
		return err
	}
	r.queue.Submit(cmd)
	cmd.Release()
	r.dev.Poll(true, nil)
	return nil
}

// Read returns the contents of the kernel's first buffer, the one it
// writes, through a staging buffer mapped for reading.
func (k *wgpuKernel) Read() ([]float32, error) {
	r, src := k.r, k.bufs[0]
	size := src.GetSize()
	staging, err := r.dev.CreateBuffer(&wgpu.BufferDescriptor{Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst, Size: size})
	if err != nil {
		return nil, err
	}
	defer staging.Release()
	enc, err := r.dev.CreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	err = enc.CopyBufferToBuffer(src, 0, staging, 0, size)
	var cmd *wgpu.CommandBuffer
	if err == nil {
		cmd, err = enc.Finish(nil)
	}
	enc.Release()
	if err != nil {
		return nil, err
	}
	r.queue.Submit(cmd)
	cmd.Release()
	var status wgpu.BufferMapAsyncStatus
	if err := staging.MapAsync(wgpu.MapModeRead, 0, size, func(s wgpu.BufferMapAsyncStatus) { status = s }); err != nil {
		return nil, err
	}
	r.dev.Poll(true, nil)
	if status != wgpu.BufferMapAsyncStatusSuccess {
		return nil, fmt.Errorf("map: %s", status)
	}
	out := slices.Clone(wgpu.FromBytes[float32](staging.GetMappedRange(0, uint(size))))
	return out, staging.Unmap()
}

func (k *wgpuKernel) Release() {
	if k.group != nil {
		k.group.Release()
	}
	if k.pipeline != nil {
		k.pipeline.Release()
	}
	if k.layout != nil {
		k.layout.Release()
	}
	if k.bgl != nil {
		k.bgl.Release()
	}
	if k.module != nil {
		k.module.Release()
	}
	for _, buf := range k.bufs {
		buf.Release()
	}
}
