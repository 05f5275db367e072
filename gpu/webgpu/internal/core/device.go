package core

// This file implements driver.Device over an API.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/goxpu/xpu/gpu/driver"
)

// Device is an open WebGPU device, as every WebGPU driver returns it.
type Device struct {
	api  API
	name string // the driver's name, leading its errors: "webgpu", "dawn"
	info driver.Info

	// uniformAlign is the alignment of a launch's uniforms in a ring.
	uniformAlign int

	nextID atomic.Uint64 // ids of programs, buffers and rings, for bind group keys
	groups bindGroups

	readMu      sync.Mutex // guards staging; held across the wait of a read
	staging     Buffer
	stagingSize int

	// lost, once set, is the error of every later call: a wait timed out
	// with work still running, which WebGPU cannot stop.
	lost atomic.Pointer[error]
}

var _ driver.Device = (*Device)(nil)

// Open returns the device that api drives, described by info; name leads
// its errors. On a device that offers subgroups, Open first runs a probe
// of their layout (LayoutFact) and keeps the subgroup sizes in the
// device's Info only when the layout is the one the wave tiers assume.
// When api is a [Stamper], the device is also a
// driver.ClockCalibrator and its queues are driver.Timers.
func Open(api API, name string, info driver.Info) driver.Device {
	d := &Device{
		api:          api,
		name:         name,
		info:         info,
		uniformAlign: max(256, int(info.Limits.UniformOffsetAlignment)),
	}
	d.groups.init()
	d.checkSubgroups()
	if _, ok := api.(Stamper); ok {
		return timedDevice{d}
	}
	return d
}

// Of returns the Device under d, an Open result; nil for another.
func Of(d driver.Device) *Device {
	switch d := d.(type) {
	case *Device:
		return d
	case timedDevice:
		return d.Device
	}
	return nil
}

// Info describes the device.
func (d *Device) Info() driver.Info { return d.info }

// NewQueue returns a queue recording into one compute pass at a time.
func (d *Device) NewQueue() (driver.Queue, error) { return d.newQueue() }

// Close releases what the device still holds and the device itself, and
// returns the errors the device reported that no call has returned yet.
// A lost device is abandoned instead (API.Abandon): its work may still be
// running.
func (d *Device) Close() error {
	if d.loss() != nil {
		d.api.Abandon()
		return nil
	}
	d.groups.releaseAll()
	d.readMu.Lock()
	if d.staging != nil {
		d.staging.Release()
		d.staging, d.stagingSize = nil, 0
	}
	d.readMu.Unlock()
	return d.api.Close()
}

// API returns the binding the device drives.
func (d *Device) API() API { return d.api }

// UniformAlign returns the alignment of a launch's uniforms in a ring.
func (d *Device) UniformAlign() int { return d.uniformAlign }

// BindGroups returns the number of bind groups made and not yet
// released: those cached and those an open pass still holds.
func (d *Device) BindGroups() int { return d.groups.size() }

// Errors returns and forgets the errors the device reported
// asynchronously that no call has returned yet.
func (d *Device) Errors() error { return d.api.Errors() }

// loss returns the error of a lost device; nil while it is usable.
func (d *Device) loss() error {
	if p := d.lost.Load(); p != nil {
		return *p
	}
	return nil
}

// wait runs a binding's wait (Wait, ReadBuffer) under ctx. A wait that
// times out loses the device: the work it waited for cannot be stopped
// and may still write to the device's memory, so nothing later may rely
// on the device's state.
func (d *Device) wait(ctx context.Context, f func(ctx context.Context) error) error {
	if err := d.loss(); err != nil {
		return err
	}
	err := f(ctx)
	if err == nil || !errors.Is(err, driver.ErrTimeout) {
		return err
	}
	lost := fmt.Errorf("%s: %w: a wait timed out with work still running, which WebGPU cannot stop", d.name, driver.ErrLost)
	d.lost.CompareAndSwap(nil, &lost)
	return fmt.Errorf("%s: %w; %w", d.name, err, d.loss())
}
