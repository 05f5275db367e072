//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"errors"
	"unsafe"

	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// pass is a command encoder with a compute pass open in it.
type pass struct {
	d   *api
	enc uintptr
	cp  uintptr
}

// BeginPass opens an encoder and a compute pass.
func (d *api) BeginPass() (core.Pass, error) { return d.beginPass(nil) }

// beginPass opens an encoder and a compute pass described by desc.
func (d *api) beginPass(desc *computePassDescriptor) (core.Pass, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.lostErr(); err != nil {
		return nil, err
	}
	enc := wgpu.deviceCreateEncoder(d.dev, 0)
	if enc == 0 {
		return nil, errors.New("no command encoder")
	}
	return &pass{d: d, enc: enc, cp: wgpu.encoderBeginCompute(enc, desc)}, nil
}

func (p *pass) SetPipeline(pl core.Pipeline) {
	p.d.mu.Lock()
	wgpu.passSetPipeline(p.cp, pl.(*pipeline).pipeline)
	p.d.mu.Unlock()
}

func (p *pass) SetBindGroup(g core.BindGroup, offsets []uint32) {
	var first *uint32
	if len(offsets) > 0 {
		first = &offsets[0]
	}
	p.d.mu.Lock()
	wgpu.passSetBindGroup(p.cp, 0, handle(g), uintptr(len(offsets)), first)
	p.d.mu.Unlock()
}

func (p *pass) Dispatch(x, y, z uint32) {
	p.d.mu.Lock()
	wgpu.passDispatch(p.cp, x, y, z)
	p.d.mu.Unlock()
}

// Finish ends the pass and finishes the encoder.
func (p *pass) Finish() (core.Commands, error) {
	d := p.d
	d.mu.Lock()
	defer d.mu.Unlock()
	wgpu.passEnd(p.cp)
	wgpu.passRelease(p.cp)
	cmd := wgpu.encoderFinish(p.enc, 0)
	wgpu.encoderRelease(p.enc)
	if cmd == 0 {
		return nil, errors.Join(errors.New("no command buffer"), d.takeErr())
	}
	return &commands{d: d, cmd: cmd}, nil
}

// commands is a finished command buffer.
type commands struct {
	d   *api
	cmd uintptr
}

// Submit writes the ring and submits, and returns the errors the device
// reported since the last check.
func (c *commands) Submit(ring core.Buffer, uniforms []byte) error {
	d := c.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(uniforms) > 0 {
		wgpu.queueWriteBuffer(d.queue, handle(ring), 0, unsafe.Pointer(&uniforms[0]), uintptr(len(uniforms)))
	}
	wgpu.queueSubmit(d.queue, 1, &c.cmd)
	wgpu.commandBufferRelease(c.cmd)
	return d.takeErr()
}

func (c *commands) Release() {
	c.d.mu.Lock()
	wgpu.commandBufferRelease(c.cmd)
	c.d.mu.Unlock()
}
