package gpu

import (
	"context"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/trace"
)

// Buffer is device memory holding Len elements of T. T is a 32-bit scalar
// (int32, uint32, float32, or a type defined from one) or a struct of
// them, or an 8- or 16-bit integer (int8, uint8, int16, uint16), which
// WebGPU allocates in whole 32-bit words (there, a view of such a buffer
// is read, written or bound only from a word's start, and written only
// to a word's end or the buffer's). A Buffer is an allocation
// ([NewBuffer], [Upload]) or a view of some of another's elements
// ([Buffer.Slice]). A Buffer is safe for
// concurrent use; its contents are not synchronized with launches that
// write it except by the flushes that Read and Write perform.
type Buffer[T any] struct {
	st *bufferState
	n  int
}

// bufferState is the untyped part of a buffer that launches see.
type bufferState struct {
	dev    *Device
	drv    driver.Buffer // the allocation's; a view shares its root's
	bound  driver.Buffer // what a launch binds: drv, or a *driver.View of it
	elem   *element
	bytes  int
	offset int          // bytes into the allocation where the buffer starts
	root   *bufferState // the allocation; itself for an allocation
	pool   *Pool        // the pool an allocation is from; nil for none

	// mu, an allocation's (a view uses its root's), is held for reading
	// while drv is in use and for writing to release it or a view.
	mu       sync.RWMutex
	released bool // guarded by root.mu

	claims []claim // an allocation's, by stream (hazard.go); guarded by dev.hz.mu
}

// bufferArg is implemented by every *Buffer[T].
type bufferArg interface {
	state() *bufferState
}

func (b *Buffer[T]) state() *bufferState {
	if b == nil {
		return nil
	}
	return b.st
}

// NewBuffer allocates a buffer of n elements of T on d, zeroed.
func NewBuffer[T any](d *Device, n int) (*Buffer[T], error) { return newBuffer[T](d, nil, n) }

// NewBufferIn allocates a buffer of n elements of T from p, zeroed: on
// p's device, counted against p's budget as well as the device's.
func NewBufferIn[T any](p *Pool, n int) (*Buffer[T], error) {
	if p == nil {
		return nil, fmt.Errorf("gpu: NewBufferIn of a nil *gpu.Pool (make one with Device.NewPool): %w", ErrArgs)
	}
	return newBuffer[T](p.d, p, n)
}

// newBuffer allocates a buffer of n elements of T on d, from p when it is
// not nil.
func newBuffer[T any](d *Device, p *Pool, n int) (*Buffer[T], error) {
	e := elementOf[T]()
	if e.err != nil {
		return nil, e.err
	}
	if err := d.usable("NewBuffer"); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("gpu: NewBuffer[%s] of %d elements: %w", e.name, n, ErrSize)
	}
	if n > math.MaxInt/e.size {
		return nil, fmt.Errorf("gpu: NewBuffer[%s] of %d elements: %d-byte elements overflow an int of bytes: %w", e.name, n, e.size, ErrSize)
	}
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return nil, d.errClosed()
	}
	size := n * e.size
	if lim := d.info.Limits.MaxBufferBytes; lim != 0 && uint64(size) > lim {
		return nil, fmt.Errorf("gpu: NewBuffer[%s] of %d bytes: the device allows %d: %w", e.name, size, lim, ErrLimits)
	}
	if p != nil {
		if err := p.reserve(fmt.Sprintf("pool %q's budget", p.name), e.name, size); err != nil {
			return nil, err
		}
	}
	if err := d.adm.reserve("a memory budget", e.name, size); err != nil {
		if p != nil {
			p.unreserve(size)
		}
		return nil, err
	}
	drv, err := d.drv.NewBuffer(size)
	if err != nil {
		d.adm.unreserve(size)
		if p != nil {
			p.unreserve(size)
		}
		return nil, fmt.Errorf("gpu: NewBuffer[%s] of %d bytes: the device could not allocate it: %w: %w", e.name, size, ErrLimits, err)
	}
	st := &bufferState{dev: d, drv: drv, bound: drv, elem: e, bytes: size, pool: p}
	st.root = st
	d.mu.Lock()
	d.buffers[st] = struct{}{}
	d.mu.Unlock()
	return &Buffer[T]{st: st, n: n}, nil
}

// Upload allocates a buffer on d holding a copy of data.
func Upload[T any](d *Device, data []T) (*Buffer[T], error) {
	b, err := NewBuffer[T](d, len(data))
	if err != nil {
		return nil, err
	}
	return b.fill(data)
}

// UploadIn allocates a buffer from p holding a copy of data.
func UploadIn[T any](p *Pool, data []T) (*Buffer[T], error) {
	b, err := NewBufferIn[T](p, len(data))
	if err != nil {
		return nil, err
	}
	return b.fill(data)
}

// fill writes data into b, a new buffer, releasing it on failure.
func (b *Buffer[T]) fill(data []T) (*Buffer[T], error) {
	// A new buffer is in no launch yet: no flush is needed before writing.
	if err := b.write(data, false); err != nil {
		b.Release()
		return nil, err
	}
	return b, nil
}

// Len returns the number of elements; 0 for a nil buffer.
func (b *Buffer[T]) Len() int {
	if b == nil {
		return 0
	}
	return b.n
}

// Device returns the device that holds the buffer; nil for a nil buffer.
func (b *Buffer[T]) Device() *Device {
	if b == nil || b.st == nil {
		return nil
	}
	return b.st.dev
}

// Write copies data, which must hold exactly Len elements, into the
// buffer, after every launch recorded so far on any stream of the device.
// It does not wait for them: on WebGPU the write is queued behind them,
// and a fault of theirs is reported by the next Read or Sync.
func (b *Buffer[T]) Write(data []T) error {
	return b.write(data, true)
}

func (b *Buffer[T]) write(data []T, flush bool) error {
	if b == nil || b.st == nil {
		return fmt.Errorf("gpu: Write to a nil buffer: %w", ErrArgs)
	}
	if len(data) != b.n {
		return fmt.Errorf("gpu: Write of %d elements to a Buffer[%s] of %d: %w", len(data), b.st.elem.name, b.n, ErrSize)
	}
	ctx, cancel := b.st.dev.bound(context.Background())
	defer cancel()
	order := afterFlushed
	if !flush {
		order = unordered
	}
	return b.st.access(ctx, order, "Buffer.Write", func(drv driver.Buffer, offset int) error {
		return drv.Write(offset, bytesOf(data))
	})
}

// Read copies the buffer into dst, which must hold exactly Len elements,
// after every launch recorded so far on any stream of the device has
// completed.
func (b *Buffer[T]) Read(dst []T) error {
	return b.ReadContext(context.Background(), dst)
}

// ReadContext is Read that waits for the device no longer than ctx
// allows (and the device's wait limit, [Device.SetWaitLimit]): when ctx
// is done first it returns an error wrapping [ErrTimeout], and what dst
// holds is unspecified. On WebGPU the device is then lost ([ErrLost]).
func (b *Buffer[T]) ReadContext(ctx context.Context, dst []T) error {
	if b == nil || b.st == nil {
		return fmt.Errorf("gpu: Read from a nil buffer: %w", ErrArgs)
	}
	if err := usableContext("Buffer.ReadContext", ctx); err != nil {
		return err
	}
	if len(dst) != b.n {
		return fmt.Errorf("gpu: Read of a Buffer[%s] of %d elements into %d: %w", b.st.elem.name, b.n, len(dst), ErrSize)
	}
	ctx, cancel := b.st.dev.bound(ctx)
	defer cancel()
	return b.st.access(ctx, afterCompleted, "Buffer.Read", func(drv driver.Buffer, offset int) error {
		return drv.Read(ctx, offset, bytesOf(dst))
	})
}

// Download returns a copy of the buffer's contents, read as Read does.
func (b *Buffer[T]) Download() ([]T, error) {
	if b == nil || b.st == nil {
		return nil, fmt.Errorf("gpu: Download from a nil buffer: %w", ErrArgs)
	}
	out := make([]T, b.n)
	if err := b.Read(out); err != nil {
		return nil, err
	}
	return out, nil
}

// Release frees the buffer's device memory. Launches already recorded that
// use it still see it; later uses of it and of its views return errors
// wrapping [ErrReleased]. Releasing a view ends the view's use and frees
// no memory, but the driver drops what it kept for the view's range
// (WebGPU bind groups). Release is idempotent.
func (b *Buffer[T]) Release() {
	if b == nil || b.st == nil {
		return
	}
	b.st.dev.commitAuto()
	b.st.release()
}

// ordering is what a transfer is ordered after.
type ordering int

const (
	// unordered: nothing (a buffer no launch has bound yet).
	unordered ordering = iota
	// afterFlushed: every launch recorded so far, which the device runs
	// first: a write, which the device queues behind them.
	afterFlushed
	// afterCompleted: every launch recorded so far, completed, and
	// reported if it faulted: a read, which waits for them.
	afterCompleted
)

// access runs f, the transfer named name, on the allocation's driver
// buffer and the buffer's offset into it, ordered as order says; ctx
// bounds the wait for the fault words. The trace sees it as a span of
// the default stream.
func (st *bufferState) access(ctx context.Context, order ordering, name string, f func(drv driver.Buffer, offset int) error) error {
	d := st.dev
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	if d.capturing.Load() > 0 {
		if err := d.captured(st, name); err != nil {
			return err
		}
	}
	// Flush before taking the buffer's lock: a launch holds a stream's
	// lock while it takes buffer locks.
	if order >= afterFlushed {
		if err := d.flushAll(ctx); err != nil {
			return err
		}
	}
	if order == afterCompleted {
		// A launch that faulted is reported here, by the read that
		// observes it, which then does not run. A write does not wait
		// for the launches it follows: their faults go to the next
		// read or sync.
		if err := d.checkFaults(ctx); err != nil {
			return err
		}
	}
	st.root.mu.RLock()
	defer st.root.mu.RUnlock()
	if err := st.live(); err != nil {
		return err
	}
	if st.bytes == 0 {
		return nil
	}
	return d.def.traced(trace.Transfer, 0, name, func() error { return f(st.drv, st.offset) })
}

// live returns an ErrReleased error when the buffer or, for a view, its
// allocation has been released. The caller holds root.mu.
func (st *bufferState) live() error {
	switch {
	case st.released:
		return fmt.Errorf("gpu: Buffer[%s]: %w", st.elem.name, ErrReleased)
	case st.root.released:
		return fmt.Errorf("gpu: Buffer[%s]: a view of a released buffer: %w", st.elem.name, ErrReleased)
	}
	return nil
}

// release frees an allocation, or ends a view's use. A capture that
// binds it then fails (Stream.Capture).
func (st *bufferState) release() {
	if d := st.dev; d.capturing.Load() > 0 {
		if err := d.captured(st, "Buffer.Release"); err != nil {
			d.spoil(st, err)
		}
	}
	r := st.root
	r.mu.Lock()
	if st.released {
		r.mu.Unlock()
		return
	}
	st.released = true
	st.dev.releases.Add(1)
	if st != r {
		// What the driver keeps for the view's window (a WebGPU bind
		// group per range) goes with it; launches recorded keep theirs.
		if v, ok := st.bound.(*driver.View); ok {
			v.Release()
		}
		r.mu.Unlock()
		return
	}
	st.drv.Release()
	st.mu.Unlock()
	d := st.dev
	d.adm.unreserve(st.bytes)
	if st.pool != nil {
		st.pool.unreserve(st.bytes)
	}
	d.hz.released(st)
	d.mu.Lock()
	delete(d.buffers, st)
	d.mu.Unlock()
}

// bytesOf views a slice of 32-bit elements as bytes.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}
