package drivertest

// This file holds the case of the device timer.

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// testTimer times launches with the device's clock, where the driver has
// one: the device time of a timed stretch is within the host time around
// it, the launches in it still run, and a calibration workload reads a
// positive time on both clocks.
func testTimer(t *testing.T, c Config) {
	d := c.open(t)
	p, q := c.setup(t, d)
	tq, ok := q.(driver.Timer)
	cal, calOK := d.(driver.ClockCalibrator)
	if !ok || !calOK {
		t.Skipf("the driver has no device timer (queue %T, device %T)", q, d)
	}
	const n = 256
	out, in, unused := mustBuffer(t, d, 4*n), mustBuffer(t, d, 4*n), mustBuffer(t, d, 4)
	defer out.Release()
	defer in.Release()
	defer unused.Release()
	err := tq.StartTimer()
	if errors.Is(err, driver.ErrNoTimer) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	for k := range uint32(20) {
		if err := q.Launch(bg, p, xpu.Dim3{X: n / 64, Y: 1, Z: 1}, []driver.Buffer{out, in, unused}, uniforms(k+1)); err != nil {
			t.Fatal(err)
		}
		if k%5 == 4 {
			if err := q.Flush(context.Background()); err != nil { // several passes, each stamped
				t.Fatal(err)
			}
		}
	}
	dev, err := tq.StopTimer()
	host := time.Since(t0)
	if err != nil {
		t.Fatal(err)
	}
	if dev < 0 || dev > host {
		t.Errorf("device time %v of launches the host saw take %v", dev, host)
	}
	for i, v := range readU32(t, out) {
		if v != 20 {
			t.Fatalf("out[%d] = %d after timed launches, want 20", i, v)
		}
	}
	devCal, hostCal, err := cal.CalibrateClock()
	if err != nil {
		t.Fatal(err)
	}
	if devCal <= 0 || hostCal <= 0 || devCal > 2*hostCal {
		t.Errorf("calibration: device %v, host %v", devCal, hostCal)
	}
	t.Logf("timed launches: device %v, host %v; calibration: device %v, host %v", dev, host, devCal, hostCal)
}
