//go:build js

package jsgpu

import (
	"errors"
	"fmt"
	"syscall/js"

	"github.com/goxpu/xpu/gpu/driver"
)

// buffer is a storage buffer, copyable both ways.
type buffer struct {
	d    *device
	b    js.Value // GPUBuffer
	id   uint64
	size int // as asked
	cap  int // as allocated: size rounded up to 4, at least 4

	// Guarded by d.groups.mu.
	holds     int  // open passes whose bind groups hold it
	released  bool // Release was called
	destroyed bool
}

// keepStaging is the largest staging buffer kept between reads.
const keepStaging = 16 << 20

// NewBuffer allocates size bytes (rounded up to 4), zeroed by WebGPU.
func (d *device) NewBuffer(size int) (driver.Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("webgpu: buffer of %d bytes", size)
	}
	c := max(4, (size+3)&^3)
	if limit := d.info.Limits.MaxBufferBytes; limit > 0 && uint64(c) > limit {
		return nil, fmt.Errorf("webgpu: buffer of %d bytes: over the device's limit of %d", size, limit)
	}
	b, err := call(d.dev, "createBuffer", map[string]any{
		"usage": usageStorage | usageCopySrc | usageCopyDst,
		"size":  c,
	})
	if err != nil {
		return nil, fmt.Errorf("webgpu: buffer of %d bytes: %w", size, err)
	}
	return &buffer{d: d, b: b, id: d.nextID.Add(1), size: size, cap: c}, nil
}

func (b *buffer) Size() int { return b.size }

// Write copies data at offset through the queue: it is ordered after
// every submitted launch and before every later one.
func (b *buffer) Write(offset int, data []byte) error {
	if err := b.span(offset, len(data)); err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	n := (len(data) + 3) &^ 3
	if offset+n > b.cap {
		return fmt.Errorf("webgpu: write of %d bytes at %d: not a multiple of 4", len(data), offset)
	}
	u8 := js.Global().Get("Uint8Array").New(n)
	js.CopyBytesToJS(u8, data)
	if _, err := call(b.d.queue, "writeBuffer", b.b, offset, u8); err != nil {
		return fmt.Errorf("webgpu: write: %w", err)
	}
	return nil
}

// Read copies the bytes at offset into dst through a staging buffer, after
// every submitted launch has completed.
func (b *buffer) Read(offset int, dst []byte) error {
	if err := b.span(offset, len(dst)); err != nil {
		return err
	}
	if len(dst) == 0 {
		return nil
	}
	return b.d.readback(b.b, offset, dst)
}

func (b *buffer) span(offset, n int) error {
	if offset < 0 || offset%4 != 0 || n < 0 || offset+n > b.size {
		return fmt.Errorf("webgpu: %d bytes at offset %d of a %d-byte buffer (offsets are multiples of 4)", n, offset, b.size)
	}
	return nil
}

// Release drops the buffer and the bind groups that hold it. A launch
// already recorded keeps it alive until its pass is submitted.
func (b *buffer) Release() { b.d.groups.release(b) }

// destroy frees the device memory. The caller holds d.groups.mu.
func (b *buffer) destroy() {
	if !b.destroyed {
		b.destroyed = true
		b.b.Call("destroy")
	}
}

// readback copies len(dst) bytes of src at offset into dst, and returns
// the errors the device reported since the last check.
func (d *device) readback(src js.Value, offset int, dst []byte) error {
	n := (len(dst) + 3) &^ 3
	d.readMu.Lock()
	defer d.readMu.Unlock()
	staging, err := d.stagingFor(n)
	if err != nil {
		return err
	}
	if n > keepStaging {
		defer staging.Call("destroy")
	}
	if err := d.copyOut(src, offset, staging, n); err != nil {
		return errors.Join(err, d.settle())
	}
	p, err := call(staging, "mapAsync", mapModeRead, 0, n)
	if err == nil {
		_, err = await(p)
	}
	if err != nil {
		return errors.Join(fmt.Errorf("webgpu: map: %w", err), d.settle())
	}
	u8 := js.Global().Get("Uint8Array").New(staging.Call("getMappedRange", 0, n))
	js.CopyBytesToGo(dst, u8)
	staging.Call("unmap")
	return d.settle()
}

// copyOut submits a copy of n bytes of src at offset to staging.
func (d *device) copyOut(src js.Value, offset int, staging js.Value, n int) error {
	d.scope()
	defer d.unscope()
	enc := d.dev.Call("createCommandEncoder")
	if _, err := call(enc, "copyBufferToBuffer", src, offset, staging, 0, n); err != nil {
		return fmt.Errorf("webgpu: read back: %w", err)
	}
	if _, err := call(d.queue, "submit", []any{enc.Call("finish")}); err != nil {
		return fmt.Errorf("webgpu: read back: %w", err)
	}
	return nil
}

// stagingFor returns a map-read buffer of at least n bytes: the device's
// own, grown as needed, or a new one when n exceeds keepStaging. The
// caller holds d.readMu.
func (d *device) stagingFor(n int) (js.Value, error) {
	if n <= d.stagingSize {
		return d.staging, nil
	}
	size := n
	if n <= keepStaging {
		size = 64 << 10
		for size < n {
			size *= 2
		}
	}
	b, err := call(d.dev, "createBuffer", map[string]any{"usage": usageMapRead | usageCopyDst, "size": size})
	if err != nil {
		return js.Value{}, fmt.Errorf("webgpu: staging buffer: %w", err)
	}
	if n > keepStaging {
		return b, nil
	}
	if d.stagingSize > 0 {
		d.staging.Call("destroy")
	}
	d.staging, d.stagingSize = b, size
	return b, nil
}
