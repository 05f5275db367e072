//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
)

// buffer is a storage buffer, copyable both ways.
type buffer struct {
	d    *device
	b    uintptr
	id   uint64
	size int // as asked
	cap  int // as allocated: size rounded up to 4, at least 4
}

// keepStaging is the largest staging buffer kept between reads.
const keepStaging = 16 << 20

// NewBuffer allocates size bytes (rounded up to 4), zeroed by Dawn.
func (d *device) NewBuffer(size int) (driver.Buffer, error) {
	if size < 0 {
		return nil, fmt.Errorf("dawn: buffer of %d bytes", size)
	}
	c := max(4, (size+3)&^3)
	d.mu.Lock()
	defer d.mu.Unlock()
	b, err := d.createBuffer(bufferUsageStorage|bufferUsageCopySrc|bufferUsageCopyDst, c)
	if err != nil {
		return nil, fmt.Errorf("dawn: buffer of %d bytes: %w", size, err)
	}
	return &buffer{d: d, b: b, id: d.nextID.Add(1), size: size, cap: c}, nil
}

// createBuffer makes a buffer of size bytes. The caller holds d.mu.
func (d *device) createBuffer(usage uint64, size int) (uintptr, error) {
	desc := bufferDescriptor{usage: usage, size: uint64(size)}
	b, err := d.scoped(func() uintptr { return wgpu.deviceCreateBuffer(d.dev, &desc) })
	if err != nil && b != 0 {
		wgpu.bufferRelease(b)
	}
	return b, err
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
			return fmt.Errorf("dawn: write of %d bytes at %d: not a multiple of 4", len(data), offset)
		}
		data = padded
	}
	d := b.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if b.b == 0 {
		return errors.New("dawn: write to a released buffer")
	}
	if err := d.lostErr(); err != nil {
		return err
	}
	wgpu.queueWriteBuffer(d.queue, b.b, uint64(offset), unsafe.Pointer(&data[0]), uintptr(len(data)))
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
	d := b.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if b.b == 0 {
		return errors.New("dawn: read of a released buffer")
	}
	return d.readback(b.b, offset, dst)
}

func (b *buffer) span(offset, n int) error {
	if offset < 0 || offset%4 != 0 || n < 0 || offset+n > b.size {
		return fmt.Errorf("dawn: %d bytes at offset %d of a %d-byte buffer (offsets are multiples of 4)", n, offset, b.size)
	}
	return nil
}

// Release drops the buffer and the bind groups that hold it. A launch
// already submitted keeps what it uses alive until it has run.
func (b *buffer) Release() {
	d := b.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if b.b == 0 {
		return
	}
	d.groups.evict(b.id)
	wgpu.bufferRelease(b.b)
	b.b = 0
}

// readback copies len(dst) bytes of src at offset into dst, returning the
// errors the device reported since the last flush. The caller holds d.mu.
func (d *device) readback(src uintptr, offset int, dst []byte) error {
	n := (len(dst) + 3) &^ 3
	staging, err := d.stagingFor(n)
	if err != nil {
		return err
	}
	if n > keepStaging {
		defer wgpu.bufferRelease(staging)
	}
	enc := wgpu.deviceCreateEncoder(d.dev, 0)
	wgpu.encoderCopyBuffer(enc, src, uint64(offset), staging, 0, uint64(n))
	cmd := wgpu.encoderFinish(enc, 0)
	wgpu.encoderRelease(enc)
	wgpu.queueSubmit(d.queue, 1, &cmd)
	wgpu.commandBufferRelease(cmd)
	if err := d.takeErr(); err != nil {
		return fmt.Errorf("dawn: read back: %w", err)
	}
	if err := d.mapRead(staging, n, dst); err != nil {
		return err
	}
	return d.takeErr()
}

// mapRead maps the first n bytes of a map-read buffer, copies them into
// dst and unmaps it. The caller holds d.mu.
func (d *device) mapRead(staging uintptr, n int, dst []byte) error {
	id, r := expect()
	defer forget(id)
	f := wgpu.bufferMapAsync(staging, mapModeRead, 0, uintptr(n), waitInfo(callbacks.mapped, id))
	if err := d.await(f); err != nil {
		return fmt.Errorf("dawn: map: %w", err)
	}
	if r.status != statusSuccess {
		return errors.Join(fmt.Errorf("dawn: map: status %d: %s", r.status, r.message), d.takeErr())
	}
	p := wgpu.bufferGetConstMapped(staging, 0, uintptr(n))
	if p == nil {
		wgpu.bufferUnmap(staging)
		return errors.New("dawn: map: no mapped range")
	}
	copy(dst, unsafe.Slice((*byte)(p), n))
	wgpu.bufferUnmap(staging)
	return nil
}

// stagingFor returns a map-read buffer of at least n bytes: the device's
// own, grown as needed, or a new one when n exceeds keepStaging. The
// caller holds d.mu.
func (d *device) stagingFor(n int) (uintptr, error) {
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
	b, err := d.createBuffer(bufferUsageMapRead|bufferUsageCopyDst, size)
	if err != nil {
		return 0, fmt.Errorf("dawn: staging buffer: %w", err)
	}
	if n > keepStaging {
		return b, nil
	}
	if d.staging != 0 {
		wgpu.bufferRelease(d.staging)
	}
	d.staging, d.stagingSize = b, size
	return b, nil
}
