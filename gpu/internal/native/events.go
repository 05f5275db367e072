package native

// This file gives a queue's timer (Timer) the library's events around
// each launch, whose elapsed times it sums, and calibrates the device's
// clock (Calibrate) on a queue of its own.

import (
	"context"
	"time"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
)

var (
	_ Clock                  = (*queue)(nil)
	_ driver.ClockCalibrator = (*Device)(nil)
)

// NewEvent creates an event; the caller has entered the device.
func (q *queue) NewEvent() (uintptr, error) {
	var ev uintptr
	l := q.d.lib
	return ev, q.d.failed(q.d.check(l.EventCreate.Name, l.EventCreate.Call(unsafe.Pointer(&ev), 0)))
}

// Record records ev on the queue's stream.
func (q *queue) Record(ev uintptr) error {
	l := q.d.lib
	return q.d.failed(q.d.check(l.EventRecord.Name, l.EventRecord.Call(ev, q.stream)))
}

// Elapsed is the device time from start to end, both complete.
func (q *queue) Elapsed(start, end uintptr) (time.Duration, error) {
	var ms float32
	l := q.d.lib
	if err := q.d.check(l.EventElapsedTime.Name, l.EventElapsedTime.Call(unsafe.Pointer(&ms), start, end)); err != nil {
		return 0, q.d.failed(err)
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// DestroyEvent destroys ev.
func (q *queue) DestroyEvent(ev uintptr) { q.d.lib.EventDestroy.Call(ev) }

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
	leave, err := q.d.Enter()
	if err != nil {
		return 0, err
	}
	defer leave()
	return q.timer.Stop(q)
}

// CalibrateClock times a fixed workload on a stream of its own
// (Calibrate).
func (d *Device) CalibrateClock() (dev, host time.Duration, err error) {
	qd, err := d.NewQueue()
	if err != nil {
		return 0, 0, err
	}
	q := qd.(*queue)
	defer q.Release()
	return Calibrate(q, &q.timer)
}

// Enter makes the queue's device current on the calling thread.
func (q *queue) Enter() (leave func(), err error) { return q.d.Enter() }

// Alloc allocates a buffer of size bytes.
func (q *queue) Alloc(size int) (ptr uintptr, free func(), err error) {
	b, err := q.d.NewBuffer(size)
	if err != nil {
		return 0, nil, err
	}
	return b.(*buffer).ptr, b.Release, nil
}

// Fill records a memset of n bytes at ptr on the queue's stream.
func (q *queue) Fill(ptr uintptr, v byte, n int) error {
	l := q.d.lib
	return q.d.failed(q.d.check(l.MemsetD8Async.Name, l.MemsetD8Async.Call(ptr, v, uintptr(n), q.stream)))
}
