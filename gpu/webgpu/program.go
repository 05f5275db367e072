//go:build cgo

package webgpu

import (
	"fmt"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// pipeline is a compute pipeline with its explicit layout.
type pipeline struct {
	module   *wgpu.ShaderModule
	bgl      *wgpu.BindGroupLayout
	layout   *wgpu.PipelineLayout
	pipeline *wgpu.ComputePipeline
}

// bindingTypes are wgpu's buffer binding types by the core's.
var bindingTypes = [...]wgpu.BufferBindingType{
	core.BindingStorage:         wgpu.BufferBindingTypeStorage,
	core.BindingReadOnlyStorage: wgpu.BufferBindingTypeReadOnlyStorage,
	core.BindingUniform:         wgpu.BufferBindingTypeUniform,
}

// CreatePipeline builds wgsl into a compute pipeline with layout.
func (a *api) CreatePipeline(label, wgsl string, layout []core.Binding) (core.Pipeline, error) {
	entries := make([]wgpu.BindGroupLayoutEntry, len(layout))
	for i, b := range layout {
		entries[i] = wgpu.BindGroupLayoutEntry{
			Binding:    uint32(i),
			Visibility: wgpu.ShaderStageCompute,
			Buffer: wgpu.BufferBindingLayout{
				Type:             bindingTypes[b.Type],
				HasDynamicOffset: b.Type == core.BindingUniform,
				MinBindingSize:   uint64(b.MinSize),
			},
		}
	}
	p := &pipeline{}
	if err := p.build(a.dev, label, wgsl, entries); err != nil {
		p.Release()
		return nil, err
	}
	return p, nil
}

func (p *pipeline) build(dev *wgpu.Device, label, wgsl string, entries []wgpu.BindGroupLayoutEntry) error {
	var err error
	p.module, err = dev.CreateShaderModule(&wgpu.ShaderModuleDescriptor{
		Label:          label,
		WGSLDescriptor: &wgpu.ShaderModuleWGSLDescriptor{Code: wgsl},
	})
	if err != nil {
		return fmt.Errorf("WGSL: %w", err)
	}
	p.bgl, err = dev.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{Label: label, Entries: entries})
	if err != nil {
		return fmt.Errorf("bind group layout: %w", err)
	}
	p.layout, err = dev.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{
		Label:            label,
		BindGroupLayouts: []*wgpu.BindGroupLayout{p.bgl},
	})
	if err != nil {
		return fmt.Errorf("pipeline layout: %w", err)
	}
	p.pipeline, err = dev.CreateComputePipeline(&wgpu.ComputePipelineDescriptor{
		Label:   label,
		Layout:  p.layout,
		Compute: wgpu.ProgrammableStageDescriptor{Module: p.module, EntryPoint: "main"},
	})
	if err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	return nil
}

// Release frees the pipeline, its layouts and its module.
func (p *pipeline) Release() {
	if p.pipeline != nil {
		p.pipeline.Release()
		p.pipeline = nil
	}
	if p.layout != nil {
		p.layout.Release()
		p.layout = nil
	}
	if p.bgl != nil {
		p.bgl.Release()
		p.bgl = nil
	}
	if p.module != nil {
		p.module.Release()
		p.module = nil
	}
}

// CreateBindGroup makes a bind group of p's layout.
func (a *api) CreateBindGroup(p core.Pipeline, entries []core.Entry) (core.BindGroup, error) {
	es := make([]wgpu.BindGroupEntry, len(entries))
	for i, e := range entries {
		size := uint64(wgpu.WholeSize)
		if e.Size > 0 {
			size = uint64(e.Size)
		}
		es[i] = wgpu.BindGroupEntry{Binding: uint32(i), Buffer: wgpuBuffer(e.Buffer), Offset: uint64(e.Offset), Size: size}
	}
	return a.dev.CreateBindGroup(&wgpu.BindGroupDescriptor{Layout: p.(*pipeline).bgl, Entries: es})
}
