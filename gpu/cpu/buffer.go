package cpu

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
)

// buffer is device memory in host memory, aligned to 8.
type buffer struct {
	dev *device
	mem []byte
	pin *runtime.Pinner // mem's pin, on a device that runs host code
}

// wordBytes returns the bytes of w.
func wordBytes(w []uint64) []byte {
	if len(w) == 0 {
		return []byte{}
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8)
}

func (b *buffer) Size() int { return len(b.mem) }

func (b *buffer) span(offset, n int) error {
	if b.mem == nil {
		return fmt.Errorf("%w: buffer released", ErrLaunch)
	}
	if offset < 0 || n < 0 || offset > len(b.mem) || n > len(b.mem)-offset { // no offset+n: it may wrap
		return fmt.Errorf("%w: %d bytes at offset %d of a %d-byte buffer", ErrLaunch, n, offset, len(b.mem))
	}
	return nil
}

func (b *buffer) Write(offset int, data []byte) error {
	if err := b.span(offset, len(data)); err != nil {
		return err
	}
	copy(b.mem[offset:], data)
	return nil
}

// Read copies at once: launches ran when they were recorded, so there is
// nothing to wait for.
func (b *buffer) Read(_ context.Context, offset int, dst []byte) error {
	if err := b.span(offset, len(dst)); err != nil {
		return err
	}
	copy(dst, b.mem[offset:])
	return nil
}

func (b *buffer) Release() {
	b.mem = nil
	if b.pin != nil {
		b.pin.Unpin()
	}
}

// bytesOf returns the bytes a launch binds for b: a buffer of d, or the
// window of a driver.View of one, which starts at a multiple of 4 bytes
// and so is aligned for every element type.
// HostBytes lends host code a buffer's memory (driver.HostMemory): the
// CPU's buffers are host memory, and its launches complete when recorded.
func (d *device) HostBytes(b driver.Buffer) ([]byte, error) { return d.bytesOf(b) }

func (d *device) bytesOf(b driver.Buffer) ([]byte, error) {
	off, n := 0, -1
	if v, ok := b.(*driver.View); ok {
		b, off, n = v.Buffer, v.Offset, v.Bytes
	}
	buf, ok := b.(*buffer)
	switch {
	case !ok || buf.dev != d:
		return nil, errors.New("belongs to another device")
	case buf.mem == nil:
		return nil, errors.New("was released")
	case n < 0:
		return buf.mem, nil
	case off < 0 || off%4 != 0 || off > len(buf.mem) || n > len(buf.mem)-off:
		return nil, fmt.Errorf("a view of %d bytes at offset %d of a %d-byte buffer", n, off, len(buf.mem))
	}
	return buf.mem[off : off+n : off+n], nil
}
