//go:build linux && (amd64 || arm64)

package cuda

// This file opens a device: the library, cuInit, the device's primary
// context, and the device's facts from its attributes; and it binds the
// context to the calling thread around every driver call.

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
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
	// Library is the path of the CUDA driver library; "" is
	// libcuda.so.1, as the system's loader finds it.
	Library string
	// Device is the ordinal of the device among CUDA's.
	Device int
}

// Open opens the device the environment names: XPU_CUDA_LIB (the
// library's path) and XPU_CUDA_DEVICE (the device's ordinal).
func Open() (driver.Device, error) {
	cfg := Config{Library: os.Getenv("XPU_CUDA_LIB")}
	if s := os.Getenv("XPU_CUDA_DEVICE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("cuda: XPU_CUDA_DEVICE=%q: want a device ordinal, 0 or more", s)
		}
		cfg.Device = n
	}
	return New(cfg)
}

// device is an open CUDA device and its primary context.
type device struct {
	api  *api
	dev  int32 // the CUdevice
	ctx  uintptr
	info driver.Info
	cc   [2]int // compute capability

	// streams is held for reading by a wait on the streams of other
	// queues than the caller's (a buffer's Read), and for writing by a
	// queue's Release, so that no wait uses a stream destroyed under it.
	streams sync.RWMutex

	health  native.Health  // lost by a wait that outlived its context, or a sticky error
	modules native.Modules // loaded PTX modules, by the hash of their text

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
	if rc := a.init(0); rc != cuSuccess {
		// No device, or a driver that cannot run one: no backend here.
		return nil, fmt.Errorf("%w: %w", a.check("cuInit", rc), driver.ErrUnavailable)
	}
	var count int32
	if err := a.check("cuDeviceGetCount", a.deviceGetCount(unsafe.Pointer(&count))); err != nil {
		return nil, fmt.Errorf("%w: %w", err, driver.ErrUnavailable)
	}
	if cfg.Device < 0 || cfg.Device >= int(count) {
		return nil, fmt.Errorf("cuda: device %d of %d: %w", cfg.Device, count, driver.ErrUnavailable)
	}
	d := &device{api: a, health: native.Health{Prefix: "cuda"}, queues: map[*queue]struct{}{}}
	if err := a.check("cuDeviceGet", a.deviceGet(unsafe.Pointer(&d.dev), int32(cfg.Device))); err != nil {
		return nil, err
	}
	if err := d.readInfo(); err != nil {
		return nil, err
	}
	if err := a.check("cuDevicePrimaryCtxRetain", a.primaryRetain(unsafe.Pointer(&d.ctx), d.dev)); err != nil {
		return nil, err
	}
	return d, nil
}

// enter makes d's context current on the calling goroutine's thread,
// which it locks to the goroutine until the returned function runs: a
// purego call runs on whatever thread the goroutine is on, and CUDA's
// current context is the thread's, so every operation of the driver
// sets it first, on the thread its calls then run on.
func (d *device) enter() (leave func(), err error) {
	runtime.LockOSThread()
	if err := d.api.check("cuCtxSetCurrent", d.api.ctxSetCurrent(d.ctx)); err != nil {
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

// The CUdevice_attribute values the driver reads.
const (
	attrMaxThreadsPerBlock = 1
	attrMaxBlockDimX       = 2
	attrMaxGridDimX        = 5
	attrMaxSharedPerBlock  = 8
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

// maxUniformBytes is the uniform block a queue's device memory holds:
// the largest a launch may carry.
const maxUniformBytes = 64 << 10

// maxBufferParams is how many buffers a launch binds at most: the
// parameters of the PTX contract (16 bytes a buffer, and the uniform
// block's and fault word's addresses) in the 4,096 bytes of a kernel's
// parameters every CUDA version takes.
const maxBufferParams = (4096 - 16) / 16

// readInfo reads the device's facts from its attributes.
func (d *device) readInfo() error {
	a := d.api
	attr := func(id int32) (int, bool) {
		var v int32
		ok := a.deviceAttribute(unsafe.Pointer(&v), id, d.dev) == cuSuccess
		return int(v), ok
	}
	must := func(id int32, what string) (uint32, error) {
		var v int32
		if err := a.check("cuDeviceGetAttribute("+what+")", a.deviceAttribute(unsafe.Pointer(&v), id, d.dev)); err != nil {
			return 0, err
		}
		if v <= 0 {
			return 0, fmt.Errorf("cuda: the device reports %s %d", what, v)
		}
		return uint32(v), nil
	}
	var vals [12]uint32
	var err error
	for i, q := range []struct {
		id   int32
		what string
	}{
		{attrCCMajor, "compute capability major"}, {attrCCMinor, "compute capability minor"},
		{attrMaxThreadsPerBlock, "max threads per block"},
		{attrMaxBlockDimX, "max block dim x"}, {attrMaxBlockDimX + 1, "max block dim y"}, {attrMaxBlockDimX + 2, "max block dim z"},
		{attrMaxGridDimX, "max grid dim x"}, {attrMaxGridDimX + 1, "max grid dim y"}, {attrMaxGridDimX + 2, "max grid dim z"},
		{attrMaxSharedPerBlock, "shared memory per block"}, {attrWarpSize, "warp size"}, {attrMultiprocessors, "multiprocessors"},
	} {
		if q.id == attrCCMinor {
			// A minor version of 0 is a version.
			var v int32
			if err = a.check("cuDeviceGetAttribute("+q.what+")", a.deviceAttribute(unsafe.Pointer(&v), q.id, d.dev)); err != nil {
				return err
			}
			vals[i] = uint32(v)
			continue
		}
		if vals[i], err = must(q.id, q.what); err != nil {
			return err
		}
	}
	d.cc = [2]int{int(vals[0]), int(vals[1])}
	var total uintptr
	if err := a.check("cuDeviceTotalMem", a.deviceTotalMem(unsafe.Pointer(&total), d.dev)); err != nil {
		return err
	}
	name := make([]byte, 256)
	if err := a.check("cuDeviceGetName", a.deviceGetName(unsafe.Pointer(&name[0]), int32(len(name)), d.dev)); err != nil {
		return err
	}
	var version int32
	software := ""
	if a.driverVersion(unsafe.Pointer(&version)) == cuSuccess && version > 0 {
		software = fmt.Sprintf("CUDA driver %d.%d", version/1000, version%1000/10)
	}
	typ := "discrete-gpu"
	if v, ok := attr(attrIntegrated); ok && v != 0 {
		typ = "integrated-gpu"
	}
	isa := schema.PTXTarget(d.cc[0], d.cc[1])
	facts := map[string]string{
		"compute capability": fmt.Sprintf("%d.%d", d.cc[0], d.cc[1]),
		"multiprocessors":    strconv.Itoa(int(vals[11])),
		"max grid":           fmt.Sprintf("%dx%dx%d", vals[6], vals[7], vals[8]),
		"memory bytes":       strconv.FormatUint(uint64(total), 10),
	}
	for _, f := range []struct {
		id   int32
		name string
	}{
		{attrClockRate, "clock kHz"}, {attrMemoryClockRate, "memory clock kHz"}, {attrMemoryBusWidth, "memory bus bits"},
		{attrL2CacheSize, "l2 cache bytes"}, {attrMaxSharedOptin, "shared bytes per block optin"},
	} {
		// CUDA 13 no longer reports some of these on every device: a
		// fact it does not report is absent.
		if v, ok := attr(f.id); ok && v > 0 {
			facts[f.name] = strconv.Itoa(v)
		}
	}
	d.info = driver.Info{
		Backend:   schema.BackendCUDA,
		Name:      native.CString(&name[0]),
		Driver:    "cuda",
		Type:      typ,
		Software:  software,
		VendorID:  0x10de, // every CUDA device is NVIDIA's
		Subgroups: true,
		Native:    schema.TargetPTX,
		ISA:       isa,
		Limits: driver.Limits{
			MaxInvocationsPerBlock: vals[2],
			MaxBlockSize:           xpu.Dim3{X: vals[3], Y: vals[4], Z: vals[5]},
			// One bound for every axis: the least of the grid's, as
			// WebGPU's; the facts hold each.
			MaxGroups:              min(vals[6], vals[7], vals[8]),
			MaxSharedBytes:         vals[9],
			MaxStorageBuffers:      maxBufferParams,
			MaxStorageBufferBytes:  uint64(total),
			MaxBufferBytes:         uint64(total),
			MaxUniformBytes:        maxUniformBytes,
			StorageOffsetAlignment: schema.PTXBufferAlign,
			UniformOffsetAlignment: schema.PTXUniformAlign,
			SubgroupMin:            vals[10],
			SubgroupMax:            vals[10],
		},
		Facts: facts,
	}
	return nil
}

// Close releases the device's modules and its hold of the primary
// context. A lost device releases nothing that waits for the work it
// still runs (CUDA frees memory and unloads modules only once the device
// is idle): it abandons them to that work.
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
		if err := d.api.check("cuModuleUnload", d.api.moduleUnload(h)); err != nil {
			errs = append(errs, err)
		}
	}
	if err := d.api.check("cuDevicePrimaryCtxRelease", d.api.primaryRelease(d.dev)); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
