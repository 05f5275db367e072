//go:build cgo

package webgpu

import (
	"fmt"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu/gpu/driver"
)

// buffer is a storage buffer, copyable both ways.
type buffer struct {
	d    *device
	b    *wgpu.Buffer
	id   uint64
	size int // as asked
	cap  int // as allocated: size rounded up to 4, at least 4
}

// keepStaging is the largest staging buffer kept between reads.
const keepStaging = 16 << 20

// NewBuffer allocates size bytes (rounded up to 4), zeroed by wgpu.
func (d *device) NewBuffer(size int) (driver.Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("webgpu: buffer of %d bytes", size)
	}
	c := max(4, (size+3)&^3)
	b, err := d.dev.CreateBuffer(&wgpu.BufferDescriptor{
		Usage: wgpu.BufferUsageStorage | wgpu.BufferUsageCopySrc | wgpu.BufferUsageCopyDst,
		Size:  uint64(c),
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
	if len(data)%4 != 0 {
		padded := make([]byte, (len(data)+3)&^3)
		copy(padded, data)
		if offset+len(padded) > b.cap {
			return fmt.Errorf("webgpu: write of %d bytes at %d: not a multiple of 4", len(data), offset)
		}
		data = padded
	}
	return b.d.queue.WriteBuffer(b.b, uint64(offset), data)
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
// already recorded keeps what it uses alive until it has run.
func (b *buffer) Release() {
	if b.b == nil {
		return
	}
	b.d.groups.evict(b.id)
	b.b.Release()
	b.b = nil
}

// readback copies n bytes of src at offset into dst.
func (d *device) readback(src *wgpu.Buffer, offset int, dst []byte) error {
	n := (len(dst) + 3) &^ 3
	d.readMu.Lock()
	defer d.readMu.Unlock()
	staging, err := d.stagingFor(n)
	if err != nil {
		return err
	}
	if n > keepStaging {
		defer staging.Release()
	}
	enc, err := d.dev.CreateCommandEncoder(nil)
	if err != nil {
		return err
	}
	err = enc.CopyBufferToBuffer(src, uint64(offset), staging, 0, uint64(n))
	var cmd *wgpu.CommandBuffer
	if err == nil {
		cmd, err = enc.Finish(nil)
	}
	enc.Release()
	if err != nil {
		return fmt.Errorf("webgpu: read back: %w", err)
	}
	d.queue.Submit(cmd)
	cmd.Release()

	done := make(chan wgpu.BufferMapAsyncStatus, 1)
	if err := staging.MapAsync(wgpu.MapModeRead, 0, uint64(n), func(s wgpu.BufferMapAsyncStatus) { done <- s }); err != nil {
		return fmt.Errorf("webgpu: map: %w", err)
	}
	var status wgpu.BufferMapAsyncStatus
	for waiting := true; waiting; {
		select {
		case status = <-done:
			waiting = false
		default:
			d.dev.Poll(true, nil)
		}
	}
	if status != wgpu.BufferMapAsyncStatusSuccess {
		return fmt.Errorf("webgpu: map: %s", status)
	}
	copy(dst, staging.GetMappedRange(0, uint(n)))
	return staging.Unmap()
}

// stagingFor returns a map-read buffer of at least n bytes: the device's
// own, grown as needed, or a new one when n exceeds keepStaging. The
// caller holds d.readMu.
func (d *device) stagingFor(n int) (*wgpu.Buffer, error) {
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
	b, err := d.dev.CreateBuffer(&wgpu.BufferDescriptor{
		Usage: wgpu.BufferUsageMapRead | wgpu.BufferUsageCopyDst,
		Size:  uint64(size),
	})
	if err != nil {
		return nil, fmt.Errorf("webgpu: staging buffer: %w", err)
	}
	if n > keepStaging {
		return b, nil
	}
	if d.staging != nil {
		d.staging.Release()
	}
	d.staging, d.stagingSize = b, size
	return b, nil
}
