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

// Submit ends the pass, writes the ring and submits.
func (p *pass) Submit(ring core.Buffer, uniforms []byte) error {
	errEnd := p.cp.End()
	p.cp.Release()
	cmd, errFinish := p.enc.Finish(nil)
	p.enc.Release()
	var errWrite error
	if errEnd == nil && errFinish == nil {
		if len(uniforms) > 0 {
			errWrite = p.a.queue.WriteBuffer(ring.(*wgpu.Buffer), 0, uniforms)
		}
		if errWrite == nil {
			p.a.queue.Submit(cmd)
		}
	}
	if cmd != nil {
		cmd.Release()
	}
	return errors.Join(errEnd, errFinish, errWrite)
}
