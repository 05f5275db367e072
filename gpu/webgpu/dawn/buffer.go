//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"context"
	"errors"
	"fmt"
	"unsafe"

	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// object is a handle the library made, with the function that releases
// it: a buffer or a bind group.
type object struct {
	d       *api
	h       uintptr
	release func(uintptr)
}

// Release releases the handle once.
func (o *object) Release() {
	o.d.mu.Lock()
	defer o.d.mu.Unlock()
	if o.h != 0 {
		o.release(o.h)
		o.h = 0
	}
}

// handle returns the library's handle of a buffer or bind group.
func handle(v any) uintptr { return v.(*object).h }

// CreateBuffer makes a buffer, zeroed by Dawn.
func (d *api) CreateBuffer(usage core.Usage, size int) (core.Buffer, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	b, err := d.createBuffer(uint64(usage), size)
	if err != nil {
		return nil, err
	}
	return &object{d: d, h: b, release: wgpu.bufferRelease}, nil
}

// createBuffer makes a buffer of size bytes. The caller holds d.mu.
func (d *api) createBuffer(usage uint64, size int) (uintptr, error) {
	desc := bufferDescriptor{usage: usage, size: uint64(size)}
	b, err := d.scoped(func() uintptr { return wgpu.deviceCreateBuffer(d.dev, &desc) })
	if err != nil && b != 0 {
		wgpu.bufferRelease(b)
	}
	return b, err
}

// WriteBuffer writes data at offset through the queue.
func (d *api) WriteBuffer(b core.Buffer, offset int, data []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.lostErr(); err != nil {
		return err
	}
	wgpu.queueWriteBuffer(d.queue, handle(b), uint64(offset), unsafe.Pointer(&data[0]), uintptr(len(data)))
	return nil
}

// ReadBuffer copies n bytes of src at offset into dst through staging,
// returning the errors the device reported since the last check.
func (d *api) ReadBuffer(ctx context.Context, src core.Buffer, offset int, staging core.Buffer, n int, dst []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	sb := handle(staging)
	enc := wgpu.deviceCreateEncoder(d.dev, 0)
	wgpu.encoderCopyBuffer(enc, handle(src), uint64(offset), sb, 0, uint64(n))
	cmd := wgpu.encoderFinish(enc, 0)
	wgpu.encoderRelease(enc)
	wgpu.queueSubmit(d.queue, 1, &cmd)
	wgpu.commandBufferRelease(cmd)
	if err := d.takeErr(); err != nil {
		return err
	}
	if err := d.mapRead(ctx, sb, n, dst); err != nil {
		return err
	}
	return d.takeErr()
}

// mapRead maps the first n bytes of a map-read buffer, copies them into
// dst and unmaps it. The caller holds d.mu.
func (d *api) mapRead(ctx context.Context, staging uintptr, n int, dst []byte) error {
	id, r := expect()
	defer forget(id)
	f := wgpu.bufferMapAsync(staging, mapModeRead, 0, uintptr(n), waitInfo(callbacks.mapped, id))
	if err := d.await(ctx, f); err != nil {
		return fmt.Errorf("map: %w", err)
	}
	if r.status != statusSuccess {
		return errors.Join(fmt.Errorf("map: status %d: %s", r.status, r.message), d.takeErr())
	}
	p := wgpu.bufferGetConstMapped(staging, 0, uintptr(n))
	if p == nil {
		wgpu.bufferUnmap(staging)
		return errors.New("map: no mapped range")
	}
	copy(dst, unsafe.Slice((*byte)(p), len(dst)))
	wgpu.bufferUnmap(staging)
	return nil
}
