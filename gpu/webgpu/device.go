//go:build cgo

package webgpu

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
	"github.com/goxpu/xpu/schema"
)

var _ core.API = (*api)(nil)

// Opener returns the opener of the WebGPU backend.
func Opener() driver.Opener { return open }

// api is an open wgpu device, as the core drives it. wgpu-native is safe
// for concurrent use.
type api struct {
	worker  // runs the queue's calls
	inst    *wgpu.Instance
	adapter *wgpu.Adapter
	dev     *wgpu.Device
	queue   *wgpu.Queue
}

// open opens the high-performance adapter's device.
func open() (driver.Device, error) {
	// A nil descriptor: the binding leaves fields of the one it builds
	// from a descriptor uninitialized.
	done := quiet()
	inst := wgpu.CreateInstance(nil)
	adapter, err := inst.RequestAdapter(&wgpu.RequestAdapterOptions{PowerPreference: wgpu.PowerPreferenceHighPerformance})
	done()
	if err != nil {
		inst.Release()
		return nil, fmt.Errorf("webgpu: %v: %w", err, driver.ErrUnavailable)
	}
	ai := adapter.GetInfo()
	if ai.BackendType == wgpu.BackendTypeNull || ai.BackendType == wgpu.BackendTypeUndefined {
		adapter.Release()
		inst.Release()
		return nil, fmt.Errorf("webgpu: only a %s adapter: %w", ai.BackendType, driver.ErrUnavailable)
	}
	a := &api{inst: inst, adapter: adapter}
	dev, err := requestDevice(adapter)
	if err != nil {
		adapter.Release()
		inst.Release()
		return nil, fmt.Errorf("webgpu: adapter %s: %v: %w", ai.Name, err, driver.ErrUnavailable)
	}
	a.dev, a.queue = dev, dev.GetQueue()
	a.start()
	info := describe(ai, dev.GetLimits().Limits, adapter.EnumerateFeatures())
	return core.Open(a, "webgpu", info), nil
}

// requestDevice asks for WebGPU's default limits with the compute limits
// raised to the adapter's (asking for every adapter limit fails), and falls
// back to the defaults.
func requestDevice(adapter *wgpu.Adapter) (*wgpu.Device, error) {
	al := adapter.GetLimits().Limits
	req := wgpu.DefaultLimits()
	core.RaiseCompute(&req, &al)
	dev, err := adapter.RequestDevice(&wgpu.DeviceDescriptor{
		Label:          "xpu",
		RequiredLimits: &wgpu.RequiredLimits{Limits: req},
	})
	if err == nil {
		return dev, nil
	}
	return adapter.RequestDevice(&wgpu.DeviceDescriptor{Label: "xpu"})
}

// describe turns what the adapter and the device report into an Info.
// wgpu-native 0.19 reports the vendor and device as numbers and the
// adapter's name as its description.
func describe(ai wgpu.AdapterInfo, l wgpu.Limits, features []wgpu.FeatureName) driver.Info {
	name, desc := ai.Name, ai.DriverDescription
	if _, ok := number(name); ok && desc != "" {
		name, desc = desc, ""
	}
	info := driver.Info{
		Backend: schema.BackendWebGPU,
		Name:    name,
		Driver:  ai.BackendType.String(),
		Type:    ai.AdapterType.String(),
		Limits:  core.LimitsOf(core.Fields(&l), 0, 0),
		Facts:   map[string]string{},
	}
	fact := func(name, v string) {
		if v != "" && v != "0x0" {
			info.Facts[name] = v
		}
	}
	if id, ok := number(ai.VendorName); ok {
		info.VendorID = id
	} else {
		fact("vendor", ai.VendorName)
	}
	if id, ok := number(ai.Name); ok {
		info.DeviceID = id
	}
	if ai.VendorId != 0 {
		info.VendorID = ai.VendorId
	}
	if ai.DeviceId != 0 {
		info.DeviceID = ai.DeviceId
	}
	info.Software = "wgpu-native"
	if v := wgpu.GetVersion(); v != 0 {
		info.Software += " " + v.String()
	}
	fact("architecture", ai.Architecture)
	fact("description", desc)
	names := make([]string, 0, len(features))
	for _, f := range features {
		if f == wgpu.FeatureNameTimestampQuery {
			fact("timestamp-query", "true")
		}
		names = append(names, f.String())
	}
	slices.Sort(names)
	fact("features", strings.Join(names, " "))
	return info
}

// number returns the number s spells, as wgpu-native 0.19 spells vendor
// and device ids.
func number(s string) (uint32, bool) {
	n, err := strconv.ParseUint(s, 0, 32)
	return uint32(n), err == nil
}

// Wait blocks until the device's submitted work has completed, or until
// ctx is done.
func (a *api) Wait(ctx context.Context) error {
	return a.run(ctx, func() error {
		return a.poll(func() bool { return a.dev.Poll(false, nil) })
	})
}

// Errors returns the errors of the queue's calls since the last call:
// wgpu-native reports other errors from the calls that make them.
func (a *api) Errors() error { return a.taken() }

// Close waits for the device's work and releases the device.
func (a *api) Close() error {
	err := a.Wait(context.Background())
	a.stop()
	a.queue.Release()
	a.dev.Release()
	a.adapter.Release()
	a.inst.Release()
	return err
}

// Abandon leaves the device to the process: work still running may use
// it, and wgpu would free what it uses.
func (a *api) Abandon() { a.abandon() }
