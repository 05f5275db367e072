//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"fmt"
	"runtime"

	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// pipeline is a compute pipeline with its explicit layout.
type pipeline struct {
	d        *api
	module   uintptr
	bgl      uintptr
	layout   uintptr
	pipeline uintptr
}

// bindingTypes are Dawn's buffer binding types by the core's.
var bindingTypes = [...]uint32{
	core.BindingStorage:         bufferBindingStorage,
	core.BindingReadOnlyStorage: bufferBindingReadOnlyStorage,
	core.BindingUniform:         bufferBindingUniform,
}

// CreatePipeline builds wgsl into a compute pipeline with layout.
func (d *api) CreatePipeline(label, wgsl string, layout []core.Binding) (core.Pipeline, error) {
	entries := make([]bindGroupLayoutEntry, len(layout))
	for i, b := range layout {
		entries[i] = bindGroupLayoutEntry{binding: uint32(i), visibility: shaderStageCompute, bufferType: bindingTypes[b.Type], minBindingSize: uint64(b.MinSize)}
		if b.Type == core.BindingUniform {
			entries[i].hasDynamicOffset = 1
		}
	}
	p := &pipeline{d: d}
	d.mu.Lock()
	err := p.build(label, wgsl, entries)
	d.mu.Unlock()
	if err != nil {
		p.Release()
		return nil, err
	}
	return p, nil
}

// build makes the module, layouts and pipeline. The caller holds d.mu.
func (p *pipeline) build(name, wgsl string, entries []bindGroupLayoutEntry) error {
	d := p.d
	var err error
	label := str(name)
	src := shaderSourceWGSL{chain: chainedStruct{sType: sTypeShaderSourceWGSL}, code: str(wgsl)}
	md := shaderModuleDescriptor{next: &src, label: label}
	p.module, err = d.scoped(func() uintptr { return wgpu.deviceCreateShader(d.dev, &md) })
	if err != nil {
		return fmt.Errorf("WGSL: %w", err)
	}
	bd := bindGroupLayoutDescriptor{label: label, entryCount: uintptr(len(entries))}
	if len(entries) > 0 {
		bd.entries = &entries[0]
	}
	p.bgl, err = d.scoped(func() uintptr { return wgpu.deviceCreateBGL(d.dev, &bd) })
	if err != nil {
		return fmt.Errorf("bind group layout: %w", err)
	}
	pd := pipelineLayoutDescriptor{label: label, bindGroupLayoutCount: 1, bindGroupLayouts: &p.bgl}
	p.layout, err = d.scoped(func() uintptr { return wgpu.deviceCreatePipeLayout(d.dev, &pd) })
	if err != nil {
		return fmt.Errorf("pipeline layout: %w", err)
	}
	cd := computePipelineDescriptor{label: label, layout: p.layout, module: p.module, entryPoint: str("main")}
	p.pipeline, err = d.scoped(func() uintptr { return wgpu.deviceCreateCompute(d.dev, &cd) })
	if err != nil {
		return fmt.Errorf("pipeline: %w", err)
	}
	runtime.KeepAlive(name)
	runtime.KeepAlive(wgsl)
	runtime.KeepAlive(entries)
	return nil
}

// Release frees the pipeline, its layouts and its module.
func (p *pipeline) Release() {
	d := p.d
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, h := range []struct {
		h       *uintptr
		release func(uintptr)
	}{
		{&p.pipeline, wgpu.computePipelineRelease},
		{&p.layout, wgpu.pipelineLayoutRelease},
		{&p.bgl, wgpu.bindGroupLayoutRelease},
		{&p.module, wgpu.shaderModuleRelease},
	} {
		if *h.h != 0 {
			h.release(*h.h)
			*h.h = 0
		}
	}
}

// CreateBindGroup makes a bind group of p's layout.
func (d *api) CreateBindGroup(p core.Pipeline, entries []core.Entry) (core.BindGroup, error) {
	es := make([]bindGroupEntry, len(entries))
	for i, e := range entries {
		size := uint64(wholeSize)
		if e.Size > 0 {
			size = uint64(e.Size)
		}
		es[i] = bindGroupEntry{binding: uint32(i), buffer: handle(e.Buffer), offset: uint64(e.Offset), size: size}
	}
	desc := bindGroupDescriptor{layout: p.(*pipeline).bgl, entryCount: uintptr(len(es))}
	if len(es) > 0 {
		desc.entries = &es[0]
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	g, err := d.scoped(func() uintptr { return wgpu.deviceCreateBindGroup(d.dev, &desc) })
	runtime.KeepAlive(es)
	if err != nil {
		if g != 0 {
			wgpu.bindGroupRelease(g)
		}
		return nil, err
	}
	return &object{d: d, h: g, release: wgpu.bindGroupRelease}, nil
}
