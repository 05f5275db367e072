//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goxpu/xpu/gpu/driver"
)

// libraryNames are the names tried on the library path, in order.
var libraryNames = []string{"libwebgpu_dawn.so", "libwebgpu.so", "libwebgpu_wrapper.so"}

// cachedLibrary is the library's file name in [CacheDir].
const cachedLibrary = "libwebgpu_wrapper.so"

// CacheDir returns the folder that scripts/install-dawn installs the
// library into: $XPU_DAWN_DIR, else $XDG_CACHE_HOME/xpu/dawn, else
// $HOME/.cache/xpu/dawn.
func CacheDir() string {
	if d := os.Getenv("XPU_DAWN_DIR"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "xpu", "dawn")
	}
	if d, err := os.UserHomeDir(); err == nil {
		return filepath.Join(d, ".cache", "xpu", "dawn")
	}
	return ""
}

// wgpu holds the library's functions, loaded once per process.
var wgpu struct {
	once sync.Once
	err  error
	path string

	createInstance        func(*instanceDescriptor) uintptr
	instanceRelease       func(uintptr)
	instanceRequestAdapt  func(uintptr, *requestAdapterOptions, callbackInfo) uint64
	instanceWaitAny       func(uintptr, uintptr, *futureWaitInfo, uint64) uint32
	instanceProcessEvents func(uintptr)

	adapterGetInfo         func(uintptr, *adapterInfo) uint32
	adapterInfoFreeMembers func(adapterInfo)
	adapterGetLimits       func(uintptr, *limits) uint32
	adapterGetFeatures     func(uintptr, *supportedFeatures)
	featuresFreeMembers    func(supportedFeatures)
	adapterRequestDevice   func(uintptr, *deviceDescriptor, callbackInfo) uint64
	adapterRelease         func(uintptr)

	deviceGetQueue         func(uintptr) uintptr
	deviceGetLimits        func(uintptr, *limits) uint32
	deviceHasFeature       func(uintptr, uint32) uint32
	devicePushErrorScope   func(uintptr, uint32)
	devicePopErrorScope    func(uintptr, callbackInfo) uint64
	deviceCreateBuffer     func(uintptr, *bufferDescriptor) uintptr
	deviceCreateShader     func(uintptr, *shaderModuleDescriptor) uintptr
	deviceCreateBGL        func(uintptr, *bindGroupLayoutDescriptor) uintptr
	deviceCreatePipeLayout func(uintptr, *pipelineLayoutDescriptor) uintptr
	deviceCreateCompute    func(uintptr, *computePipelineDescriptor) uintptr
	deviceCreateBindGroup  func(uintptr, *bindGroupDescriptor) uintptr
	deviceCreateEncoder    func(uintptr, uintptr) uintptr
	deviceCreateQuerySet   func(uintptr, *querySetDescriptor) uintptr
	deviceDestroy          func(uintptr)
	deviceRelease          func(uintptr)
	queueSubmit            func(uintptr, uintptr, *uintptr)
	queueWriteBuffer       func(uintptr, uintptr, uint64, unsafe.Pointer, uintptr)
	queueOnSubmittedWork   func(uintptr, callbackInfo) uint64
	queueRelease           func(uintptr)
	encoderBeginCompute    func(uintptr, *computePassDescriptor) uintptr
	encoderCopyBuffer      func(uintptr, uintptr, uint64, uintptr, uint64, uint64)
	encoderResolveQuerySet func(uintptr, uintptr, uint32, uint32, uintptr, uint64)
	encoderFinish          func(uintptr, uintptr) uintptr
	encoderRelease         func(uintptr)
	passSetPipeline        func(uintptr, uintptr)
	passSetBindGroup       func(uintptr, uint32, uintptr, uintptr, *uint32)
	passDispatch           func(uintptr, uint32, uint32, uint32)
	passEnd                func(uintptr)
	passRelease            func(uintptr)
	commandBufferRelease   func(uintptr)
	bufferMapAsync         func(uintptr, uint64, uintptr, uintptr, callbackInfo) uint64
	bufferGetConstMapped   func(uintptr, uintptr, uintptr) unsafe.Pointer
	bufferUnmap            func(uintptr)
	bufferDestroy          func(uintptr)
	bufferRelease          func(uintptr)
	shaderModuleRelease    func(uintptr)
	bindGroupLayoutRelease func(uintptr)
	pipelineLayoutRelease  func(uintptr)
	computePipelineRelease func(uintptr)
	bindGroupRelease       func(uintptr)
	querySetDestroy        func(uintptr)
	querySetRelease        func(uintptr)
}

// load opens the library and binds its functions, once per process. Its
// error wraps driver.ErrUnavailable.
func load() error {
	wgpu.once.Do(func() {
		wgpu.err = bind()
		if wgpu.err == nil {
			wgpu.err = makeCallbacks()
		}
	})
	return wgpu.err
}

func bind() error {
	lib, path, err := dlopen()
	if err != nil {
		return fmt.Errorf("dawn: %w: %w", err, driver.ErrUnavailable)
	}
	wgpu.path = path
	sym := func(fptr any, name string) {
		if err != nil {
			return
		}
		var addr uintptr
		if addr, err = purego.Dlsym(lib, name); err != nil {
			err = fmt.Errorf("dawn: %s lacks %s (not a webgpu.h library?): %w", path, name, driver.ErrUnavailable)
			return
		}
		purego.RegisterFunc(fptr, addr)
	}
	w := &wgpu
	sym(&w.createInstance, "wgpuCreateInstance")
	sym(&w.instanceRelease, "wgpuInstanceRelease")
	sym(&w.instanceRequestAdapt, "wgpuInstanceRequestAdapter")
	sym(&w.instanceWaitAny, "wgpuInstanceWaitAny")
	sym(&w.instanceProcessEvents, "wgpuInstanceProcessEvents")
	sym(&w.adapterGetInfo, "wgpuAdapterGetInfo")
	sym(&w.adapterInfoFreeMembers, "wgpuAdapterInfoFreeMembers")
	sym(&w.adapterGetLimits, "wgpuAdapterGetLimits")
	sym(&w.adapterGetFeatures, "wgpuAdapterGetFeatures")
	sym(&w.featuresFreeMembers, "wgpuSupportedFeaturesFreeMembers")
	sym(&w.adapterRequestDevice, "wgpuAdapterRequestDevice")
	sym(&w.adapterRelease, "wgpuAdapterRelease")
	sym(&w.deviceGetQueue, "wgpuDeviceGetQueue")
	sym(&w.deviceGetLimits, "wgpuDeviceGetLimits")
	sym(&w.deviceHasFeature, "wgpuDeviceHasFeature")
	sym(&w.devicePushErrorScope, "wgpuDevicePushErrorScope")
	sym(&w.devicePopErrorScope, "wgpuDevicePopErrorScope")
	sym(&w.deviceCreateBuffer, "wgpuDeviceCreateBuffer")
	sym(&w.deviceCreateShader, "wgpuDeviceCreateShaderModule")
	sym(&w.deviceCreateBGL, "wgpuDeviceCreateBindGroupLayout")
	sym(&w.deviceCreatePipeLayout, "wgpuDeviceCreatePipelineLayout")
	sym(&w.deviceCreateCompute, "wgpuDeviceCreateComputePipeline")
	sym(&w.deviceCreateBindGroup, "wgpuDeviceCreateBindGroup")
	sym(&w.deviceCreateEncoder, "wgpuDeviceCreateCommandEncoder")
	sym(&w.deviceCreateQuerySet, "wgpuDeviceCreateQuerySet")
	sym(&w.deviceDestroy, "wgpuDeviceDestroy")
	sym(&w.deviceRelease, "wgpuDeviceRelease")
	sym(&w.queueSubmit, "wgpuQueueSubmit")
	sym(&w.queueWriteBuffer, "wgpuQueueWriteBuffer")
	sym(&w.queueOnSubmittedWork, "wgpuQueueOnSubmittedWorkDone")
	sym(&w.queueRelease, "wgpuQueueRelease")
	sym(&w.encoderBeginCompute, "wgpuCommandEncoderBeginComputePass")
	sym(&w.encoderCopyBuffer, "wgpuCommandEncoderCopyBufferToBuffer")
	sym(&w.encoderResolveQuerySet, "wgpuCommandEncoderResolveQuerySet")
	sym(&w.encoderFinish, "wgpuCommandEncoderFinish")
	sym(&w.encoderRelease, "wgpuCommandEncoderRelease")
	bindLog(lib)
	// The calls each launch makes go through SyscallN, which allocates
	// nothing; a function RegisterFunc makes allocates on every call.
	raw := func(name string) uintptr {
		if err != nil {
			return 0
		}
		var addr uintptr
		if addr, err = purego.Dlsym(lib, name); err != nil {
			err = fmt.Errorf("dawn: %s lacks %s (not a webgpu.h library?): %w", path, name, driver.ErrUnavailable)
		}
		return addr
	}
	setPipeline := raw("wgpuComputePassEncoderSetPipeline")
	w.passSetPipeline = func(pass, pipeline uintptr) { purego.SyscallN(setPipeline, pass, pipeline) }
	setBindGroup := raw("wgpuComputePassEncoderSetBindGroup")
	w.passSetBindGroup = func(pass uintptr, index uint32, group, n uintptr, offsets *uint32) {
		purego.SyscallN(setBindGroup, pass, uintptr(index), group, n, uintptr(unsafe.Pointer(offsets)))
	}
	dispatch := raw("wgpuComputePassEncoderDispatchWorkgroups")
	w.passDispatch = func(pass uintptr, x, y, z uint32) {
		purego.SyscallN(dispatch, pass, uintptr(x), uintptr(y), uintptr(z))
	}
	sym(&w.passEnd, "wgpuComputePassEncoderEnd")
	sym(&w.passRelease, "wgpuComputePassEncoderRelease")
	sym(&w.commandBufferRelease, "wgpuCommandBufferRelease")
	sym(&w.bufferMapAsync, "wgpuBufferMapAsync")
	sym(&w.bufferGetConstMapped, "wgpuBufferGetConstMappedRange")
	sym(&w.bufferUnmap, "wgpuBufferUnmap")
	sym(&w.bufferDestroy, "wgpuBufferDestroy")
	sym(&w.bufferRelease, "wgpuBufferRelease")
	sym(&w.shaderModuleRelease, "wgpuShaderModuleRelease")
	sym(&w.bindGroupLayoutRelease, "wgpuBindGroupLayoutRelease")
	sym(&w.pipelineLayoutRelease, "wgpuPipelineLayoutRelease")
	sym(&w.computePipelineRelease, "wgpuComputePipelineRelease")
	sym(&w.bindGroupRelease, "wgpuBindGroupRelease")
	sym(&w.querySetDestroy, "wgpuQuerySetDestroy")
	sym(&w.querySetRelease, "wgpuQuerySetRelease")
	return err
}

// dlopen opens the first library found: XPU_WEBGPU_LIB, the library path,
// the cache folder.
func dlopen() (uintptr, string, error) {
	const mode = purego.RTLD_NOW | purego.RTLD_LOCAL
	if p := os.Getenv("XPU_WEBGPU_LIB"); p != "" {
		lib, err := purego.Dlopen(p, mode)
		if err != nil {
			return 0, "", fmt.Errorf("XPU_WEBGPU_LIB=%s: %v", p, err)
		}
		return lib, p, nil
	}
	var errs []error
	for _, name := range libraryNames {
		lib, err := purego.Dlopen(name, mode)
		if err == nil {
			return lib, name, nil
		}
	}
	if dir := CacheDir(); dir != "" {
		p := filepath.Join(dir, cachedLibrary)
		lib, err := purego.Dlopen(p, mode)
		if err == nil {
			return lib, p, nil
		}
		errs = append(errs, err)
	}
	return 0, "", fmt.Errorf("no webgpu.h library (set XPU_WEBGPU_LIB, or run scripts/install-dawn; tried %v on the library path and %s): %w",
		libraryNames, CacheDir(), errors.Join(errs...))
}
