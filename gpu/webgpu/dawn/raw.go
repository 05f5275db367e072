//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"context"
	"errors"
	"runtime"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// This file drives Dawn by raw webgpu.h calls, bypassing the runtime: the
// reference point the WebGPU benchmarks (bench/webgpubench) put the
// runtime beside. Programs use the runtime (gpu.Open), not this.

// RawDevice is a Dawn device of its own, driven by raw webgpu.h calls
// through the package's bindings.
type RawDevice struct {
	dev interface{ Close() error }
	d   *api
}

// OpenRaw opens a device of its own.
func OpenRaw() (*RawDevice, error) {
	dd, err := open()
	if err != nil {
		return nil, err
	}
	return &RawDevice{dev: dd, d: core.Of(dd).API().(*api)}, nil
}

// Close releases the device.
func (r *RawDevice) Close() error { return r.dev.Close() }

// RawKernel is a pipeline with its buffers and bind group.
type RawKernel struct {
	d       *api
	p       *pipeline
	bufs    []uintptr
	group   uintptr
	offsets []uint32 // the dynamic offset, when the uniform block has one
}

// Kernel compiles wgsl with an explicit layout, bufs as storage buffers
// (the first read-write) holding them, then a uniform block holding
// uniforms, and binds them. A dynamic uniform block is bound at a dynamic
// offset (0) in a buffer as large as the runtime's uniform ring.
func (r *RawDevice) Kernel(wgsl string, bufs [][]float32, uniforms []byte, dynamic bool) (*RawKernel, error) {
	d := r.d
	d.mu.Lock()
	k := &RawKernel{d: d, p: &pipeline{d: d}}
	var layout []bindGroupLayoutEntry
	var entries []bindGroupEntry
	add := func(typ uint32, usage uint64, data []byte) error {
		i := uint32(len(layout))
		layout = append(layout, bindGroupLayoutEntry{binding: i, visibility: shaderStageCompute, bufferType: typ})
		b, err := d.createBuffer(usage|bufferUsageCopyDst, len(data))
		if err != nil {
			return err
		}
		k.bufs = append(k.bufs, b)
		entries = append(entries, bindGroupEntry{binding: i, buffer: b, size: wholeSize})
		wgpu.queueWriteBuffer(d.queue, b, 0, unsafe.Pointer(&data[0]), uintptr(len(data)))
		return nil
	}
	err := func() error {
		defer d.mu.Unlock()
		for i, v := range bufs {
			typ := uint32(bufferBindingReadOnlyStorage)
			if i == 0 {
				typ = bufferBindingStorage
			}
			if err := add(typ, bufferUsageStorage, unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))); err != nil {
				return err
			}
		}
		block := uniforms
		if dynamic {
			block = make([]byte, core.RingBytes)
			copy(block, uniforms)
		}
		if err := add(bufferBindingUniform, bufferUsageUniform, block); err != nil {
			return err
		}
		if dynamic {
			u := len(layout) - 1
			layout[u].hasDynamicOffset = 1
			layout[u].minBindingSize = uint64(len(uniforms))
			entries[u].size = uint64(len(uniforms))
			k.offsets = []uint32{0}
		}
		if err := k.p.build("raw", wgsl, layout); err != nil {
			return err
		}
		desc := bindGroupDescriptor{layout: k.p.bgl, entryCount: uintptr(len(entries)), entries: &entries[0]}
		var err error
		k.group, err = d.scoped(func() uintptr { return wgpu.deviceCreateBindGroup(d.dev, &desc) })
		runtime.KeepAlive(entries)
		return err
	}()
	if err != nil {
		k.Release()
		return nil, err
	}
	return k, nil
}

// Run records n dispatches in one pass, the bind group set once, submits
// them and waits for the queue's work to be done.
func (k *RawKernel) Run(groups xpu.Dim3, n int) error {
	d := k.d
	d.mu.Lock()
	defer d.mu.Unlock()
	enc := wgpu.deviceCreateEncoder(d.dev, 0)
	if enc == 0 {
		return errors.New("no command encoder")
	}
	cp := wgpu.encoderBeginCompute(enc, nil)
	wgpu.passSetPipeline(cp, k.p.pipeline)
	var first *uint32
	if len(k.offsets) > 0 {
		first = &k.offsets[0]
	}
	wgpu.passSetBindGroup(cp, 0, k.group, uintptr(len(k.offsets)), first)
	for range n {
		wgpu.passDispatch(cp, groups.X, groups.Y, groups.Z)
	}
	wgpu.passEnd(cp)
	wgpu.passRelease(cp)
	cmd := wgpu.encoderFinish(enc, 0)
	wgpu.encoderRelease(enc)
	wgpu.queueSubmit(d.queue, 1, &cmd)
	wgpu.commandBufferRelease(cmd)
	if err := d.waitIdle(context.Background()); err != nil {
		return err
	}
	return d.takeErr()
}

// Release frees the kernel.
func (k *RawKernel) Release() {
	k.d.mu.Lock()
	if k.group != 0 {
		wgpu.bindGroupRelease(k.group)
		k.group = 0
	}
	for _, b := range k.bufs {
		wgpu.bufferRelease(b)
	}
	k.bufs = nil
	k.d.mu.Unlock()
	k.p.Release()
}
