//go:build linux && (amd64 || arm64)

package cuda

// This file opens a device: the library, cuInit, the device's primary
// context, and the device's facts from its attributes; and it makes the
// context current on the calling thread around every driver call.

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/internal/native"
	"github.com/goxpu/xpu/schema"
)

// Config configures a device; the zero Config is the one Open uses when
// the environment sets nothing.
type Config struct {
	// Library is the path of the CUDA driver library; "" is
	// libcuda.so.1, as the system's loader finds it.
	Library string
	// Device is the ordinal of the device among CUDA's.
	Device int
}

// Open opens the device the environment names: XPU_CUDA_LIB (the
// library's path) and XPU_CUDA_DEVICE (the device's ordinal).
func Open() (driver.Device, error) {
	n, err := native.Ordinal("cuda", "XPU_CUDA_DEVICE")
	if err != nil {
		return nil, err
	}
	return New(Config{Library: os.Getenv("XPU_CUDA_LIB"), Device: n})
}

// device is an open CUDA device (the shared driver's, native.Device) and
// its primary context.
type device struct {
	*native.Device
	api *api
	dev int32 // the CUdevice
	ctx uintptr
	cc  [2]int // compute capability
}

var (
	_ driver.Device          = (*device)(nil)
	_ driver.Refuser         = (*device)(nil)
	_ driver.Amender         = (*device)(nil)
	_ driver.ClockCalibrator = (*device)(nil)
	_ native.Driver          = (*device)(nil)
)

// New opens the device cfg names.
func New(cfg Config) (driver.Device, error) {
	path := cfg.Library
	if path == "" {
		path = defaultLibrary
	}
	a, err := load(path)
	if err != nil {
		return nil, err
	}
	d := &device{api: a}
	if d.dev, err = a.Open(cfg.Device); err != nil {
		return nil, err
	}
	info, err := d.readInfo()
	if err != nil {
		return nil, err
	}
	if err := a.check("cuDevicePrimaryCtxRetain", a.primaryRetain(unsafe.Pointer(&d.ctx), d.dev)); err != nil {
		return nil, err
	}
	d.Device = native.NewDevice(&a.Library, d, info)
	return d, nil
}

// Current makes the device's primary context current on the calling
// thread: CUDA's current context is the thread's.
func (d *device) Current() error {
	return d.api.check("cuCtxSetCurrent", d.api.ctxSetCurrent(d.ctx))
}

// Detach releases the device's hold of the primary context.
func (d *device) Detach() error {
	return d.api.check("cuDevicePrimaryCtxRelease", d.api.primaryRelease(d.dev))
}

// The CUdevice_attribute values the driver reads.
const (
	attrMaxThreadsPerBlock = 1
	attrMaxBlockDimX       = 2
	attrMaxGridDimX        = 5
	attrMaxSharedPerBlock  = 8
	attrMaxRegsPerBlock    = 12
	attrWarpSize           = 10
	attrClockRate          = 13 // kHz
	attrMultiprocessors    = 16
	attrIntegrated         = 18
	attrMemoryClockRate    = 36 // kHz
	attrMemoryBusWidth     = 37 // bits
	attrL2CacheSize        = 38
	attrCCMajor            = 75
	attrCCMinor            = 76
	attrMaxSharedOptin     = 97
)

// readInfo reads the device's compute capability, and its facts from its
// attributes.
func (d *device) readInfo() (driver.Info, error) {
	a := d.api
	major, err := a.Positive(d.dev, attrCCMajor, "compute capability major")
	if err != nil {
		return driver.Info{}, err
	}
	// A minor version of 0 is a version.
	minor, err := a.Attribute(d.dev, attrCCMinor, "compute capability minor")
	if err != nil {
		return driver.Info{}, err
	}
	d.cc = [2]int{int(major), int(uint32(minor))}
	info, err := a.ReadInfo(d.dev, native.Attributes{
		MaxThreadsPerBlock: attrMaxThreadsPerBlock, MaxBlockDimX: attrMaxBlockDimX, MaxGridDimX: attrMaxGridDimX,
		MaxSharedPerBlock: attrMaxSharedPerBlock, WarpSize: attrWarpSize,
		Units: attrMultiprocessors, UnitsName: "multiprocessors",
		Integrated: attrIntegrated, ClockRate: attrClockRate, MemoryClockRate: attrMemoryClockRate,
		MemoryBusWidth: attrMemoryBusWidth, L2CacheSize: attrL2CacheSize, MaxSharedOptin: attrMaxSharedOptin,
		MaxRegistersPerBlock: attrMaxRegsPerBlock,
	})
	if err != nil {
		return driver.Info{}, err
	}
	var version int32
	if a.driverVersion(unsafe.Pointer(&version)) == cuSuccess && version > 0 {
		info.Software = fmt.Sprintf("CUDA driver %d.%d", version/1000, version%1000/10)
	}
	info.Backend, info.Driver, info.Native = schema.BackendCUDA, "cuda", schema.TargetPTX
	info.VendorID = 0x10de // every CUDA device is NVIDIA's
	info.ISA = schema.PTXTarget(d.cc[0], d.cc[1])
	info.Facts["compute capability"] = fmt.Sprintf("%d.%d", d.cc[0], d.cc[1])
	return info, nil
}
