//go:build cgo

package webgpu

import (
	"errors"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// pass is a command encoder with a compute pass open in it.
type pass struct {
	a   *api
	enc *wgpu.CommandEncoder
	cp  *wgpu.ComputePassEncoder
}

// BeginPass opens an encoder and a compute pass.
func (a *api) BeginPass() (core.Pass, error) {
	enc, err := a.dev.CreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	return &pass{a: a, enc: enc, cp: enc.BeginComputePass(nil)}, nil
}

func (p *pass) SetPipeline(pl core.Pipeline) { p.cp.SetPipeline(pl.(*pipeline).pipeline) }

func (p *pass) SetBindGroup(g core.BindGroup, offsets []uint32) {
	p.cp.SetBindGroup(0, g.(*wgpu.BindGroup), offsets)
}

func (p *pass) Dispatch(x, y, z uint32) { p.cp.DispatchWorkgroups(x, y, z) }

// Finish ends the pass and finishes the encoder.
func (p *pass) Finish() (core.Commands, error) {
	errEnd := p.cp.End()
	p.cp.Release()
	cmd, errFinish := p.enc.Finish(nil)
	p.enc.Release()
	if err := errors.Join(errEnd, errFinish); err != nil {
		if cmd != nil {
			cmd.Release()
		}
		return nil, err
	}
	return &commands{a: p.a, cmd: cmd}, nil
}

// commands is a finished command buffer.
type commands struct {
	a   *api
	cmd *wgpu.CommandBuffer
}

// Submit queues the ring's write and the submit on the worker, with a
// copy of the uniforms.
func (c *commands) Submit(ring core.Buffer, uniforms []byte) error {
	a, cmd := c.a, c.cmd
	var rb *wgpu.Buffer
	var own []byte
	if len(uniforms) > 0 {
		rb, own = wgpuBuffer(ring), append([]byte(nil), uniforms...)
	}
	a.do(func() error {
		defer cmd.Release()
		if own != nil {
			if err := a.queue.WriteBuffer(rb, 0, own); err != nil {
				return err
			}
		}
		a.queue.Submit(cmd)
		return nil
	})
	return nil
}

func (c *commands) Release() { c.cmd.Release() }
