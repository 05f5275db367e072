//go:build linux && (amd64 || arm64)

package hip

// This file opens a device: the library, hipInit, and the device's facts
// from its attributes and its architecture's name; and it makes the
// device current on the calling thread around every runtime call.

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unsafe"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/internal/native"
	"github.com/goxpu/xpu/schema"
)

// Config configures a device; the zero Config is the one Open uses when
// the environment sets nothing.
type Config struct {
	// Library is the path of the HIP runtime library; "" is
	// libamdhip64.so, as the system's loader finds it.
	Library string
	// Device is the ordinal of the device among HIP's.
	Device int
}

// Open opens the device the environment names: XPU_HIP_LIB (the
// library's path) and XPU_HIP_DEVICE (the device's ordinal).
func Open() (driver.Device, error) {
	n, err := native.Ordinal("hip", "XPU_HIP_DEVICE")
	if err != nil {
		return nil, err
	}
	return New(Config{Library: os.Getenv("XPU_HIP_LIB"), Device: n})
}

// device is an open HIP device (the shared driver's, native.Device).
type device struct {
	*native.Device
	api *api
	dev int32 // the device's ordinal
	// arch is the device's gcnArchName, features and all
	// ("gfx90a:sramecc+:xnack-"); its processor is Info's ISA.
	arch string
	wave uint32 // the device's wave size
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
	d.Device = native.NewDevice(&a.Library, d, info)
	return d, nil
}

// Current makes d the current device of the calling thread: HIP's
// current device is the thread's.
func (d *device) Current() error { return d.api.check("hipSetDevice", d.api.setDevice(d.dev)) }

// Detach releases nothing: the driver holds no context of its own.
func (d *device) Detach() error { return nil }

// The hipDeviceAttribute_t values the driver reads (ROCm 6's, the
// numbering of the library whose hipGetDevicePropertiesR0600 it binds).
const (
	attrClockRate         = 5 // kHz
	attrIntegrated        = 16
	attrL2CacheSize       = 19
	attrMaxBlockDimX      = 26
	attrMaxGridDimX       = 29
	attrMaxThreadsPerBlk  = 56
	attrMemoryBusWidth    = 59 // bits
	attrMemoryClockRate   = 60 // kHz
	attrMultiprocessors   = 63
	attrMaxRegsPerBlock   = 71
	attrMaxSharedPerBlock = 74
	attrMaxSharedOptin    = 75
	attrWarpSize          = 87
)

// The hipDeviceProp_tR0600 the driver reads: its size, and the offset of
// gcnArchName, a char[256]. The properties are read into a larger buffer,
// so that a runtime writing more than ROCm 6's layout writes in it.
const (
	propsBytes       = 1472
	propsArchOffset  = 1160
	propsArchBytes   = 256
	propsBufferBytes = 4 * propsBytes
)

// readInfo reads the device's facts from its attributes and its
// architecture's name.
func (d *device) readInfo() (driver.Info, error) {
	a := d.api
	info, err := a.ReadInfo(d.dev, native.Attributes{
		MaxThreadsPerBlock: attrMaxThreadsPerBlk, MaxBlockDimX: attrMaxBlockDimX, MaxGridDimX: attrMaxGridDimX,
		MaxSharedPerBlock: attrMaxSharedPerBlock, WarpSize: attrWarpSize,
		Units: attrMultiprocessors, UnitsName: "compute units",
		Integrated: attrIntegrated, ClockRate: attrClockRate, MemoryClockRate: attrMemoryClockRate,
		MemoryBusWidth: attrMemoryBusWidth, L2CacheSize: attrL2CacheSize, MaxSharedOptin: attrMaxSharedOptin,
		MaxRegistersPerBlock: attrMaxRegsPerBlock,
	})
	if err != nil {
		return driver.Info{}, err
	}
	d.wave = info.Limits.SubgroupMin
	if d.wave != 32 && d.wave != 64 {
		return driver.Info{}, fmt.Errorf("hip: the device reports a wave of %d lanes; a code object runs waves of 32 or 64", d.wave)
	}
	props := make([]byte, propsBufferBytes)
	if err := a.check("hipGetDevicePropertiesR0600", a.deviceProps(unsafe.Pointer(&props[0]), d.dev)); err != nil {
		return driver.Info{}, err
	}
	arch := props[propsArchOffset : propsArchOffset+propsArchBytes]
	n := strings.IndexByte(string(arch), 0)
	if n <= 0 {
		return driver.Info{}, errors.New("hip: the device's properties name no architecture (gcnArchName)")
	}
	d.arch = string(arch[:n])
	info.ISA = processor(d.arch)
	if !strings.HasPrefix(info.ISA, "gfx") {
		return driver.Info{}, fmt.Errorf("hip: the device's architecture %q is no gfx processor", d.arch)
	}
	var version int32
	if a.runtimeVersion(unsafe.Pointer(&version)) == hipSuccess && version > 0 {
		// HIP_VERSION: major*10,000,000 + minor*100,000 + patch.
		info.Software = fmt.Sprintf("HIP %d.%d.%d", version/10000000, version/100000%100, version%100000)
	}
	info.Backend, info.Driver, info.Native = schema.BackendHIP, "hip", schema.TargetHSACO
	info.VendorID = 0x1002 // every HIP device of the amdgcn triple is AMD's
	info.Facts["architecture"] = d.arch
	return info, nil
}

// processor is the processor of a target ID or gcnArchName, without its
// features: "gfx90a" of "gfx90a:sramecc+:xnack-". An artifact's
// Selector.ISA names it so.
func processor(arch string) string {
	p, _, _ := strings.Cut(arch, ":")
	return p
}
