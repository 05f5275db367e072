package driver

import (
	"errors"
	"time"
)

// Timer is implemented by a Queue that can time its launches with the
// device's own clock (WebGPU timestamp queries). A queue that does not
// implement it is timed by the runtime on the host clock.
type Timer interface {
	// StartTimer submits what was recorded, untimed, and starts timing:
	// every pass submitted from now until StopTimer is stamped by the
	// device at its start and end. It returns ErrNoTimer when the device
	// cannot time after all.
	StartTimer() error
	// StopTimer submits what was recorded, waits for it, stops timing and
	// returns the device time of the timed passes: the sum over passes of
	// end minus start, in the device's timestamp period, with passes whose
	// stamps go backwards left out.
	StopTimer() (time.Duration, error)
}

// ClockCalibrator is implemented by a Device whose queues are Timers. The
// runtime calls it once before it trusts the device's clock.
type ClockCalibrator interface {
	// CalibrateClock runs a fixed workload of some milliseconds and
	// returns its duration by the device's clock (as a Timer measures
	// it) and by the host's (from submit to completion).
	CalibrateClock() (device, host time.Duration, err error)
}

// ErrNoTimer is wrapped by a Timer's error when the device has no clock
// of its own to time with (no timestamp-query).
var ErrNoTimer = errors.New("no device timer")
