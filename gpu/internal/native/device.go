package native

// This file opens a device of a library, and holds the device's state
// and the binding of its library's current device to the calling thread
// around every call.

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// Driver is what a driver package adds to the shared device: the calls
// that differ between the libraries.
type Driver interface {
	// Current makes the device current on the calling thread, which the
	// caller has locked to its goroutine.
	Current() error
	// Artifact and Refusal choose a kernel's artifact for the device
	// (driver.Device, driver.Refuser).
	Artifact(k *driver.Kernel) *schema.Artifact
	Refusal(k *driver.Kernel) error
	// Load loads the module of a, k's artifact; the caller has entered
	// the device.
	Load(k *driver.Kernel, a *schema.Artifact) (uintptr, error)
	// Detach releases the driver's own hold of the device, last of
	// Close, where the device is not lost.
	Detach() error
}

// Device is an open device of a library, which a driver package's
// device embeds: it is a driver.Device, driver.Amender and
// driver.ClockCalibrator but for Artifact (and driver.Refuser's
// Refusal), which the embedding device gives as its Driver.
type Device struct {
	lib  *Library
	drv  Driver
	info driver.Info

	// streams is held for reading by a wait on the streams of other
	// queues than the caller's (a buffer's Read), and for writing by a
	// queue's Release, so that no wait uses a stream destroyed under it.
	streams sync.RWMutex

	health  Health  // lost by a wait that outlived its context, or a sticky error
	modules Modules // loaded modules, by the hash of their code

	mu     sync.Mutex
	closed bool
	queues map[*queue]struct{}
}

// NewDevice returns the device of info, whose library calls are lib's
// and drv's.
func NewDevice(lib *Library, drv Driver, info driver.Info) *Device {
	return &Device{lib: lib, drv: drv, info: info, health: Health{Prefix: lib.Prefix}, queues: map[*queue]struct{}{}}
}

// Open initializes the library and returns its device of ordinal. A
// library that cannot, or has no such device, is a machine without the
// backend: the error wraps driver.ErrUnavailable.
func (l *Library) Open(ordinal int) (int32, error) {
	if rc := l.Init.Call(0); rc != 0 {
		// No device, or a library that cannot run one: no backend here.
		return 0, fmt.Errorf("%w: %w", l.Check(l.Init.Name, rc), driver.ErrUnavailable)
	}
	var count int32
	if err := l.Check(l.DeviceGetCount.Name, l.DeviceGetCount.Call(unsafe.Pointer(&count))); err != nil {
		return 0, fmt.Errorf("%w: %w", err, driver.ErrUnavailable)
	}
	if ordinal < 0 || ordinal >= int(count) {
		return 0, fmt.Errorf("%s: device %d of %d: %w", l.Prefix, ordinal, count, driver.ErrUnavailable)
	}
	var dev int32
	if err := l.Check(l.DeviceGet.Name, l.DeviceGet.Call(unsafe.Pointer(&dev), int32(ordinal))); err != nil {
		return 0, err
	}
	return dev, nil
}

// Enter makes d current on the calling goroutine's thread, which it
// locks to the goroutine until the returned function runs: a purego
// call runs on whatever thread the goroutine is on, and a library's
// current context or device is the thread's, so every operation of the
// driver sets it first, on the thread its calls then run on.
func (d *Device) Enter() (leave func(), err error) {
	runtime.LockOSThread()
	if err := d.drv.Current(); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	return runtime.UnlockOSThread, nil
}

// check is the library's Check.
func (d *Device) check(call string, rc uint32) error { return d.lib.Check(call, rc) }

// usable returns the error of a call on a lost device, wrapping
// driver.ErrLost; nil while the device works.
func (d *Device) usable(call string) error { return d.health.Usable(call) }

// failed returns err, recording a lost device where it says so.
func (d *Device) failed(err error) error { return d.health.Failed(err) }

func (d *Device) Info() driver.Info { return d.info }

var _ driver.ConcurrentQueues = (*Device)(nil)

// ConcurrentQueues says that the device's streams run concurrently.
func (d *Device) ConcurrentQueues() {}

// Close unloads the device's modules and detaches the driver. A lost
// device releases nothing that waits for the work it still runs (the
// libraries free memory and unload modules only once the device is
// idle): it abandons them to that work.
func (d *Device) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	d.mu.Unlock()
	mods := d.modules.Drain()
	if d.health.Lost() {
		return nil
	}
	leave, err := d.Enter()
	if err != nil {
		return err
	}
	defer leave()
	var errs []error
	for _, h := range mods {
		if err := d.check(d.lib.ModuleUnload.Name, d.lib.ModuleUnload.Call(h)); err != nil {
			errs = append(errs, err)
		}
	}
	if err := d.drv.Detach(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Ordinal is the device ordinal the environment variable name sets, for
// a driver of prefix: 0 where it is unset.
func Ordinal(prefix, name string) (int, error) {
	s := os.Getenv(name)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s: %s=%q: want a device ordinal, 0 or more", prefix, name, s)
	}
	return n, nil
}
