package gpu

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
)

// Timer says how [Stream.Time] measures launches on a device.
type Timer struct {
	// Device is true when launches are timed by the device's own clock:
	// WebGPU timestamp queries written at the boundaries of each compute
	// pass. When false, Time measures on the host clock, from a sync
	// before the launches to a sync after them.
	Device bool
	// Scale is the device clock's reading over the host clock's for the
	// calibration workload (about 1; a little under, since the host also
	// sees submission and waiting). Zero with a host timer.
	Scale float64
	// Reason says why a device is timed on the host: the backend runs on
	// the host, the driver or the device has no timestamps, or their
	// calibration was refused.
	Reason string
}

// The plausible range of a device clock's calibration scale: a device
// cannot see more time than the host around it (with some slack for
// clock granularity), and a scale far below 1 means a misread period.
const (
	minClockScale = 0.5
	maxClockScale = 1.05
)

// clock is a device's Timer, decided once.
type clock struct {
	once  sync.Once
	timer Timer
}

// Timer returns how [Stream.Time] measures on d. On a device that can
// time launches itself, the first call calibrates its clock once against
// the host's by a workload of some milliseconds, and refuses a clock whose
// scale is implausible (the device is then timed on the host).
func (d *Device) Timer() Timer {
	if err := d.usable("Device.Timer"); err != nil {
		return Timer{Reason: err.Error()}
	}
	d.clock.once.Do(func() { d.clock.timer = d.calibrate() })
	return d.clock.timer
}

func (d *Device) calibrate() Timer {
	cal, ok := d.drv.(driver.ClockCalibrator)
	if !ok {
		return Timer{Reason: fmt.Sprintf("the %s driver (%s) has no pass timestamps", d.backend, d.info.Driver)}
	}
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return Timer{Reason: "the device is closed"}
	}
	dev, host, err := cal.CalibrateClock()
	if err != nil {
		return Timer{Reason: fmt.Sprintf("device clock unavailable: %v", err)}
	}
	scale, err := clockScale(dev, host)
	if err != nil {
		return Timer{Reason: err.Error()}
	}
	return Timer{Device: true, Scale: scale}
}

// clockScale returns the scale of a device clock that read dev for host
// of host time, or an error when it is implausible.
func clockScale(dev, host time.Duration) (float64, error) {
	scale := float64(dev) / float64(host)
	if host <= 0 || !(scale >= minClockScale && scale <= maxClockScale) {
		return 0, fmt.Errorf("device clock refused: it read %v for %v of host time (scale %.3g, want %g..%g)",
			dev, host, scale, minClockScale, maxClockScale)
	}
	return scale, nil
}

// Time runs f, which records launches on s, and returns how long the
// device took to run them. Work recorded before is synced first and not
// counted; when Time returns, the launches have completed.
//
// With a device timer ([Device.Timer]), the result is the sum of the
// durations of the compute passes that ran f's launches, by the device's
// timestamps: host time between passes is not counted, and a pass whose
// stamps go backwards is left out. With a host timer, it is the host time
// from the sync before f to the sync after it. Launches f records on other
// streams are timed only by a host timer.
func (s *Stream) Time(f func() error) (time.Duration, error) {
	if err := s.usable("Stream.Time"); err != nil {
		return 0, err
	}
	if f == nil {
		return 0, fmt.Errorf("gpu: Stream.Time of a nil func: %w", ErrArgs)
	}
	timer := s.dev.Timer()
	if !timer.Device {
		return s.timeOnHost(f)
	}
	if err := s.startTimer(); err != nil {
		return 0, err
	}
	ferr := f()
	t, err := s.stopTimer()
	if ferr != nil {
		return 0, ferr
	}
	return t, err
}

func (s *Stream) timeOnHost(f func() error) (time.Duration, error) {
	if err := s.Sync(); err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := f(); err != nil {
		return 0, err
	}
	if err := s.Sync(); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

func (s *Stream) startTimer() error {
	d := s.dev
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.errClosed()
	}
	if s.timing {
		return errors.New("gpu: Stream.Time: the stream is already being timed")
	}
	if err := s.capturing("Stream.Time"); err != nil {
		return err
	}
	// Launches matched against the stream's own graph are recorded
	// before the timer starts, and none are matched while it runs.
	ctx, cancel := d.bound(context.Background())
	defer cancel()
	if err := s.commitAuto(ctx); err != nil {
		return err
	}
	s.releaseAuto()
	tq, ok := s.q.(driver.Timer)
	if !ok {
		return fmt.Errorf("gpu: %s: a calibrated device whose queue has no timer (%T)", d.backend, s.q)
	}
	if err := tq.StartTimer(); err != nil {
		return fmt.Errorf("gpu: %s: start timer: %w", d.backend, err)
	}
	s.pending, s.timing = false, true
	return nil
}

func (s *Stream) stopTimer() (time.Duration, error) {
	d := s.dev
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return 0, d.errClosed()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, s.errClosed()
	}
	s.timing, s.pending = false, false
	t, err := s.q.(driver.Timer).StopTimer()
	if err != nil {
		return 0, fmt.Errorf("gpu: %s: stop timer: %w", d.backend, err)
	}
	return t, nil
}
