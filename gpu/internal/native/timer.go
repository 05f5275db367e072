package native

// This file times launches with a device's clock: a pair of events
// around each launch while a queue's timer runs, whose elapsed times it
// sums.

import (
	"context"
	"fmt"
	"time"
)

// Events are a queue's events as its library makes them; an event is a
// handle. The timer calls them with the device's context entered.
type Events interface {
	NewEvent() (uintptr, error)
	// Record records ev on the queue's stream.
	Record(ev uintptr) error
	// Elapsed is the device time from start to end, both complete.
	Elapsed(start, end uintptr) (time.Duration, error)
	DestroyEvent(ev uintptr)
}

// Timer is a queue's device timer; the zero Timer is stopped.
type Timer struct {
	on    bool
	pairs [][2]uintptr // the events around each timed launch
	open  uintptr      // the start event of the launch being recorded
	free  []uintptr    // events to reuse
}

// Start times the launches recorded from now on.
func (t *Timer) Start() { t.on = true }

// Stamp records an event on the queue's stream, a new one or one to
// reuse; Reuse takes it back.
func (t *Timer) Stamp(e Events) (uintptr, error) {
	var ev uintptr
	if n := len(t.free); n > 0 {
		ev, t.free = t.free[n-1], t.free[:n-1]
	} else {
		var err error
		if ev, err = e.NewEvent(); err != nil {
			return 0, err
		}
	}
	if err := e.Record(ev); err != nil {
		t.free = append(t.free, ev)
		return 0, err
	}
	return ev, nil
}

// Reuse takes back events of Stamp.
func (t *Timer) Reuse(evs ...uintptr) { t.free = append(t.free, evs...) }

// Begin stamps the start of a launch while the timer runs.
func (t *Timer) Begin(e Events) error {
	if !t.on {
		return nil
	}
	ev, err := t.Stamp(e)
	t.open = ev
	return err
}

// End stamps the end of the launch Begin stamped.
func (t *Timer) End(e Events) error {
	if !t.on || t.open == 0 {
		return nil
	}
	ev, err := t.Stamp(e)
	if err != nil {
		return err
	}
	t.pairs = append(t.pairs, [2]uintptr{t.open, ev})
	t.open = 0
	return nil
}

// Stop returns the sum of the timed launches' device times, once the
// queue has completed them, and stops the timer. Stamps that go
// backwards are left out, as the driver contract says.
func (t *Timer) Stop(e Events) (time.Duration, error) {
	var sum time.Duration
	for _, p := range t.pairs {
		d, err := e.Elapsed(p[0], p[1])
		if err != nil {
			return 0, err
		}
		if d > 0 {
			sum += d
		}
		t.free = append(t.free, p[0], p[1])
	}
	t.pairs, t.on = t.pairs[:0], false
	return sum, nil
}

// Release destroys the timer's events.
func (t *Timer) Release(e Events) {
	for _, p := range t.pairs {
		t.free = append(t.free, p[0], p[1])
	}
	if t.open != 0 {
		t.free = append(t.free, t.open)
	}
	for _, ev := range t.free {
		e.DestroyEvent(ev)
	}
	*t = Timer{}
}

// Clock is a queue that Calibrate times work on: its events, and fills
// of device memory on its stream.
type Clock interface {
	Events
	// Enter makes the queue's device current on the calling thread until
	// leave runs.
	Enter() (leave func(), err error)
	// Alloc allocates size bytes of device memory, which free frees.
	Alloc(size int) (ptr uintptr, free func(), err error)
	// Fill records a fill of the n bytes at ptr with v on the stream.
	Fill(ptr uintptr, v byte, n int) error
	// Sync waits for the stream's work.
	Sync(ctx context.Context) error
}

// Calibrate times a fixed workload, 8 fills of device memory on c's
// stream, by the device's events (t's) and by the host's clock from
// submit to completion, growing it from 16 MiB until it takes some
// milliseconds (or reaches 512 MiB): a driver's ClockCalibrator.
func Calibrate(c Clock, t *Timer) (dev, host time.Duration, err error) {
	for size := 16 << 20; ; size *= 2 {
		dev, host, err = fills(c, t, size)
		if err != nil || host >= 2*time.Millisecond || size >= 512<<20 {
			return dev, host, err
		}
	}
}

// fills times 8 fills of size bytes on c.
func fills(c Clock, t *Timer, size int) (dev, host time.Duration, err error) {
	ptr, free, err := c.Alloc(size)
	if err != nil {
		return 0, 0, err
	}
	defer free()
	leave, err := c.Enter()
	if err != nil {
		return 0, 0, err
	}
	t0 := time.Now()
	start, err := t.Stamp(c)
	for i := 0; err == nil && i < 8; i++ {
		err = c.Fill(ptr, byte(i), size)
	}
	var end uintptr
	if err == nil {
		end, err = t.Stamp(c)
	}
	leave()
	if err != nil {
		return 0, 0, fmt.Errorf("calibrating the clock: %w", err)
	}
	if err := c.Sync(context.Background()); err != nil {
		return 0, 0, err
	}
	host = time.Since(t0)
	leave, err = c.Enter()
	if err != nil {
		return 0, 0, err
	}
	defer leave()
	dev, err = c.Elapsed(start, end)
	t.Reuse(start, end)
	return dev, host, err
}
