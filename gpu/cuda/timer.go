//go:build linux && (amd64 || arm64)

package cuda

// This file times launches with the device's clock: CUDA events around
// each launch while a queue's timer runs (native.Timer), whose elapsed
// times (cuEventElapsedTime) it sums.

import (
	"context"
	"time"
	"unsafe"

	"github.com/goxpu/xpu/gpu/internal/native"
)

var _ native.Clock = (*queue)(nil)

// NewEvent creates an event; the caller has entered the context.
func (q *queue) NewEvent() (uintptr, error) {
	var ev uintptr
	return ev, q.d.failed(q.d.api.check("cuEventCreate", q.d.api.eventCreate(unsafe.Pointer(&ev), 0)))
}

// Record records ev on the queue's stream.
func (q *queue) Record(ev uintptr) error {
	return q.d.failed(q.d.api.check("cuEventRecord", q.d.api.eventRecord(ev, q.stream)))
}

// Elapsed is the device time from start to end, both complete.
func (q *queue) Elapsed(start, end uintptr) (time.Duration, error) {
	var ms float32
	if err := q.d.api.check("cuEventElapsedTime", q.d.api.eventElapsed(unsafe.Pointer(&ms), start, end)); err != nil {
		return 0, q.d.failed(err)
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// DestroyEvent destroys ev.
func (q *queue) DestroyEvent(ev uintptr) { q.d.api.eventDestroy(ev) }

// StartTimer times the launches recorded from now on.
func (q *queue) StartTimer() error {
	if err := q.d.usable("StartTimer"); err != nil {
		return err
	}
	q.timer.Start()
	return nil
}

// StopTimer waits for the timed launches and returns the sum of their
// device times.
func (q *queue) StopTimer() (time.Duration, error) {
	if err := q.Sync(context.Background()); err != nil {
		return 0, err
	}
	leave, err := q.d.enter()
	if err != nil {
		return 0, err
	}
	defer leave()
	return q.timer.Stop(q)
}

// CalibrateClock times a fixed workload on a stream of its own
// (native.Calibrate).
func (d *device) CalibrateClock() (dev, host time.Duration, err error) {
	qd, err := d.NewQueue()
	if err != nil {
		return 0, 0, err
	}
	q := qd.(*queue)
	defer q.Release()
	return native.Calibrate(q, &q.timer)
}

// Enter makes the queue's device current on the calling thread.
func (q *queue) Enter() (leave func(), err error) { return q.d.enter() }

// Alloc allocates a buffer of size bytes.
func (q *queue) Alloc(size int) (ptr uintptr, free func(), err error) {
	b, err := q.d.NewBuffer(size)
	if err != nil {
		return 0, nil, err
	}
	return b.(*buffer).ptr, b.Release, nil
}

// Fill records cuMemsetD8Async of n bytes at ptr on the queue's stream.
func (q *queue) Fill(ptr uintptr, v byte, n int) error {
	return q.d.failed(q.d.api.check("cuMemsetD8Async", q.d.api.memsetD8Async(ptr, v, uintptr(n), q.stream)))
}
