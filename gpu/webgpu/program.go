//go:build cgo

package webgpu

import (
	"fmt"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu/gpu/driver"
)

// program is a kernel's compute pipeline with its explicit layout.
type program struct {
	d        *device
	id       uint64
	name     string
	buffers  int // buffer parameters, bound at 0..buffers-1
	uniforms int // uniform block size; bound at binding buffers when > 0
	module   *wgpu.ShaderModule
	bgl      *wgpu.BindGroupLayout
	layout   *wgpu.PipelineLayout
	pipeline *wgpu.ComputePipeline
}

// Compile builds k's WGSL into a compute pipeline whose bind group layout
// comes from k's parameters, never from the shader: a binding the shader
// leaves unused stays in the layout.
func (d *device) Compile(k *driver.Kernel) (driver.Program, error) {
	if k.WGSL == "" {
		return nil, fmt.Errorf("webgpu: kernel %s has no WGSL", k.Name)
	}
	p := &program{d: d, id: d.nextID.Add(1), name: k.Name, uniforms: k.UniformSize}
	var entries []wgpu.BindGroupLayoutEntry
	for _, prm := range k.Params {
		if prm.Kind != driver.ParamBuffer {
			continue
		}
		typ := wgpu.BufferBindingTypeStorage
		if prm.Access == driver.AccessRead || prm.Access == driver.AccessNone {
			typ = wgpu.BufferBindingTypeReadOnlyStorage
		}
		entries = append(entries, wgpu.BindGroupLayoutEntry{
			Binding:    uint32(p.buffers),
			Visibility: wgpu.ShaderStageCompute,
			Buffer:     wgpu.BufferBindingLayout{Type: typ},
		})
		p.buffers++
	}
	if k.UniformSize > 0 {
		entries = append(entries, wgpu.BindGroupLayoutEntry{
			Binding:    uint32(p.buffers),
			Visibility: wgpu.ShaderStageCompute,
			Buffer: wgpu.BufferBindingLayout{
				Type:             wgpu.BufferBindingTypeUniform,
				HasDynamicOffset: true,
				MinBindingSize:   uint64(k.UniformSize),
			},
		})
	}
	if err := p.build(k, entries); err != nil {
		p.Release()
		return nil, fmt.Errorf("webgpu: kernel %s: %w", k.Name, err)
	}
	return p, nil
}

func (p *program) build(k *driver.Kernel, entries []wgpu.BindGroupLayoutEntry) error {
	var err error
	dev := p.d.dev
	p.module, err = dev.CreateShaderModule(&wgpu.ShaderModuleDescriptor{
		Label:          k.Name,
		WGSLDescriptor: &wgpu.ShaderModuleWGSLDescriptor{Code: k.WGSL},
	})
	if err != nil {
		return fmt.Errorf("WGSL: %w", err)
	}
	p.bgl, err = dev.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{Label: k.Name, Entries: entries})
	if err != nil {
		return fmt.Errorf("bind group layout: %w", err)
	}
	p.layout, err = dev.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{
		Label:            k.Name,
		BindGroupLayouts: []*wgpu.BindGroupLayout{p.bgl},
	})
	if err != nil {
		return fmt.Errorf("pipeline layout: %w", err)
	}
	p.pipeline, err = dev.CreateComputePipeline(&wgpu.ComputePipelineDescriptor{
		Label:   k.Name,
		Layout:  p.layout,
		Compute: wgpu.ProgrammableStageDescriptor{Module: p.module, EntryPoint: "main"},
	})
	if err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	return nil
}

// Release frees the pipeline and its bind groups.
func (p *program) Release() {
	p.d.groups.evict(p.id)
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
