package native

// This file times launches with a device's clock: a pair of events
// around each launch while a queue's timer runs, whose elapsed times it
// sums.

import "time"

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

// Calibrate runs a fixed workload of growing size, from 16 MiB, until it
// takes some milliseconds of the host's clock (or reaches 512 MiB), and
// returns its last device and host times: a driver's ClockCalibrator.
func Calibrate(run func(size int) (dev, host time.Duration, err error)) (dev, host time.Duration, err error) {
	for size := 16 << 20; ; size *= 2 {
		dev, host, err = run(size)
		if err != nil || host >= 2*time.Millisecond || size >= 512<<20 {
			return dev, host, err
		}
	}
}
