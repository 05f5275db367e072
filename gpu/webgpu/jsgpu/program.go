//go:build js

package jsgpu

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/goxpu/xpu/gpu/driver"
)

// program is a kernel's compute pipeline with its explicit layout.
type program struct {
	d        *device
	id       uint64
	name     string
	buffers  int // buffer parameters, bound at 0..buffers-1
	uniforms int // uniform block size; bound at binding buffers when > 0
	bgl      js.Value
	pipeline js.Value
}

// Compile builds k's WGSL into a compute pipeline whose bind group layout
// comes from k's parameters, never from the shader: a binding the shader
// leaves unused stays in the layout. It waits for the browser's compiler.
func (d *device) Compile(k *driver.Kernel) (driver.Program, error) {
	if k.WGSL == "" {
		return nil, fmt.Errorf("webgpu: kernel %s has no WGSL", k.Name)
	}
	p := &program{d: d, id: d.nextID.Add(1), name: k.Name, uniforms: k.UniformSize}
	var entries []any
	for _, prm := range k.Params {
		if prm.Kind != driver.ParamBuffer {
			continue
		}
		typ := "storage"
		if prm.Access == driver.AccessRead || prm.Access == driver.AccessNone {
			typ = "read-only-storage"
		}
		entries = append(entries, map[string]any{
			"binding":    p.buffers,
			"visibility": stageCompute,
			"buffer":     map[string]any{"type": typ},
		})
		p.buffers++
	}
	if k.UniformSize > 0 {
		entries = append(entries, map[string]any{
			"binding":    p.buffers,
			"visibility": stageCompute,
			"buffer": map[string]any{
				"type":             "uniform",
				"hasDynamicOffset": true,
				"minBindingSize":   k.UniformSize,
			},
		})
	}
	if err := p.build(k, entries); err != nil {
		return nil, fmt.Errorf("webgpu: kernel %s: %w", k.Name, err)
	}
	return p, nil
}

// build creates the module, the layouts and the pipeline inside a
// validation error scope, and reports the compiler's errors by line.
func (p *program) build(k *driver.Kernel, entries []any) error {
	dev := p.d.dev
	dev.Call("pushErrorScope", "validation")
	module, err := call(dev, "createShaderModule", map[string]any{"label": k.Name, "code": k.WGSL})
	if err == nil {
		err = compileErrors(module)
	}
	if err == nil {
		p.bgl, err = call(dev, "createBindGroupLayout", map[string]any{"label": k.Name, "entries": entries})
	}
	var layout js.Value
	if err == nil {
		layout, err = call(dev, "createPipelineLayout", map[string]any{"label": k.Name, "bindGroupLayouts": []any{p.bgl}})
	}
	if err == nil {
		p.pipeline, err = pipeline(dev, map[string]any{
			"label":   k.Name,
			"layout":  layout,
			"compute": map[string]any{"module": module, "entryPoint": "main"},
		})
	}
	scoped, serr := await(dev.Call("popErrorScope"))
	if serr == nil && scoped.Type() == js.TypeObject {
		serr = jsError(scoped)
	}
	if err != nil {
		return err
	}
	return serr
}

// pipeline creates a compute pipeline and waits for it.
func pipeline(dev js.Value, desc map[string]any) (js.Value, error) {
	p, err := call(dev, "createComputePipelineAsync", desc)
	if err != nil {
		return js.Value{}, fmt.Errorf("pipeline: %w", err)
	}
	pl, err := await(p)
	if err != nil {
		return js.Value{}, fmt.Errorf("pipeline: %w", err)
	}
	return pl, nil
}

// compileErrors waits for module's compilation messages and returns its
// errors, each with its line and column.
func compileErrors(module js.Value) error {
	info, err := await(module.Call("getCompilationInfo"))
	if err != nil {
		return fmt.Errorf("WGSL: %w", err)
	}
	msgs := info.Get("messages")
	var errs []string
	for i := range msgs.Length() {
		m := msgs.Index(i)
		if m.Get("type").String() != "error" {
			continue
		}
		errs = append(errs, fmt.Sprintf("%d:%d: %s", m.Get("lineNum").Int(), m.Get("linePos").Int(), m.Get("message").String()))
	}
	if len(errs) > 0 {
		return errors.New("WGSL: " + strings.Join(errs, "\n\t"))
	}
	return nil
}

// Release drops the pipeline and its bind groups; the browser frees them
// once no recorded launch uses them.
func (p *program) Release() {
	p.d.groups.evict(p.id)
	p.bgl, p.pipeline = js.Value{}, js.Value{}
}
