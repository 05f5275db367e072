package core

// This file implements driver.Buffer: bounds, padding and release.

import (
	"context"
	"fmt"
	"math"

	"github.com/goxpu/xpu/gpu/driver"
)

// buffer is a storage buffer, copyable both ways.
type buffer struct {
	d    *Device
	b    Buffer
	id   uint64
	size int // as asked
	cap  int // as allocated: size rounded up to 4, at least 4

	// Guarded by d.groups.mu.
	holds    int  // open passes whose bind groups hold it
	released bool // Release was called; b is released once holds is 0
}

// NewBuffer allocates size bytes (rounded up to 4), zeroed.
func (d *Device) NewBuffer(size int) (driver.Buffer, error) {
	if size < 0 || size > math.MaxInt-3 { // rounding up must not wrap
		return nil, fmt.Errorf("%s: buffer of %d bytes", d.name, size)
	}
	if err := d.loss(); err != nil {
		return nil, err
	}
	c := max(4, (size+3)&^3)
	if limit := d.info.Limits.MaxBufferBytes; limit > 0 && uint64(c) > limit {
		return nil, fmt.Errorf("%s: buffer of %d bytes: over the device's limit of %d", d.name, size, limit)
	}
	b, err := d.api.CreateBuffer(UsageStorage|UsageCopySrc|UsageCopyDst, c)
	if err != nil {
		return nil, fmt.Errorf("%s: buffer of %d bytes: %w", d.name, size, err)
	}
	return &buffer{d: d, b: b, id: d.nextID.Add(1), size: size, cap: c}, nil
}

func (b *buffer) Size() int { return b.size }

// Write copies data at offset through the queue: it is ordered after
// every submitted launch and before every later one.
func (b *buffer) Write(offset int, data []byte) error {
	d := b.d
	if err := b.span(offset, len(data)); err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	if err := d.loss(); err != nil {
		return err
	}
	if len(data)%4 != 0 {
		// WebGPU writes whole words: the padding may only cover the
		// allocation's own tail, never the bytes of a buffer of 8- or
		// 16-bit elements after a view's range.
		if offset+len(data) != b.size {
			return fmt.Errorf("%s: write of %d bytes at %d ends inside a word, before the end of the %d-byte buffer", d.name, len(data), offset, b.size)
		}
		padded := make([]byte, (len(data)+3)&^3)
		copy(padded, data)
		if offset+len(padded) > b.cap {
			return fmt.Errorf("%s: write of %d bytes at %d: not a multiple of 4", d.name, len(data), offset)
		}
		data = padded
	}
	if !d.groups.live(b) {
		return fmt.Errorf("%s: write to a released buffer", d.name)
	}
	if err := d.api.WriteBuffer(b.b, offset, data); err != nil {
		return fmt.Errorf("%s: write: %w", d.name, err)
	}
	return nil
}

// Read copies the bytes at offset into dst through a staging buffer, after
// every submitted launch has completed, or until ctx is done, which loses
// the device (Device.wait).
func (b *buffer) Read(ctx context.Context, offset int, dst []byte) error {
	if err := b.span(offset, len(dst)); err != nil {
		return err
	}
	if len(dst) == 0 {
		return nil
	}
	if !b.d.groups.live(b) {
		return fmt.Errorf("%s: read of a released buffer", b.d.name)
	}
	return b.d.readback(ctx, b.b, offset, dst)
}

func (b *buffer) span(offset, n int) error {
	if offset < 0 || offset%4 != 0 || n < 0 || offset > b.size || n > b.size-offset { // no offset+n: it may wrap
		return fmt.Errorf("%s: %d bytes at offset %d of a %d-byte buffer (offsets are multiples of 4)", b.d.name, n, offset, b.size)
	}
	return nil
}

// Release drops the buffer and the bind groups that hold it. A launch
// already recorded keeps it until its pass is submitted.
func (b *buffer) Release() { b.d.groups.release(b) }

// ReleaseView drops the bind groups that bind the window of bytes at
// offset (driver.ViewReleaser): views made and released one after another
// would otherwise leave a cached group each until the buffer is released.
func (b *buffer) ReleaseView(offset, bytes int) { b.d.groups.releaseRange(b, offset, bytes) }

// binding is a buffer bound to a launch: all of it (size 0), or the
// window of a driver.View.
type binding struct {
	b            *buffer
	offset, size int
}

// bindingOf returns the binding of a buffer of a launch: a *buffer, or a
// *driver.View of one whose window lies in it.
func bindingOf(db driver.Buffer) (binding, bool) {
	switch v := db.(type) {
	case *buffer:
		return binding{b: v}, true
	case *driver.View:
		b, ok := v.Buffer.(*buffer)
		if !ok || v.Offset < 0 || v.Offset%4 != 0 || v.Bytes <= 0 || v.Bytes%4 != 0 || v.Offset > b.cap || v.Bytes > b.cap-v.Offset {
			return binding{}, false
		}
		return binding{b: b, offset: v.Offset, size: v.Bytes}, true
	}
	return binding{}, false
}
