//go:build linux && (amd64 || arm64)

package hip

// This file times launches with the device's clock: HIP events around
// each launch while a queue's timer runs (native.Timer), whose elapsed
// times (hipEventElapsedTime) it sums.

import (
	"context"
	"fmt"
	"time"
	"unsafe"

	"github.com/goxpu/xpu/gpu/internal/native"
)

var _ native.Events = (*queue)(nil)

// NewEvent creates an event; the caller has entered the device.
func (q *queue) NewEvent() (uintptr, error) {
	var ev uintptr
	return ev, q.d.failed(q.d.api.check("hipEventCreateWithFlags", q.d.api.eventCreate(unsafe.Pointer(&ev), 0)))
}

// Record records ev on the queue's stream.
func (q *queue) Record(ev uintptr) error {
	return q.d.failed(q.d.api.check("hipEventRecord", q.d.api.eventRecord(ev, q.stream)))
}

// Elapsed is the device time from start to end, both complete.
func (q *queue) Elapsed(start, end uintptr) (time.Duration, error) {
	var ms float32
	if err := q.d.api.check("hipEventElapsedTime", q.d.api.eventElapsed(unsafe.Pointer(&ms), start, end)); err != nil {
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

// CalibrateClock times a fixed workload, memsets of device memory on a
// stream of its own, by the device's events and by the host's clock from
// submit to completion, growing it until it takes some milliseconds.
func (d *device) CalibrateClock() (dev, host time.Duration, err error) {
	qd, err := d.NewQueue()
	if err != nil {
		return 0, 0, err
	}
	q := qd.(*queue)
	defer q.Release()
	return native.Calibrate(q.memsets)
}

// memsets times 8 memsets of size bytes on q.
func (q *queue) memsets(size int) (dev, host time.Duration, err error) {
	d := q.d
	b, err := d.NewBuffer(size)
	if err != nil {
		return 0, 0, err
	}
	defer b.Release()
	ptr := b.(*buffer).ptr
	leave, err := d.enter()
	if err != nil {
		return 0, 0, err
	}
	t0 := time.Now()
	start, err := q.timer.Stamp(q)
	for i := 0; err == nil && i < 8; i++ {
		err = d.failed(d.api.check("hipMemsetD8Async", d.api.memsetD8Async(ptr, uint8(i), uintptr(size), q.stream)))
	}
	var end uintptr
	if err == nil {
		end, err = q.timer.Stamp(q)
	}
	leave()
	if err != nil {
		return 0, 0, fmt.Errorf("hip: calibrating the clock: %w", err)
	}
	if err := q.Sync(context.Background()); err != nil {
		return 0, 0, err
	}
	host = time.Since(t0)
	leave, err = d.enter()
	if err != nil {
		return 0, 0, err
	}
	defer leave()
	dev, err = q.Elapsed(start, end)
	q.timer.Reuse(start, end)
	return dev, host, err
}
