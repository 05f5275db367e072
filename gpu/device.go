package gpu

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/goxpu/xpu/gpu/driver"
)

// Device is an open device of one backend. Its methods are safe for
// concurrent use.
type Device struct {
	backend string
	drv     driver.Device
	info    Info

	// life is held for reading by every operation and for writing by
	// Close, so that nothing runs on a closed driver.
	life   sync.RWMutex
	closed bool

	mu      sync.Mutex // guards streams and buffers
	def     *Stream
	streams []*Stream
	buffers map[*bufferState]struct{}

	progMu   sync.Mutex
	programs map[*Kernel]*program

	clock clock // how Stream.Time measures
}

// program is a kernel compiled for a device, once.
type program struct {
	once sync.Once
	p    driver.Program
	err  error
}

func newDevice(backend string, drv driver.Device) (*Device, error) {
	d := &Device{
		backend:  backend,
		drv:      drv,
		info:     drv.Info(),
		buffers:  make(map[*bufferState]struct{}),
		programs: make(map[*Kernel]*program),
	}
	if d.info.Backend == "" {
		d.info.Backend = backend
	}
	q, err := drv.NewQueue()
	if err != nil {
		return nil, errors.Join(fmt.Errorf("gpu: %s: default queue: %w", backend, err), drv.Close())
	}
	d.def = &Stream{dev: d, q: q}
	d.streams = []*Stream{d.def}
	return d, nil
}

// Backend returns the name of the device's backend: "webgpu", "cpu", ...;
// "" for a nil device.
func (d *Device) Backend() string {
	if d == nil {
		return ""
	}
	return d.backend
}

// Info describes the device, as its driver reports it; the zero Info for
// a nil device.
func (d *Device) Info() Info {
	if d == nil {
		return Info{}
	}
	info := d.info
	info.Facts = maps.Clone(d.info.Facts)
	return info
}

// Stream returns the device's default stream; nil for a nil device,
// whose methods then return errors wrapping [ErrArgs].
func (d *Device) Stream() *Stream {
	if d == nil {
		return nil
	}
	return d.def
}

// NewStream returns a new stream of the device. Launches on different
// streams are not ordered with each other until a Sync.
func (d *Device) NewStream() (*Stream, error) {
	if err := d.usable("Device.NewStream"); err != nil {
		return nil, err
	}
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return nil, d.errClosed()
	}
	q, err := d.drv.NewQueue()
	if err != nil {
		return nil, fmt.Errorf("gpu: %s: new stream: %w", d.backend, err)
	}
	s := &Stream{dev: d, q: q}
	d.mu.Lock()
	d.streams = append(d.streams, s)
	d.mu.Unlock()
	return s, nil
}

// Sync submits what every stream of the device recorded and waits until it
// has completed.
func (d *Device) Sync() error {
	if err := d.usable("Device.Sync"); err != nil {
		return err
	}
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	var errs []error
	for _, s := range d.streamList() {
		errs = append(errs, s.sync())
	}
	return errors.Join(errs...)
}

// flushAll submits what every stream of the device recorded, so that a
// read or write that follows is ordered after it. The caller holds
// d.life for reading.
func (d *Device) flushAll() error {
	var errs []error
	for _, s := range d.streamList() {
		errs = append(errs, s.flush())
	}
	return errors.Join(errs...)
}

func (d *Device) streamList() []*Stream {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.streams)
}

// program returns k compiled for d, compiling it on first use. The
// caller holds d.life for reading.
func (d *Device) program(k *Kernel) (driver.Program, error) {
	d.progMu.Lock()
	p := d.programs[k]
	if p == nil {
		p = &program{}
		d.programs[k] = p
	}
	d.progMu.Unlock()
	p.once.Do(func() {
		if err := checkLimits(k, d.info.Limits); err != nil {
			p.err = err
			return
		}
		spec, err := d.compiledSpec(k)
		if err != nil {
			p.err = err
			return
		}
		prog, err := d.drv.Compile(spec)
		if err != nil {
			p.err = fmt.Errorf("gpu: kernel %s on %s: %w: %w", k.spec.Name, d.backend, ErrCompile, err)
			return
		}
		p.p = prog
	})
	return p.p, p.err
}

// Close waits for the device's work, releases its streams, buffers and
// programs, and closes the driver. Later calls on the device, its streams
// and buffers return errors wrapping [ErrClosed]. Close is idempotent.
func (d *Device) Close() error {
	if err := d.usable("Device.Close"); err != nil {
		return err
	}
	d.life.Lock()
	defer d.life.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	var errs []error
	for _, s := range d.streamList() {
		errs = append(errs, s.close())
	}
	d.mu.Lock()
	bufs := slices.Collect(maps.Keys(d.buffers))
	d.streams = nil
	d.mu.Unlock()
	for _, b := range bufs {
		b.release()
	}
	d.progMu.Lock()
	for _, p := range d.programs {
		if p.p != nil {
			p.p.Release()
		}
	}
	d.programs = nil
	d.progMu.Unlock()
	errs = append(errs, d.drv.Close())
	return errors.Join(errs...)
}

func (d *Device) errClosed() error {
	return fmt.Errorf("gpu: %s device: %w", d.backend, ErrClosed)
}
