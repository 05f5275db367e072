//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
	"github.com/goxpu/xpu/schema"
)

var (
	_ core.API     = (*api)(nil)
	_ core.Stamper = (*api)(nil)
)

// Opener returns the opener of the Dawn driver.
func Opener() driver.Opener { return open }

// api is an open Dawn device, as the core drives it. Dawn's C API asks
// its callers to serialize their calls on a device, so every call goes
// under mu.
type api struct {
	mu      sync.Mutex
	inst    uintptr
	adapter uintptr
	dev     uintptr
	queue   uintptr
	info    driver.Info
	limits  limits
	sink    uintptr // id for the device-lost and uncaptured-error callbacks

	timestamps bool // the device has timestamp-query
	subgroups  bool

	errMu  sync.Mutex
	errs   []error // uncaptured errors not yet returned
	lost   error   // set once the device is lost
	closed bool
}

// open opens the high-performance adapter's device.
func open() (driver.Device, error) {
	if err := load(); err != nil {
		return nil, err
	}
	d := &api{}
	d.inst = wgpu.createInstance(&instanceDescriptor{timedWaitAnyEnable: 1, timedWaitAnyMaxCount: 64})
	if d.inst == 0 {
		return nil, fmt.Errorf("dawn: %s: no instance: %w", wgpu.path, driver.ErrUnavailable)
	}
	if err := d.openAdapter(); err != nil {
		wgpu.instanceRelease(d.inst)
		return nil, err
	}
	if err := d.openDevice(); err != nil {
		wgpu.adapterRelease(d.adapter)
		wgpu.instanceRelease(d.inst)
		return nil, err
	}
	return core.Open(d, "dawn", d.info), nil
}

// openAdapter asks for the high-performance adapter and refuses Dawn's
// Null backend, which "succeeds" at compute with garbage. A default
// request that gives Null is asked again for Vulkan by name.
func (d *api) openAdapter() error {
	var info adapterInfo
	for _, backend := range []uint32{0, backendVulkan} {
		adapter, err := d.requestAdapter(backend)
		if err != nil {
			return err
		}
		info = adapterInfo{}
		if wgpu.adapterGetInfo(adapter, &info) != statusSuccess {
			wgpu.adapterRelease(adapter)
			return fmt.Errorf("dawn: adapter info: %w", driver.ErrUnavailable)
		}
		if info.backendType != backendNull && info.backendType != 0 {
			d.adapter = adapter
			break
		}
		wgpu.adapterInfoFreeMembers(info)
		wgpu.adapterRelease(adapter)
	}
	if d.adapter == 0 {
		return fmt.Errorf("dawn: only Dawn's Null backend is offered (no real adapter): %w", driver.ErrUnavailable)
	}
	defer wgpu.adapterInfoFreeMembers(info)
	var al limits
	if wgpu.adapterGetLimits(d.adapter, &al) != statusSuccess {
		return fmt.Errorf("dawn: adapter limits: %w", driver.ErrUnavailable)
	}
	d.limits = al
	d.info = describe(&info, &al)
	return nil
}

func (d *api) requestAdapter(backend uint32) (uintptr, error) {
	id, r := expect()
	defer forget(id)
	opts := requestAdapterOptions{powerPreference: powerHighPerformance, backendType: backend}
	f := wgpu.instanceRequestAdapt(d.inst, &opts, waitInfo(callbacks.adapter, id))
	if err := d.await(context.Background(), f); err != nil {
		return 0, fmt.Errorf("dawn: request adapter: %v: %w", err, driver.ErrUnavailable)
	}
	if !r.done || r.status != statusSuccess || r.handle == 0 {
		return 0, fmt.Errorf("dawn: no adapter (status %d): %s: %w", r.status, r.message, driver.ErrUnavailable)
	}
	return r.handle, nil
}

// openDevice requests the device with the adapter's compute limits and
// the features compute can use.
func (d *api) openDevice() error {
	var feats supportedFeatures
	wgpu.adapterGetFeatures(d.adapter, &feats)
	var want []uint32
	for _, f := range unsafe.Slice(feats.features, feats.count) {
		if name, ok := featureNames[f]; ok {
			want = append(want, f)
			if f != featureSubgroups { // a typed field, set below from the device
				d.info.Facts[name] = "true"
			}
		}
	}
	wgpu.featuresFreeMembers(feats)

	req := requiredLimits(&d.limits)
	d.sink = nextSink.Add(1)
	sinks.Store(d.sink, d)
	desc := deviceDescriptor{
		label:                str("xpu"),
		requiredFeatureCount: uintptr(len(want)),
		requiredLimits:       &req,
		deviceLost:           callbackInfo{mode: callbackAllowProcessEvents, callback: callbacks.lost, userdata1: d.sink},
		uncapturedError:      uncapturedErrorCallbackInfo{callback: callbacks.uncaptured, userdata1: d.sink},
	}
	if len(want) > 0 {
		desc.requiredFeatures = &want[0]
	}
	// Timestamps unquantized when Dawn takes the toggle; as they come
	// when it does not.
	quantization := []byte("timestamp_quantization\x00")
	disabled := []*byte{&quantization[0]}
	toggles := dawnTogglesDescriptor{chain: chainedStruct{sType: sTypeDawnTogglesDescriptor}, disabledCount: 1, disabled: &disabled[0]}
	desc.next = uintptr(unsafe.Pointer(&toggles))
	err := d.requestDevice(&desc)
	if err == nil {
		d.info.Facts["timestamp-quantization"] = "off"
	} else {
		desc.next = 0
		err = d.requestDevice(&desc)
	}
	runtime.KeepAlive(want)
	runtime.KeepAlive(&req)
	runtime.KeepAlive(&toggles)
	runtime.KeepAlive(disabled)
	runtime.KeepAlive(quantization)
	if err != nil {
		sinks.Delete(d.sink)
		return fmt.Errorf("dawn: adapter %s: request device: %v: %w", d.info.Name, err, driver.ErrUnavailable)
	}
	setLog(d.dev)
	d.queue = wgpu.deviceGetQueue(d.dev)
	var dl limits
	if wgpu.deviceGetLimits(d.dev, &dl) == statusSuccess {
		d.limits = dl
		d.info.Limits = computeLimits(&dl, d.info.Limits.SubgroupMin, d.info.Limits.SubgroupMax)
	}
	d.timestamps = wgpu.deviceHasFeature(d.dev, featureTimestampQuery) != 0
	d.subgroups = wgpu.deviceHasFeature(d.dev, featureSubgroups) != 0
	d.info.Subgroups = d.subgroups
	return nil
}

func (d *api) requestDevice(desc *deviceDescriptor) error {
	id, r := expect()
	defer forget(id)
	f := wgpu.adapterRequestDevice(d.adapter, desc, waitInfo(callbacks.device, id))
	if err := d.await(context.Background(), f); err != nil {
		return err
	}
	if !r.done || r.status != statusSuccess || r.handle == 0 {
		return fmt.Errorf("status %d: %s", r.status, r.message)
	}
	d.dev = r.handle
	return nil
}

// requiredLimits leaves every limit at WebGPU's default but the compute
// limits, raised to the adapter's.
func requiredLimits(al *limits) limits {
	var l limits
	b := unsafe.Slice((*byte)(unsafe.Pointer(&l)), unsafe.Sizeof(l))
	for i := range b {
		b[i] = 0xFF
	}
	l.next = 0
	core.RaiseCompute(&l, al)
	return l
}

// describe turns what the adapter reports into an Info.
func describe(ai *adapterInfo, l *limits) driver.Info {
	info := driver.Info{
		Backend:  schema.BackendWebGPU,
		Name:     ai.device.String(),
		Driver:   backendNames[ai.backendType],
		Type:     adapterTypes[ai.adapterType],
		Limits:   computeLimits(l, ai.subgroupMinSize, ai.subgroupMaxSize),
		Software: "dawn",
		VendorID: ai.vendorID,
		DeviceID: ai.deviceID,
		Facts:    map[string]string{},
	}
	fact := func(name, v string) {
		if v != "" {
			info.Facts[name] = v
		}
	}
	fact("vendor", ai.vendor.String())
	fact("architecture", ai.architecture.String())
	fact("description", ai.description.String())
	if info.Name == "" {
		info.Name = info.Facts["description"]
	}
	return info
}

func computeLimits(l *limits, subMin, subMax uint32) driver.Limits {
	return core.LimitsOf(core.Fields(l), subMin, subMax)
}

// Wait blocks until the queue's submitted work has completed, or until
// ctx is done.
func (d *api) Wait(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.waitIdle(ctx)
}

// Errors returns the device's loss and the uncaptured errors since the
// last call.
func (d *api) Errors() error { return d.takeErr() }

// Close releases the device.
func (d *api) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	err := d.waitIdle(context.Background())
	wgpu.queueRelease(d.queue)
	wgpu.deviceRelease(d.dev)
	wgpu.adapterRelease(d.adapter)
	wgpu.instanceProcessEvents(d.inst)
	wgpu.instanceRelease(d.inst)
	sinks.Delete(d.sink)
	if errors.Is(err, errLost) {
		return nil
	}
	return err
}

// Abandon forgets the device without releasing it: Dawn's release waits
// for the work still running.
func (d *api) Abandon() {
	d.errMu.Lock()
	d.closed = true
	d.errMu.Unlock()
	sinks.Delete(d.sink)
}

// await waits for a future of the device's instance, processing events
// between timed waits so that a lost device is noticed, until ctx is done.
func (d *api) await(ctx context.Context, f uint64) error {
	info := futureWaitInfo{future: f}
	const slice = 100 * time.Millisecond
	for {
		timeout := slice
		if dl, ok := ctx.Deadline(); ok {
			timeout = min(slice, max(time.Until(dl), 0))
		}
		switch s := wgpu.instanceWaitAny(d.inst, 1, &info, uint64(timeout)); s {
		case waitSuccess:
			if info.completed != 0 {
				return nil
			}
		case waitTimedOut:
			wgpu.instanceProcessEvents(d.inst)
			if err := d.lostErr(); err != nil {
				return err
			}
			if ctx.Err() != nil {
				return fmt.Errorf("%w (%w)", driver.ErrTimeout, context.Cause(ctx))
			}
		default:
			return fmt.Errorf("wait: status %d", s)
		}
	}
}

// waitIdle waits until the queue's submitted work has completed. The
// caller holds d.mu.
func (d *api) waitIdle(ctx context.Context) error {
	if err := d.lostErr(); err != nil {
		return err
	}
	id, r := expect()
	defer forget(id)
	if err := d.await(ctx, wgpu.queueOnSubmittedWork(d.queue, waitInfo(callbacks.workDone, id))); err != nil {
		return err
	}
	wgpu.instanceProcessEvents(d.inst)
	if r.status != statusSuccess {
		if err := d.lostErr(); err != nil {
			return err
		}
		return fmt.Errorf("dawn: queue work done: status %d: %s", r.status, r.message)
	}
	return nil
}

// scoped runs create inside validation, out-of-memory and internal error
// scopes and returns what it made, or the first error a scope caught.
// Dawn keeps error scopes per thread, so the goroutine stays on its
// thread from push to pop. The caller holds d.mu.
func (d *api) scoped(create func() uintptr) (uintptr, error) {
	if err := d.lostErr(); err != nil {
		return 0, err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	filters := []uint32{errorFilterValidation, errorFilterOutOfMemory, errorFilterInternal}
	for _, f := range filters {
		wgpu.devicePushErrorScope(d.dev, f)
	}
	h := create()
	var errs []error
	for range filters {
		id, r := expect()
		err := d.await(context.Background(), wgpu.devicePopErrorScope(d.dev, waitInfo(callbacks.popErrorScope, id)))
		forget(id)
		switch {
		case err != nil:
			errs = append(errs, err)
		case r.status != statusSuccess:
			errs = append(errs, fmt.Errorf("pop error scope: status %d: %s", r.status, r.message))
		case r.errType != errorTypeNoError:
			errs = append(errs, fmt.Errorf("%s: %s", errorTypes[r.errType], r.message))
		}
	}
	return h, errors.Join(errs...)
}

// errLost is wrapped by the errors of a device Dawn reports lost.
var errLost = driver.ErrLost

// lose records that the device is lost; the device-lost callback calls it.
func (d *api) lose(reason uint32, msg string) {
	d.errMu.Lock()
	defer d.errMu.Unlock()
	if d.lost == nil && !d.closed {
		d.lost = fmt.Errorf("dawn: %w (%s): %s", errLost, lostReasons[reason], msg)
	}
}

// uncaptured records an error no error scope caught; the uncaptured-error
// callback calls it. The next Flush, Sync or Read returns it.
func (d *api) uncaptured(errType uint32, msg string) {
	d.errMu.Lock()
	defer d.errMu.Unlock()
	if len(d.errs) < 8 {
		d.errs = append(d.errs, fmt.Errorf("dawn: %s: %s", errorTypes[errType], msg))
	}
}

func (d *api) lostErr() error {
	d.errMu.Lock()
	defer d.errMu.Unlock()
	return d.lost
}

// takeErr returns the device's loss and the uncaptured errors since the
// last call.
func (d *api) takeErr() error {
	d.errMu.Lock()
	defer d.errMu.Unlock()
	errs := append([]error{d.lost}, d.errs...)
	d.errs = nil
	return errors.Join(errs...)
}
