//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"fmt"
	"runtime"

	"github.com/goxpu/xpu/gpu/driver"
)

// program is a kernel's compute pipeline with its explicit layout.
type program struct {
	d        *device
	id       uint64
	name     string
	buffers  int // buffer parameters, bound at 0..buffers-1
	uniforms int // uniform block size; bound at binding buffers when > 0
	module   uintptr
	bgl      uintptr
	layout   uintptr
	pipeline uintptr
}

// Compile builds k's WGSL into a compute pipeline whose bind group layout
// comes from k's parameters, never from the shader: a binding the shader
// leaves unused stays in the layout.
func (d *device) Compile(k *driver.Kernel) (driver.Program, error) {
	if k.WGSL == "" {
		return nil, fmt.Errorf("dawn: kernel %s has no WGSL", k.Name)
	}
	p := &program{d: d, id: d.nextID.Add(1), name: k.Name, uniforms: k.UniformSize}
	var entries []bindGroupLayoutEntry
	for _, prm := range k.Params {
		if prm.Kind != driver.ParamBuffer {
			continue
		}
		typ := uint32(bufferBindingStorage)
		if prm.Access == driver.AccessRead || prm.Access == driver.AccessNone {
			typ = bufferBindingReadOnlyStorage
		}
		entries = append(entries, bindGroupLayoutEntry{binding: uint32(p.buffers), visibility: shaderStageCompute, bufferType: typ})
		p.buffers++
	}
	if k.UniformSize > 0 {
		entries = append(entries, bindGroupLayoutEntry{
			binding:          uint32(p.buffers),
			visibility:       shaderStageCompute,
			bufferType:       bufferBindingUniform,
			hasDynamicOffset: 1,
			minBindingSize:   uint64(k.UniformSize),
		})
	}
	d.mu.Lock()
	err := p.build(k, entries)
	d.mu.Unlock()
	if err != nil {
		p.Release()
		return nil, fmt.Errorf("dawn: kernel %s: %w", k.Name, err)
	}
	return p, nil
}

// build makes the module, layouts and pipeline. The caller holds d.mu.
func (p *program) build(k *driver.Kernel, entries []bindGroupLayoutEntry) error {
	d := p.d
	var err error
	label := str(k.Name)
	src := shaderSourceWGSL{chain: chainedStruct{sType: sTypeShaderSourceWGSL}, code: str(k.WGSL)}
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
	runtime.KeepAlive(k)
	runtime.KeepAlive(entries)
	return nil
}

// Release frees the pipeline and its bind groups.
func (p *program) Release() {
	d := p.d
	d.mu.Lock()
	defer d.mu.Unlock()
	d.groups.evict(p.id)
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
