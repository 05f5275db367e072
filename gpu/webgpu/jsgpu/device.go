//go:build js

package jsgpu

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall/js"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
	"github.com/goxpu/xpu/schema"
)

var _ core.API = (*device)(nil)

// Map mode and stage flags of the WebGPU API.
const (
	mapModeRead  = 0x1
	stageCompute = 0x4
)

// optionalFeatures are the features requested when the adapter offers
// them.
var optionalFeatures = []string{"subgroups", "timestamp-query", "shader-f16"}

// device is an open GPUDevice, as the core drives it. Go in the browser
// runs one goroutine at a time, and no method holds a lock that a
// callback takes across a wait.
type device struct {
	dev      js.Value // GPUDevice
	queue    js.Value // GPUQueue
	features map[string]bool

	// errMu guards errs, the errors the device reported asynchronously,
	// and scopes, the popped error scopes not yet waited for. It is never
	// held across a wait, so that callbacks may take it.
	errMu  sync.Mutex
	errs   []error
	lost   error
	scopes []js.Value

	onScope js.Func

	onError js.Func
	onLost  js.Func

	// The waiters (relay) of the popped scopes and of the loss, which
	// Abandon turns off.
	scopeWaiter, lostWaiter js.Value
}

// Open opens the device of the browser's high-performance adapter. Without
// navigator.gpu, or when the browser offers no adapter, the error wraps
// driver.ErrUnavailable. Open waits for promises: call it from a
// goroutine, never from a js.FuncOf callback.
func Open() (driver.Device, error) {
	nav := js.Global().Get("navigator")
	if nav.Type() != js.TypeObject || nav.Get("gpu").Type() != js.TypeObject {
		return nil, fmt.Errorf("webgpu: navigator.gpu is absent (no WebGPU in this browser): %w", driver.ErrUnavailable)
	}
	gpu := nav.Get("gpu")
	p, err := call(gpu, "requestAdapter", map[string]any{"powerPreference": "high-performance"})
	if err != nil {
		return nil, fmt.Errorf("webgpu: requestAdapter: %v: %w", err, driver.ErrUnavailable)
	}
	adapter, err := await(p)
	if err != nil {
		return nil, fmt.Errorf("webgpu: requestAdapter: %v: %w", err, driver.ErrUnavailable)
	}
	if adapter.IsNull() || adapter.IsUndefined() {
		return nil, fmt.Errorf("webgpu: the browser offers no adapter: %w", driver.ErrUnavailable)
	}
	d := &device{features: map[string]bool{}}
	if err := d.request(adapter); err != nil {
		return nil, fmt.Errorf("webgpu: adapter %s: %v: %w", adapterName(adapterInfo(adapter)), err, driver.ErrUnavailable)
	}
	d.queue = d.dev.Get("queue")
	d.listen()
	info := describe(adapterInfo(adapter), d.dev.Get("limits"), d.features)
	return core.Open(d, "webgpu", info), nil
}

// request asks the adapter for a device with the optional features it
// offers and WebGPU's default limits raised to the adapter's compute
// limits, and falls back to a plain device.
func (d *device) request(adapter js.Value) error {
	offered := adapter.Get("features")
	var features []any
	for _, f := range optionalFeatures {
		if offered.Call("has", f).Bool() {
			features = append(features, f)
			d.features[f] = true
		}
	}
	al := adapter.Get("limits")
	limits := map[string]any{}
	for _, name := range core.ComputeLimits {
		if v := al.Get(name); v.Type() == js.TypeNumber {
			limits[name] = v.Float()
		}
	}
	desc := map[string]any{"label": "xpu", "requiredFeatures": features, "requiredLimits": limits}
	dev, err := requestDevice(adapter, desc)
	if err != nil {
		clear(d.features)
		dev, err = requestDevice(adapter, map[string]any{"label": "xpu"})
	}
	if err != nil {
		return err
	}
	d.dev = dev
	return nil
}

func requestDevice(adapter js.Value, desc map[string]any) (js.Value, error) {
	p, err := call(adapter, "requestDevice", desc)
	if err != nil {
		return js.Value{}, err
	}
	dev, err := await(p)
	if err == nil && (dev.IsNull() || dev.IsUndefined()) {
		err = errors.New("requestDevice gave no device")
	}
	return dev, err
}

// listen records the device's uncaptured errors and its loss. The
// callbacks only append under errMu.
func (d *device) listen() {
	d.onError = js.FuncOf(func(_ js.Value, args []js.Value) any {
		e := arg(args).Get("error")
		d.report(fmt.Errorf("webgpu: %v", jsError(e)))
		return nil
	})
	d.dev.Call("addEventListener", "uncapturederror", d.onError)
	d.onLost = js.FuncOf(func(_ js.Value, args []js.Value) any {
		info := arg(args)
		d.errMu.Lock()
		d.lost = fmt.Errorf("webgpu: device lost (%s): %s", info.Get("reason").String(), info.Get("message").String())
		d.errMu.Unlock()
		return nil
	})
	d.lostWaiter = waiter(d.onLost)
	relay().Invoke(d.dev.Get("lost"), d.lostWaiter)
	d.onScope = js.FuncOf(func(_ js.Value, args []js.Value) any {
		if e := arg(args); e.Type() == js.TypeObject {
			d.report(fmt.Errorf("webgpu: %v", jsError(e)))
		}
		return nil
	})
	d.scopeWaiter = waiter(d.onScope)
}

// waiter returns a waiter for relay that hands a promise's value to f
// and ignores its rejection.
func waiter(f js.Func) js.Value {
	w := js.Global().Get("Object").New()
	w.Set("resolve", f)
	w.Set("reject", js.Global().Get("Function").New())
	return w
}

// maxScopes bounds the popped scopes kept for settle; the callbacks of
// those dropped still record their errors.
const maxScopes = 256

// scope opens a validation error scope around work whose errors must be
// reported by the next settle, in order: the browser reports an error
// caught in a scope no later than the scope's popErrorScope promise
// settles, whereas uncapturederror events may come after later promises.
func (d *device) scope() { d.dev.Call("pushErrorScope", "validation") }

// unscope closes the scope that scope opened, without waiting: the error
// it caught, if any, is recorded when the browser reports it.
func (d *device) unscope() {
	p := d.dev.Call("popErrorScope")
	relay().Invoke(p, d.scopeWaiter)
	d.errMu.Lock()
	defer d.errMu.Unlock()
	if len(d.scopes) == maxScopes {
		d.scopes = d.scopes[1:]
	}
	d.scopes = append(d.scopes, p)
}

// settle waits until the errors of every closed scope are known, and
// returns and forgets the errors reported so far (see takeErrors).
func (d *device) settle() error {
	d.errMu.Lock()
	scopes := d.scopes
	d.scopes = nil
	d.errMu.Unlock()
	for _, p := range scopes {
		await(p) // its error is recorded by onScope; a rejection has none
	}
	return d.takeErrors()
}

// report records an error the device reported asynchronously.
func (d *device) report(err error) {
	d.errMu.Lock()
	defer d.errMu.Unlock()
	if len(d.errs) < 16 {
		d.errs = append(d.errs, err)
	}
}

// takeErrors returns and forgets the errors reported so far, and the loss
// of the device, which it keeps.
func (d *device) takeErrors() error {
	d.errMu.Lock()
	defer d.errMu.Unlock()
	err := errors.Join(append(d.errs, d.lost)...)
	d.errs = nil
	return err
}

// adapterInfo returns the adapter's GPUAdapterInfo.
func adapterInfo(adapter js.Value) js.Value {
	if info := adapter.Get("info"); info.Type() == js.TypeObject {
		return info
	}
	return js.Null()
}

// describe turns what the adapter and the device report into an Info.
func describe(ai, l js.Value, features map[string]bool) driver.Info {
	info := driver.Info{
		Backend: schema.BackendWebGPU,
		Name:    adapterName(ai),
		Driver:  "navigator.gpu",
		Limits:  core.LimitsOf(func(name string) uint64 { return num[uint64](l, name) }, 0, 0),
		Facts:   map[string]string{},
	}
	fact := func(name, v string) {
		if v != "" && v != "0" {
			info.Facts[name] = v
		}
	}
	fact("vendor", str(ai, "vendor"))
	fact("architecture", str(ai, "architecture"))
	fact("device", str(ai, "device"))
	fact("description", str(ai, "description"))
	if ai.Type() == js.TypeObject && ai.Get("isFallbackAdapter").Truthy() {
		info.Type = "cpu"
		fact("fallback-adapter", "true")
	}
	if features["subgroups"] {
		info.Subgroups = true
		info.Limits.SubgroupMin = num[uint32](ai, "subgroupMinSize")
		info.Limits.SubgroupMax = num[uint32](ai, "subgroupMaxSize")
	}
	for _, f := range optionalFeatures[1:] {
		if features[f] {
			fact(f, "true")
		}
	}
	if ua := js.Global().Get("navigator").Get("userAgent"); ua.Type() == js.TypeString {
		info.Software = ua.String()
	}
	return info
}

// adapterName names the adapter from its info: its description, or its
// vendor and architecture.
func adapterName(ai js.Value) string {
	if s := str(ai, "description"); s != "" {
		return s
	}
	name := strings.TrimSpace(str(ai, "vendor") + " " + str(ai, "architecture"))
	if name == "" {
		return "WebGPU adapter"
	}
	return name
}

// str returns v's string property name, or "".
func str(v js.Value, name string) string {
	if v.Type() != js.TypeObject {
		return ""
	}
	if p := v.Get(name); p.Type() == js.TypeString {
		return p.String()
	}
	return ""
}

// num returns v's numeric property name as a T, saturated, or 0 when it
// is absent.
func num[T uint32 | uint64](v js.Value, name string) T {
	if v.Type() != js.TypeObject {
		return 0
	}
	p := v.Get(name)
	if p.Type() != js.TypeNumber || p.Float() < 0 {
		return 0
	}
	if f := p.Float(); f < float64(^T(0)) {
		return T(f)
	}
	return ^T(0)
}

// Wait waits for the device to finish the work submitted, and returns the
// errors it reported meanwhile.
func (d *device) Wait(ctx context.Context) error {
	_, err := awaitContext(ctx, d.queue.Call("onSubmittedWorkDone"))
	if errors.Is(err, driver.ErrTimeout) {
		return err
	}
	return errors.Join(err, d.settle())
}

// Errors returns the errors the device reported so far, without waiting.
func (d *device) Errors() error { return d.takeErrors() }

// Close destroys the device, which frees everything it still holds, and
// returns the errors the device reported that no call has returned yet.
// It waits for the browser to confirm, so that no callback of the device
// runs after it.
func (d *device) Close() error {
	err := d.settle()
	d.dev.Call("removeEventListener", "uncapturederror", d.onError)
	d.dev.Call("destroy")
	await(d.dev.Get("lost")) // onLost has run: it was attached first
	d.onError.Release()
	d.onLost.Release()
	d.onScope.Release()
	return err
}

// Abandon destroys the device without waiting for the browser: the work
// still running ends with it, or when the browser lets it go. The
// device's callbacks stay alive, but its promises that settle later call
// none of them (relay).
func (d *device) Abandon() {
	d.dev.Call("removeEventListener", "uncapturederror", d.onError)
	d.scopeWaiter.Set("off", true)
	d.lostWaiter.Set("off", true)
	d.dev.Call("destroy")
}
