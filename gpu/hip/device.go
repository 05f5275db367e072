//go:build linux && (amd64 || arm64)

package hip

// This file opens a device: the library, hipInit, and the device's facts
// from its attributes and its architecture's name; and it makes the
// device current on the calling thread around every runtime call.

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/goxpu/xpu"
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
	cfg := Config{Library: os.Getenv("XPU_HIP_LIB")}
	if s := os.Getenv("XPU_HIP_DEVICE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("hip: XPU_HIP_DEVICE=%q: want a device ordinal, 0 or more", s)
		}
		cfg.Device = n
	}
	return New(cfg)
}

// device is an open HIP device.
type device struct {
	api  *api
	dev  int32 // the device's ordinal
	info driver.Info
	// arch is the device's gcnArchName, features and all
	// ("gfx90a:sramecc+:xnack-"); its processor is info.ISA.
	arch string
	wave uint32 // the device's wave size

	// streams is held for reading by a wait on the streams of other
	// queues than the caller's (a buffer's Read), and for writing by a
	// queue's Release, so that no wait uses a stream destroyed under it.
	streams sync.RWMutex

	health  native.Health  // lost by a wait that outlived its context, or a sticky error
	modules native.Modules // loaded code objects, by the hash of their bytes

	mu     sync.Mutex
	closed bool
	queues map[*queue]struct{}
}

var (
	_ driver.Device          = (*device)(nil)
	_ driver.Refuser         = (*device)(nil)
	_ driver.Amender         = (*device)(nil)
	_ driver.ClockCalibrator = (*device)(nil)
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
	if rc := a.init(0); rc != hipSuccess {
		// No device, or a runtime that cannot run one: no backend here.
		return nil, fmt.Errorf("%w: %w", a.check("hipInit", rc), driver.ErrUnavailable)
	}
	var count int32
	if err := a.check("hipGetDeviceCount", a.deviceGetCount(unsafe.Pointer(&count))); err != nil {
		return nil, fmt.Errorf("%w: %w", err, driver.ErrUnavailable)
	}
	if cfg.Device < 0 || cfg.Device >= int(count) {
		return nil, fmt.Errorf("hip: device %d of %d: %w", cfg.Device, count, driver.ErrUnavailable)
	}
	d := &device{api: a, health: native.Health{Prefix: "hip"}, queues: map[*queue]struct{}{}}
	if err := a.check("hipDeviceGet", a.deviceGet(unsafe.Pointer(&d.dev), int32(cfg.Device))); err != nil {
		return nil, err
	}
	if err := d.readInfo(); err != nil {
		return nil, err
	}
	return d, nil
}

// enter makes d the current device of the calling goroutine's thread,
// which it locks to the goroutine until the returned function runs: a
// purego call runs on whatever thread the goroutine is on, and HIP's
// current device is the thread's, so every operation of the driver sets
// it first, on the thread its calls then run on.
func (d *device) enter() (leave func(), err error) {
	runtime.LockOSThread()
	if err := d.api.check("hipSetDevice", d.api.setDevice(d.dev)); err != nil {
		runtime.UnlockOSThread()
		return nil, err
	}
	return runtime.UnlockOSThread, nil
}

// usable returns the error of a call on a lost device, wrapping
// driver.ErrLost; nil while the device works.
func (d *device) usable(call string) error { return d.health.Usable(call) }

// failed returns err, recording a lost device where it says so.
func (d *device) failed(err error) error { return d.health.Failed(err) }

func (d *device) Info() driver.Info { return d.info }

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

// maxUniformBytes is the uniform block a queue's device memory holds:
// the largest a launch may carry.
const maxUniformBytes = 64 << 10

// maxBufferParams is how many buffers a launch binds at most: the kernel
// arguments of the HSACO contract (16 bytes a buffer, and the uniform
// block's and fault word's addresses) in the 4,096 bytes of explicit
// kernel arguments a kernel of a code object takes.
const maxBufferParams = (4096 - 16) / 16

// readInfo reads the device's facts from its attributes and its
// architecture's name.
func (d *device) readInfo() error {
	a := d.api
	attr := func(id int32) (int, bool) {
		var v int32
		ok := a.deviceAttribute(unsafe.Pointer(&v), id, d.dev) == hipSuccess
		return int(v), ok
	}
	var vals [10]uint32
	for i, q := range []struct {
		id   int32
		what string
	}{
		{attrMaxThreadsPerBlk, "max threads per block"},
		{attrMaxBlockDimX, "max block dim x"}, {attrMaxBlockDimX + 1, "max block dim y"}, {attrMaxBlockDimX + 2, "max block dim z"},
		{attrMaxGridDimX, "max grid dim x"}, {attrMaxGridDimX + 1, "max grid dim y"}, {attrMaxGridDimX + 2, "max grid dim z"},
		{attrMaxSharedPerBlock, "shared memory per block"}, {attrWarpSize, "warp size"}, {attrMultiprocessors, "compute units"},
	} {
		var v int32
		if err := a.check("hipDeviceGetAttribute("+q.what+")", a.deviceAttribute(unsafe.Pointer(&v), q.id, d.dev)); err != nil {
			return err
		}
		if v <= 0 {
			return fmt.Errorf("hip: the device reports %s %d", q.what, v)
		}
		vals[i] = uint32(v)
	}
	d.wave = vals[8]
	if d.wave != 32 && d.wave != 64 {
		return fmt.Errorf("hip: the device reports a wave of %d lanes; a code object runs waves of 32 or 64", d.wave)
	}
	props := make([]byte, propsBufferBytes)
	if err := a.check("hipGetDevicePropertiesR0600", a.deviceProps(unsafe.Pointer(&props[0]), d.dev)); err != nil {
		return err
	}
	arch := props[propsArchOffset : propsArchOffset+propsArchBytes]
	n := strings.IndexByte(string(arch), 0)
	if n <= 0 {
		return errors.New("hip: the device's properties name no architecture (gcnArchName)")
	}
	d.arch = string(arch[:n])
	isa := processor(d.arch)
	if !strings.HasPrefix(isa, "gfx") {
		return fmt.Errorf("hip: the device's architecture %q is no gfx processor", d.arch)
	}
	var total uintptr
	if err := a.check("hipDeviceTotalMem", a.deviceTotalMem(unsafe.Pointer(&total), d.dev)); err != nil {
		return err
	}
	name := make([]byte, 256)
	if err := a.check("hipDeviceGetName", a.deviceGetName(unsafe.Pointer(&name[0]), int32(len(name)), d.dev)); err != nil {
		return err
	}
	var version int32
	software := ""
	if a.runtimeVersion(unsafe.Pointer(&version)) == hipSuccess && version > 0 {
		// HIP_VERSION: major*10,000,000 + minor*100,000 + patch.
		software = fmt.Sprintf("HIP %d.%d.%d", version/10000000, version/100000%100, version%100000)
	}
	typ := "discrete-gpu"
	if v, ok := attr(attrIntegrated); ok && v != 0 {
		typ = "integrated-gpu"
	}
	facts := map[string]string{
		"architecture":  d.arch,
		"compute units": strconv.Itoa(int(vals[9])),
		"max grid":      fmt.Sprintf("%dx%dx%d", vals[4], vals[5], vals[6]),
		"memory bytes":  strconv.FormatUint(uint64(total), 10),
	}
	for _, f := range []struct {
		id   int32
		name string
	}{
		{attrClockRate, "clock kHz"}, {attrMemoryClockRate, "memory clock kHz"}, {attrMemoryBusWidth, "memory bus bits"},
		{attrL2CacheSize, "l2 cache bytes"}, {attrMaxSharedOptin, "shared bytes per block optin"},
	} {
		// A fact the runtime does not report is absent.
		if v, ok := attr(f.id); ok && v > 0 {
			facts[f.name] = strconv.Itoa(v)
		}
	}
	d.info = driver.Info{
		Backend:   schema.BackendHIP,
		Name:      native.CString(&name[0]),
		Driver:    "hip",
		Type:      typ,
		Software:  software,
		VendorID:  0x1002, // every HIP device of the amdgcn triple is AMD's
		Subgroups: true,
		Native:    schema.TargetHSACO,
		ISA:       isa,
		Limits: driver.Limits{
			MaxInvocationsPerBlock: vals[0],
			MaxBlockSize:           xpu.Dim3{X: vals[1], Y: vals[2], Z: vals[3]},
			// One bound for every axis: the least of the grid's, as
			// WebGPU's; the facts hold each.
			MaxGroups:              min(vals[4], vals[5], vals[6]),
			MaxSharedBytes:         vals[7],
			MaxStorageBuffers:      maxBufferParams,
			MaxStorageBufferBytes:  uint64(total),
			MaxBufferBytes:         uint64(total),
			MaxUniformBytes:        maxUniformBytes,
			StorageOffsetAlignment: schema.PTXBufferAlign,
			UniformOffsetAlignment: schema.PTXUniformAlign,
			SubgroupMin:            d.wave,
			SubgroupMax:            d.wave,
		},
		Facts: facts,
	}
	return nil
}

// processor is the processor of a target ID or gcnArchName, without its
// features: "gfx90a" of "gfx90a:sramecc+:xnack-". An artifact's
// Selector.ISA names it so.
func processor(arch string) string {
	p, _, _ := strings.Cut(arch, ":")
	return p
}

// Close releases the device's modules. A lost device releases nothing
// that waits for the work it still runs: it abandons them to that work.
func (d *device) Close() error {
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
	leave, err := d.enter()
	if err != nil {
		return err
	}
	defer leave()
	var errs []error
	for _, h := range mods {
		if err := d.api.check("hipModuleUnload", d.api.moduleUnload(h)); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
