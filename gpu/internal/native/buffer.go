package native

// This file holds device memory, written and read through the library's
// default (null) stream, which the library orders after the work of
// every queue's (blocking) stream submitted before it.

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
)

// buffer is device memory of the device d.
type buffer struct {
	d    *Device
	ptr  uintptr // the device address
	size int
}

var _ driver.Buffer = (*buffer)(nil)

// NewBuffer allocates size bytes, zeroed.
func (d *Device) NewBuffer(size int) (driver.Buffer, error) {
	if err := d.usable("NewBuffer"); err != nil {
		return nil, err
	}
	l := d.lib
	if size < 0 || uint64(size) > d.info.Limits.MaxBufferBytes {
		return nil, fmt.Errorf("%s: a buffer of %d bytes: the device holds %d", l.Prefix, size, d.info.Limits.MaxBufferBytes)
	}
	leave, err := d.Enter()
	if err != nil {
		return nil, err
	}
	defer leave()
	b := &buffer{d: d, size: size}
	// An allocation of 0 bytes is refused (CUDA) or returns no memory
	// (HIP); an empty buffer holds one word, so that every buffer has an
	// address.
	n := uintptr(max(size, 4))
	if err := d.check(fmt.Sprintf("%s(%d)", l.MemAlloc.Name, n), l.MemAlloc.Call(unsafe.Pointer(&b.ptr), n)); err != nil {
		return nil, d.failed(err)
	}
	if err := d.check(l.MemsetD8.Name, l.MemsetD8.Call(b.ptr, 0, n)); err != nil {
		l.MemFree.Call(b.ptr)
		return nil, d.failed(err)
	}
	return b, nil
}

func (b *buffer) Size() int { return b.size }

func (b *buffer) span(offset, n int) error {
	if offset < 0 || n < 0 || offset > b.size || n > b.size-offset {
		return fmt.Errorf("%s: %d bytes at offset %d of a %d-byte buffer", b.d.lib.Prefix, n, offset, b.size)
	}
	return nil
}

// Write copies data at offset on the default stream, which waits for the
// launches already submitted on every queue (their streams are blocking
// ones), and returns once data is copied.
func (b *buffer) Write(offset int, data []byte) error {
	if err := b.span(offset, len(data)); err != nil {
		return err
	}
	if err := b.d.usable("Write"); err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	leave, err := b.d.Enter()
	if err != nil {
		return err
	}
	defer leave()
	l := b.d.lib
	return b.d.failed(b.d.check(l.MemcpyHtoD.Name, l.MemcpyHtoD.Call(b.ptr+uintptr(offset), unsafe.Pointer(&data[0]), uintptr(len(data)))))
}

// Read waits, no longer than ctx allows, for the launches already
// submitted on every queue, then copies the bytes at offset into dst.
func (b *buffer) Read(ctx context.Context, offset int, dst []byte) error {
	if err := b.span(offset, len(dst)); err != nil {
		return err
	}
	if err := b.d.usable("Read"); err != nil {
		return err
	}
	if err := b.d.waitAll(ctx, "Read"); err != nil {
		return err
	}
	if len(dst) == 0 {
		return nil
	}
	leave, err := b.d.Enter()
	if err != nil {
		return err
	}
	defer leave()
	l := b.d.lib
	return b.d.failed(b.d.check(l.MemcpyDtoH.Name, l.MemcpyDtoH.Call(unsafe.Pointer(&dst[0]), b.ptr+uintptr(offset), uintptr(len(dst)))))
}

// Release frees the memory. The free waits until the device no longer
// runs work that may use it; on a lost device the memory is left to that
// work.
func (b *buffer) Release() {
	if b.ptr == 0 || b.d.usable("Release") != nil {
		return
	}
	leave, err := b.d.Enter()
	if err != nil {
		return
	}
	defer leave()
	l := b.d.lib
	b.d.failed(b.d.check(l.MemFree.Name, l.MemFree.Call(b.ptr)))
	b.ptr = 0
}

// base returns the device address and size of a buffer of this device,
// which a launch binds (Bound: or a view's window of one).
func (d *Device) base(buf driver.Buffer) (ptr uint64, size int, err error) {
	b, ok := buf.(*buffer)
	if !ok {
		return 0, 0, fmt.Errorf("a %T, not a buffer of the %s driver", buf, d.lib.Prefix)
	}
	if b.d != d || b.ptr == 0 {
		return 0, 0, fmt.Errorf("a buffer released or of another device")
	}
	return uint64(b.ptr), b.size, nil
}
