//go:build js

package jsgpu

import (
	"errors"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// pipeline is a GPUComputePipeline with its explicit bind group layout.
type pipeline struct {
	bgl      js.Value
	pipeline js.Value
}

// Release drops the pipeline; the browser frees it once no recorded
// launch uses it.
func (p *pipeline) Release() { p.bgl, p.pipeline = js.Value{}, js.Value{} }

// bindGroup is a GPUBindGroup.
type bindGroup struct{ g js.Value }

// Release drops the bind group; the browser frees it once no recorded
// launch uses it.
func (g *bindGroup) Release() { g.g = js.Value{} }

// bindingTypes are WebGPU's buffer binding types by the core's.
var bindingTypes = [...]string{
	core.BindingStorage:         "storage",
	core.BindingReadOnlyStorage: "read-only-storage",
	core.BindingUniform:         "uniform",
}

// CreatePipeline builds wgsl into a compute pipeline with layout. It
// waits for the browser's compiler.
func (d *device) CreatePipeline(label, wgsl string, layout []core.Binding) (core.Pipeline, error) {
	entries := make([]any, len(layout))
	for i, b := range layout {
		buf := map[string]any{"type": bindingTypes[b.Type]}
		if b.Type == core.BindingUniform {
			buf["hasDynamicOffset"] = true
			buf["minBindingSize"] = b.MinSize
		}
		entries[i] = map[string]any{"binding": i, "visibility": stageCompute, "buffer": buf}
	}
	p := &pipeline{}
	if err := p.build(d.dev, label, wgsl, entries); err != nil {
		return nil, err
	}
	return p, nil
}

// CreateBindGroup makes a bind group of p's layout, inside an error
// scope that the next settle waits for.
func (d *device) CreateBindGroup(p core.Pipeline, entries []core.Entry) (core.BindGroup, error) {
	es := make([]any, len(entries))
	for i, e := range entries {
		res := map[string]any{"buffer": e.Buffer.(*buffer).b}
		if e.Offset > 0 {
			res["offset"] = e.Offset
		}
		if e.Size > 0 {
			res["size"] = e.Size
		}
		es[i] = map[string]any{"binding": i, "resource": res}
	}
	d.scope()
	g, err := call(d.dev, "createBindGroup", map[string]any{"layout": p.(*pipeline).bgl, "entries": es})
	d.unscope()
	if err != nil {
		return nil, err
	}
	return &bindGroup{g: g}, nil
}

// build creates the module, the layouts and the pipeline inside a
// validation error scope, and reports the compiler's errors by line.
func (p *pipeline) build(dev js.Value, label, wgsl string, entries []any) error {
	dev.Call("pushErrorScope", "validation")
	module, err := call(dev, "createShaderModule", map[string]any{"label": label, "code": wgsl})
	if err == nil {
		err = compileErrors(module)
	}
	if err == nil {
		p.bgl, err = call(dev, "createBindGroupLayout", map[string]any{"label": label, "entries": entries})
	}
	var layout js.Value
	if err == nil {
		layout, err = call(dev, "createPipelineLayout", map[string]any{"label": label, "bindGroupLayouts": []any{p.bgl}})
	}
	if err == nil {
		p.pipeline, err = createPipeline(dev, map[string]any{
			"label":   label,
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

// createPipeline creates a compute pipeline and waits for it.
func createPipeline(dev js.Value, desc map[string]any) (js.Value, error) {
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
