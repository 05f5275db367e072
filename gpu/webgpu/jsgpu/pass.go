//go:build js

package jsgpu

import (
	"errors"
	"syscall/js"

	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// pass is a GPUCommandEncoder with a GPUComputePassEncoder open in it.
type pass struct {
	d   *device
	enc js.Value
	cp  js.Value
}

// BeginPass opens an encoder and a compute pass.
func (d *device) BeginPass() (core.Pass, error) {
	enc := d.dev.Call("createCommandEncoder")
	return &pass{d: d, enc: enc, cp: enc.Call("beginComputePass")}, nil
}

func (p *pass) SetPipeline(pl core.Pipeline) { p.cp.Call("setPipeline", pl.(*pipeline).pipeline) }

func (p *pass) SetBindGroup(g core.BindGroup, offsets []uint32) {
	if len(offsets) == 0 {
		p.cp.Call("setBindGroup", 0, g.(*bindGroup).g)
		return
	}
	p.cp.Call("setBindGroup", 0, g.(*bindGroup).g, []any{offsets[0]})
}

func (p *pass) Dispatch(x, y, z uint32) { p.cp.Call("dispatchWorkgroups", x, y, z) }

// Finish ends the pass and finishes the encoder, inside an error scope
// that the next settle waits for.
func (p *pass) Finish() (core.Commands, error) {
	p.d.scope()
	defer p.d.unscope()
	_, errEnd := call(p.cp, "end")
	cmd, errFinish := call(p.enc, "finish")
	if err := errors.Join(errEnd, errFinish); err != nil {
		return nil, err
	}
	return &commands{d: p.d, cmd: cmd}, nil
}

// commands is a GPUCommandBuffer.
type commands struct {
	d   *device
	cmd js.Value
}

// Submit writes the ring and submits, inside an error scope that the
// next settle waits for.
func (c *commands) Submit(ring core.Buffer, uniforms []byte) error {
	d := c.d
	d.scope()
	defer d.unscope()
	if len(uniforms) > 0 {
		rb := ring.(*buffer)
		if rb.image.IsUndefined() {
			rb.image = js.Global().Get("Uint8Array").New(rb.size)
		}
		js.CopyBytesToJS(rb.image, uniforms)
		if _, err := call(d.queue, "writeBuffer", rb.b, 0, rb.image, 0, len(uniforms)); err != nil {
			return err
		}
	}
	_, err := call(d.queue, "submit", []any{c.cmd})
	return err
}

// Release leaves the command buffer to the collector: WebGPU has no call
// that drops one.
func (c *commands) Release() {}
