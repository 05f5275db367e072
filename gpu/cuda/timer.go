//go:build linux && (amd64 || arm64)

package cuda

// This file times launches with the device's clock: a pair of CUDA events
// around each launch while a queue's timer runs, whose elapsed times
// (cuEventElapsedTime) it sums.

import (
	"context"
	"fmt"
	"time"
	"unsafe"
)

// timer is a queue's device timer.
type timer struct {
	on    bool
	pairs [][2]uintptr // the events around each timed launch
	open  uintptr      // the start event of the launch being recorded
	free  []uintptr    // events to reuse
}

// event returns an event to record; the caller has entered the context.
func (t *timer) event(q *queue) (uintptr, error) {
	if n := len(t.free); n > 0 {
		ev := t.free[n-1]
		t.free = t.free[:n-1]
		return ev, nil
	}
	var ev uintptr
	return ev, q.d.failed(q.d.api.check("cuEventCreate", q.d.api.eventCreate(unsafe.Pointer(&ev), 0)))
}

// record records an event on the queue's stream.
func (t *timer) record(q *queue) (uintptr, error) {
	ev, err := t.event(q)
	if err != nil {
		return 0, err
	}
	if err := q.d.api.check("cuEventRecord", q.d.api.eventRecord(ev, q.stream)); err != nil {
		t.free = append(t.free, ev)
		return 0, q.d.failed(err)
	}
	return ev, nil
}

// begin stamps the start of a launch while the timer runs.
func (t *timer) begin(q *queue) error {
	if !t.on {
		return nil
	}
	ev, err := t.record(q)
	t.open = ev
	return err
}

// end stamps the end of the launch begin stamped.
func (t *timer) end(q *queue) error {
	if !t.on || t.open == 0 {
		return nil
	}
	ev, err := t.record(q)
	if err != nil {
		return err
	}
	t.pairs = append(t.pairs, [2]uintptr{t.open, ev})
	t.open = 0
	return nil
}

// release destroys the timer's events; the caller has entered the
// context.
func (t *timer) release(q *queue) {
	for _, p := range t.pairs {
		t.free = append(t.free, p[0], p[1])
	}
	if t.open != 0 {
		t.free = append(t.free, t.open)
	}
	for _, ev := range t.free {
		q.d.api.eventDestroy(ev)
	}
	*t = timer{}
}

// StartTimer times the launches recorded from now on.
func (q *queue) StartTimer() error {
	if err := q.d.usable("StartTimer"); err != nil {
		return err
	}
	q.timer.on = true
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
	var sum time.Duration
	for _, p := range q.timer.pairs {
		ms, err := q.d.elapsed(p[0], p[1])
		if err != nil {
			return 0, err
		}
		// Stamps that go backwards are left out, as the contract says.
		if ms > 0 {
			sum += ms
		}
		q.timer.free = append(q.timer.free, p[0], p[1])
	}
	q.timer.pairs, q.timer.on = q.timer.pairs[:0], false
	return sum, nil
}

// elapsed is the device time from start to end, both complete.
func (d *device) elapsed(start, end uintptr) (time.Duration, error) {
	var ms float32
	if err := d.api.check("cuEventElapsedTime", d.api.eventElapsed(unsafe.Pointer(&ms), start, end)); err != nil {
		return 0, d.failed(err)
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
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
	for size := 16 << 20; ; size *= 2 {
		dev, host, err = q.memsets(size)
		if err != nil || host >= 2*time.Millisecond || size >= 512<<20 {
			return dev, host, err
		}
	}
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
	start, err := q.timer.record(q)
	for i := 0; err == nil && i < 8; i++ {
		err = d.failed(d.api.check("cuMemsetD8Async", d.api.memsetD8Async(ptr, uint8(i), uintptr(size), q.stream)))
	}
	var end uintptr
	if err == nil {
		end, err = q.timer.record(q)
	}
	leave()
	if err != nil {
		return 0, 0, fmt.Errorf("cuda: calibrating the clock: %w", err)
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
	dev, err = d.elapsed(start, end)
	q.timer.free = append(q.timer.free, start, end)
	return dev, host, err
}
