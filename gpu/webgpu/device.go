//go:build cgo

package webgpu

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

var _ driver.Device = (*device)(nil)

// Opener returns the opener of the WebGPU backend.
func Opener() driver.Opener { return open }

// device is an open wgpu device.
type device struct {
	inst    *wgpu.Instance
	adapter *wgpu.Adapter
	dev     *wgpu.Device
	queue   *wgpu.Queue
	info    driver.Info
	limits  wgpu.Limits

	// uniformAlign is the alignment of a launch's uniforms in a ring.
	uniformAlign int

	nextID atomic.Uint64 // ids of programs, buffers and rings, for bind group keys
	groups bindGroups

	readMu      sync.Mutex // guards staging
	staging     *wgpu.Buffer
	stagingSize int
}

// open opens the high-performance adapter's device.
func open() (driver.Device, error) {
	// A nil descriptor: the binding leaves fields of the one it builds
	// from a descriptor uninitialized.
	inst := wgpu.CreateInstance(nil)
	adapter, err := inst.RequestAdapter(&wgpu.RequestAdapterOptions{PowerPreference: wgpu.PowerPreferenceHighPerformance})
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
	d := &device{inst: inst, adapter: adapter}
	dev, err := requestDevice(adapter)
	if err != nil {
		adapter.Release()
		inst.Release()
		return nil, fmt.Errorf("webgpu: adapter %s: %v: %w", ai.Name, err, driver.ErrUnavailable)
	}
	d.dev, d.queue = dev, dev.GetQueue()
	d.limits = dev.GetLimits().Limits
	d.uniformAlign = max(256, int(d.limits.MinUniformBufferOffsetAlignment))
	d.info = describe(ai, d.limits, adapter.EnumerateFeatures())
	d.groups.init()
	return d, nil
}

// requestDevice asks for WebGPU's default limits with the compute limits
// raised to the adapter's (asking for every adapter limit fails), and falls
// back to the defaults.
func requestDevice(adapter *wgpu.Adapter) (*wgpu.Device, error) {
	al := adapter.GetLimits().Limits
	req := wgpu.DefaultLimits()
	req.MaxComputeWorkgroupStorageSize = al.MaxComputeWorkgroupStorageSize
	req.MaxComputeInvocationsPerWorkgroup = al.MaxComputeInvocationsPerWorkgroup
	req.MaxComputeWorkgroupSizeX = al.MaxComputeWorkgroupSizeX
	req.MaxComputeWorkgroupSizeY = al.MaxComputeWorkgroupSizeY
	req.MaxComputeWorkgroupSizeZ = al.MaxComputeWorkgroupSizeZ
	req.MaxComputeWorkgroupsPerDimension = al.MaxComputeWorkgroupsPerDimension
	req.MaxStorageBuffersPerShaderStage = al.MaxStorageBuffersPerShaderStage
	req.MaxStorageBufferBindingSize = al.MaxStorageBufferBindingSize
	req.MaxBufferSize = al.MaxBufferSize
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
	if numeric(name) && desc != "" {
		name, desc = desc, ""
	}
	info := driver.Info{
		Backend: "webgpu",
		Name:    name,
		Driver:  ai.BackendType.String(),
		Type:    ai.AdapterType.String(),
		Limits: driver.Limits{
			MaxInvocationsPerBlock: l.MaxComputeInvocationsPerWorkgroup,
			MaxBlockSize:           xpu.Dim3{X: l.MaxComputeWorkgroupSizeX, Y: l.MaxComputeWorkgroupSizeY, Z: l.MaxComputeWorkgroupSizeZ},
			MaxGroups:              l.MaxComputeWorkgroupsPerDimension,
			MaxSharedBytes:         l.MaxComputeWorkgroupStorageSize,
			MaxStorageBuffers:      l.MaxStorageBuffersPerShaderStage,
			MaxStorageBufferBytes:  l.MaxStorageBufferBindingSize,
			MaxBufferBytes:         l.MaxBufferSize,
			MaxUniformBytes:        uint32(min(l.MaxUniformBufferBindingSize, math.MaxUint32)),
			StorageOffsetAlignment: l.MinStorageBufferOffsetAlignment,
			UniformOffsetAlignment: l.MinUniformBufferOffsetAlignment,
		},
		Facts: map[string]string{},
	}
	fact := func(name, v string) {
		if v != "" && v != "0x0" {
			info.Facts[name] = v
		}
	}
	if numeric(ai.VendorName) {
		fact("vendor-id", ai.VendorName)
	} else {
		fact("vendor", ai.VendorName)
	}
	if numeric(ai.Name) {
		fact("device-id", ai.Name)
	}
	if ai.VendorId != 0 {
		fact("vendor-id", "0x"+strconv.FormatUint(uint64(ai.VendorId), 16))
	}
	if ai.DeviceId != 0 {
		fact("device-id", "0x"+strconv.FormatUint(uint64(ai.DeviceId), 16))
	}
	fact("webgpu-driver", "wgpu-native")
	fact("architecture", ai.Architecture)
	fact("description", desc)
	if v := wgpu.GetVersion(); v != 0 {
		fact("wgpu-native", v.String())
	}
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

// numeric reports whether s spells a number, as wgpu-native 0.19 spells
// vendor and device ids.
func numeric(s string) bool {
	_, err := strconv.ParseUint(s, 0, 64)
	return err == nil
}

// Info describes the device.
func (d *device) Info() driver.Info { return d.info }

// NewQueue returns a queue recording into one compute pass at a time.
func (d *device) NewQueue() (driver.Queue, error) { return d.newQueue() }

// Close releases what the device still holds and the device itself.
func (d *device) Close() error {
	d.groups.releaseAll()
	if d.staging != nil {
		d.staging.Release()
		d.staging = nil
	}
	d.dev.Poll(true, nil)
	d.queue.Release()
	d.dev.Release()
	d.adapter.Release()
	d.inst.Release()
	return nil
}

// wait blocks until the device's submitted work has completed.
func (d *device) wait() {
	d.dev.Poll(true, nil)
}
