package gpu

// This file lends host code the memory of a device whose buffers live
// in host memory (the CPU backend), in stream order: the seam through
// which a provider written in Go, or Go assembly, runs an operation on a
// CPU device's buffers without a kernel.

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/trace"
)

// A HostBuffer is a buffer host code may be lent: any *Buffer[T].
type HostBuffer interface{ state() *bufferState }

// HostMemory reports whether d's buffers live in host memory, so that
// [Stream.RunHost] runs on it.
func (d *Device) HostMemory() bool {
	if d == nil {
		return false
	}
	_, ok := d.drv.(driver.HostMemory)
	return ok
}

// RunHost runs f on the host with the memory of bufs (each buffer's
// bytes, a view's range alone), after the work recorded on s before it
// and before the work recorded after, on a device whose buffers live in
// host memory ([Device.HostMemory]: the CPU backend). Work of other
// streams that uses bufs is ordered with it as a launch that writes
// every one of them would be (see [Stream]). f may read and
// write the bytes; they are valid only while it runs. It is an error
// wrapping [ErrUnavailable] on another device, [ErrForeignBuffer] for a
// buffer of another device, [ErrReleased] for a released one, and f's
// error otherwise.
func (s *Stream) RunHost(f func(mem [][]byte) error, bufs ...HostBuffer) error {
	if err := s.usable("Stream.RunHost"); err != nil {
		return err
	}
	if f == nil {
		return fmt.Errorf("gpu: Stream.RunHost of a nil function: %w", ErrArgs)
	}
	d := s.dev
	hm, ok := d.drv.(driver.HostMemory)
	if !ok {
		return fmt.Errorf("gpu: Stream.RunHost on %s: its buffers are not host memory: %w", d.backend, ErrUnavailable)
	}
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	// The work recorded before is done first (on the CPU backend it is
	// already: its launches run when recorded), and none recorded on s
	// while f runs.
	ctx, cancel := d.bound(context.Background())
	defer cancel()
	s.mu.Lock()
	err := s.capturing("Stream.RunHost")
	s.mu.Unlock()
	if err != nil {
		return err
	}
	if err := s.sync(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.errClosed()
	}
	if err := s.orderHost(bufs); err != nil {
		return err
	}
	mem := make([][]byte, len(bufs))
	locked := map[*bufferState]bool{} // roots read-locked, once each
	for i, b := range bufs {
		var st *bufferState
		if b != nil {
			st = b.state()
		}
		if st == nil {
			return fmt.Errorf("gpu: Stream.RunHost: buffer %d is nil: %w", i, ErrArgs)
		}
		if st.dev != d {
			return fmt.Errorf("gpu: Stream.RunHost: buffer %d is of %s device %p, the stream of %s device %p: %w", i, st.dev.backend, st.dev, d.backend, d, ErrForeignBuffer)
		}
		if !locked[st.root] {
			locked[st.root] = true
			st.root.mu.RLock()
			defer st.root.mu.RUnlock()
		}
		if err := st.live(); err != nil {
			return err
		}
		m, err := hm.HostBytes(st.bound)
		if err != nil {
			return fmt.Errorf("gpu: Stream.RunHost: buffer %d: %w", i, err)
		}
		mem[i] = m
	}
	if s.dev.Trace() == nil {
		return f(mem)
	}
	return s.traced(trace.Host, 0, hostName(f), func() error { return f(mem) })
}

// HostSlice returns mem, a buffer's memory that [Stream.RunHost] lends,
// as the elements of T it holds: the same memory, not a copy. T is a
// buffer element type, whose alignment a buffer's memory keeps.
func HostSlice[T any](mem []byte) []T {
	size := int(unsafe.Sizeof(*new(T)))
	if len(mem) < size {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&mem[0])), len(mem)/size)
}

// hostName names host function f in a trace: its package path and name,
// a closure by the function it is in.
func hostName(f func([][]byte) error) string {
	fn := runtime.FuncForPC(reflect.ValueOf(f).Pointer())
	if fn == nil {
		return "Stream.RunHost"
	}
	name := fn.Name()
	for {
		i := strings.LastIndex(name, ".func")
		if i < 0 || strings.Trim(name[i+len(".func"):], "0123456789.") != "" {
			return name
		}
		name = name[:i]
	}
}
