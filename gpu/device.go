package gpu

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/trace"
	"github.com/goxpu/xpu/schema"
)

// Device is an open device of one backend. Its methods are safe for
// concurrent use.
type Device struct {
	backend schema.Backend
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

	waitLimit atomic.Int64 // nanoseconds; 0: none (SetWaitLimit)

	sink atomic.Pointer[sinkBox] // the trace sink (SetTrace); nil: none

	captures  []*Graph     // the graphs being captured, under mu
	capturing atomic.Int32 // len(captures), read without mu
	noReplay  atomic.Bool  // SetReplay(false)
	// autoGraphs counts the streams with an automatic graph, which
	// launches are matched against (capture_auto.go); releases counts
	// buffer releases, after which a graph's buffers are checked again.
	autoGraphs atomic.Int32
	releases   atomic.Uint64
	lastID     int // the number of the last stream made, under mu

	hz  hazards   // the streams' claims on memory (hazard.go)
	adm admission // the memory budget and protected launches (admission.go)

	recorder atomic.Pointer[recorder] // where launches are recorded (SetRecord); nil: nowhere
}

// program is a kernel on a device: whether it fits the device, decided
// once (fits), and its code compiled for the device, once.
type program struct {
	fitOnce sync.Once
	art     *schema.Artifact
	fitErr  error

	once sync.Once
	p    driver.Program
	err  error
}

func newDevice(backend schema.Backend, drv driver.Device) (*Device, error) {
	d := &Device{
		backend:  backend,
		drv:      drv,
		info:     drv.Info(),
		buffers:  make(map[*bufferState]struct{}),
		programs: make(map[*Kernel]*program),
	}
	switch v := os.Getenv("XPU_REPLAY"); v {
	case "", "on":
	case "off":
		d.noReplay.Store(true)
	default:
		return nil, errors.Join(fmt.Errorf("gpu: XPU_REPLAY=%s: want on or off: %w", v, ErrArgs), drv.Close())
	}
	if d.info.Backend == "" {
		d.info.Backend = backend
	}
	_, d.hz.concurrent = drv.(driver.ConcurrentQueues)
	q, err := drv.NewQueue()
	if err != nil {
		return nil, errors.Join(fmt.Errorf("gpu: %s: default queue: %w", backend, err), drv.Close())
	}
	d.def = &Stream{dev: d, q: q}
	d.streams = []*Stream{d.def}
	return d, nil
}

// Backend returns the device's backend: [schema.BackendWebGPU],
// [schema.BackendCPU], ...; "" for a nil device.
func (d *Device) Backend() schema.Backend {
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
// streams that conflict (one writes memory the other reads or writes, by
// their kernels' manifests) run in the order they were recorded; others
// are not ordered with each other and may overlap.
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
	if err := d.streamMade(); err != nil {
		q.Release()
		return nil, err
	}
	d.mu.Lock()
	d.lastID++
	s.id = d.lastID
	d.streams = append(d.streams, s)
	d.mu.Unlock()
	return s, nil
}

// Sync submits what every stream of the device recorded and waits until it
// has completed.
func (d *Device) Sync() error { return d.SyncContext(context.Background()) }

// SyncContext is Sync that waits no longer than ctx allows, as
// [Stream.SyncContext] does.
func (d *Device) SyncContext(ctx context.Context) error {
	if err := d.usable("Device.Sync"); err != nil {
		return err
	}
	if err := usableContext("Device.SyncContext", ctx); err != nil {
		return err
	}
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	ctx, cancel := d.bound(ctx)
	defer cancel()
	var errs []error
	for _, s := range d.streamList() {
		errs = append(errs, s.sync(ctx))
	}
	return errors.Join(errs...)
}

// SetWaitLimit bounds every wait of the device from now on, those given a
// context and those not (Sync, Read, Download, the checks of faults, a
// launch on the CPU, the wait of Close), to limit each: a wait that
// reaches it fails as one whose context's deadline passed, with an error
// wrapping [ErrTimeout]. A limit of 0, the default, removes the bound.
// On a nil Device it does nothing: there is no wait to bound.
func (d *Device) SetWaitLimit(limit time.Duration) {
	if d == nil {
		return
	}
	d.waitLimit.Store(int64(max(limit, 0)))
}

// bound returns ctx bounded by the device's wait limit.
func (d *Device) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if limit := time.Duration(d.waitLimit.Load()); limit > 0 {
		return context.WithTimeout(ctx, limit)
	}
	return ctx, func() {}
}

// flushAll submits what every stream of the device recorded, so that a
// read or write that follows is ordered after it; ctx bounds the waits
// of the queues. The caller holds d.life for reading.
func (d *Device) flushAll(ctx context.Context) error {
	var errs []error
	for _, s := range d.streamList() {
		errs = append(errs, s.flush(ctx))
	}
	return errors.Join(errs...)
}

func (d *Device) streamList() []*Stream {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.streams)
}

// entry returns k's program entry on d, made on first use; on a closed
// device, a new one that nothing keeps.
func (d *Device) entry(k *Kernel) *program {
	d.progMu.Lock()
	defer d.progMu.Unlock()
	p := d.programs[k]
	if p == nil {
		p = &program{}
		if d.programs != nil {
			d.programs[k] = p
		}
	}
	return p
}

// program returns k compiled for d, compiling it on first use. The
// caller holds d.life for reading.
func (d *Device) program(k *Kernel) (driver.Program, error) { return d.compileIn(d.entry(k), k) }

// compileIn is program with k's entry on d at hand, as a launch has it.
func (d *Device) compileIn(p *program, k *Kernel) (driver.Program, error) {
	p.once.Do(func() {
		a, err := d.artifact(k)
		if err != nil {
			p.err = err
			return
		}
		if err := checkLimits(k, a, d.info.Limits); err != nil {
			p.err = err
			return
		}
		var prog driver.Program
		err = d.def.traced(trace.Compile, 0, k.spec.Name, func() (err error) {
			prog, err = d.drv.Compile(&k.spec)
			return err
		})
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
// Close of a lost device ([ErrLost]) does not wait: it abandons the
// driver's objects to the work still running and returns nil. Close
// waits behind calls in progress on the device, so a wait with no bound
// (no context, no wait limit) on work that never ends also holds Close.
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
