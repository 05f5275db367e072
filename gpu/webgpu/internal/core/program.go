package core

// This file implements driver.Program: a kernel's compute pipeline.

import (
	"fmt"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// program is a kernel's compute pipeline with its explicit layout.
type program struct {
	d        *Device
	id       uint64
	name     string
	buffers  int // the buffers of a launch: the parameters', then the fault word
	params   int // buffer parameters, bound at 0..params-1
	uniforms int // the scalars' bytes of a launch (the kernel's UniformSize)
	// The uniform block, bound at binding params when block > 0: the
	// scalars, then the launch words of the code (schema.Word), which
	// dispatch writes.
	block int
	words []schema.Word
	// lens holds, per word of words, for a WordLen: the index among the
	// launch's buffers of the buffer it counts, and its element's bytes.
	lens  []wordLen
	folds bool // the code reads the grid words (schema.Manifest.Folds)
	// The fault word, when the kernel has one, is the last of a launch's
	// buffers and is bound after the uniform block (Layout).
	pipeline Pipeline
}

// Artifact returns the WGSL artifact of k this device runs: the one for
// its subgroup sizes, when it offers subgroups in the layout the wave
// tiers assume, or else the one for any device.
func (d *Device) Artifact(k *driver.Kernel) *schema.Artifact {
	var min, max uint32
	if lim := d.info.Limits; d.info.Subgroups && lim.SubgroupMin > 0 {
		min, max = lim.SubgroupMin, lim.SubgroupMax
	}
	return driver.Pick(k, schema.BackendWebGPU, min, max)
}

// Compile builds the WGSL of k's artifact into a compute pipeline whose
// bind group layout comes from k's parameters ([Layout]).
func (d *Device) Compile(k *driver.Kernel) (driver.Program, error) {
	a := d.Artifact(k)
	if a == nil || a.Target != schema.TargetWGSL || a.Code == "" {
		return nil, fmt.Errorf("%s: kernel %s has no WGSL for this device", d.name, k.Name)
	}
	if err := d.loss(); err != nil {
		return nil, err
	}
	layout := Layout(k, a)
	pl, err := d.api.CreatePipeline(k.Name, a.Code, layout)
	if err != nil {
		return nil, fmt.Errorf("%s: kernel %s: %w", d.name, k.Name, err)
	}
	p := &program{d: d, id: d.nextID.Add(1), name: k.Name, buffers: len(layout), uniforms: k.UniformSize,
		block: k.UniformSize + a.WordBytes(), words: a.Words, folds: a.Folds(), pipeline: pl}
	p.lens = make([]wordLen, len(a.Words))
	for i, w := range a.Words {
		if w.Kind == schema.WordLen && w.Param >= 0 && w.Param < len(k.Params) {
			p.lens[i] = wordLen{buffer: bufferOf(k, w.Param), elem: k.Params[w.Param].Size}
		}
	}
	if p.block > 0 {
		p.buffers--
	}
	p.params = p.buffers
	if a.Fault {
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

// wordLen locates the buffer a WordLen counts among a launch's buffers.
type wordLen struct{ buffer, elem int }

// bufferOf returns the index among k's buffer parameters of parameter i.
func bufferOf(k *driver.Kernel, i int) int {
	n := 0
	for _, prm := range k.Params[:i] {
		if prm.Kind == schema.ParamBuffer {
			n++
		}
	}
	return n
}
