package core

// This file implements driver.Program: a kernel's compute pipeline.

import (
	"fmt"

	"github.com/goxpu/xpu/gpu/driver"
)

// program is a kernel's compute pipeline with its explicit layout.
type program struct {
	d        *Device
	id       uint64
	name     string
	buffers  int // the buffers of a launch: the parameters', then the fault word
	params   int // buffer parameters, bound at 0..params-1
	uniforms int // uniform block size; bound at binding params when > 0
	// The fault word, when the kernel has one, is the last of a launch's
	// buffers and is bound after the uniform block (k.FaultBinding()).
	pipeline Pipeline
}

// Compile builds k's WGSL into a compute pipeline whose bind group layout
// comes from k's parameters ([Layout]).
func (d *Device) Compile(k *driver.Kernel) (driver.Program, error) {
	if k.WGSL == "" {
		return nil, fmt.Errorf("%s: kernel %s has no WGSL", d.name, k.Name)
	}
	if err := d.loss(); err != nil {
		return nil, err
	}
	layout := Layout(k)
	pl, err := d.api.CreatePipeline(k.Name, k.WGSL, layout)
	if err != nil {
		return nil, fmt.Errorf("%s: kernel %s: %w", d.name, k.Name, err)
	}
	p := &program{d: d, id: d.nextID.Add(1), name: k.Name, buffers: len(layout), uniforms: k.UniformSize, pipeline: pl}
	if p.uniforms > 0 {
		p.buffers--
	}
	p.params = p.buffers
	if k.Fault {
		p.params--
	}
	return p, nil
}

// Release frees the pipeline and its bind groups.
func (p *program) Release() {
	p.d.groups.evict(p.id)
	if p.pipeline != nil {
		p.pipeline.Release()
		p.pipeline = nil
	}
}
