//go:build linux && (amd64 || arm64)

package hip

// This file binds the functions of the HIP runtime that the driver
// calls, through purego, once per library path per process.

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/internal/native"
)

// defaultLibrary is the runtime library the system's loader finds.
const defaultLibrary = "libamdhip64.so"

// api is one opened runtime library's functions. Handles (hipModule_t,
// hipFunction_t, hipStream_t, hipEvent_t) and device pointers are
// uintptr; a hipError_t is a uint32; a device is its ordinal.
type api struct {
	path string

	errorName      func(rc uint32) *byte
	errorString    func(rc uint32) *byte
	init           func(flags uint32) uint32
	runtimeVersion func(v unsafe.Pointer) uint32

	deviceGetCount  func(n unsafe.Pointer) uint32
	deviceGet       func(dev unsafe.Pointer, ordinal int32) uint32
	deviceGetName   func(name unsafe.Pointer, n int32, dev int32) uint32
	deviceAttribute func(v unsafe.Pointer, attr int32, dev int32) uint32
	deviceTotalMem  func(bytes unsafe.Pointer, dev int32) uint32
	deviceProps     func(props unsafe.Pointer, dev int32) uint32
	setDevice       func(dev int32) uint32

	malloc        func(ptr unsafe.Pointer, bytes uintptr) uint32
	free          func(ptr uintptr) uint32
	memcpyHtoD    func(dst uintptr, src unsafe.Pointer, n uintptr) uint32
	memcpyHtoDAsy func(dst uintptr, src unsafe.Pointer, n uintptr, stream uintptr) uint32
	memcpyDtoH    func(dst unsafe.Pointer, src uintptr, n uintptr) uint32
	memsetD8      func(dst uintptr, v uint8, n uintptr) uint32
	memsetD8Async func(dst uintptr, v uint8, n uintptr, stream uintptr) uint32

	moduleLoadData func(mod unsafe.Pointer, image unsafe.Pointer) uint32
	moduleUnload   func(mod uintptr) uint32
	moduleGetFunc  func(fn unsafe.Pointer, mod uintptr, name string) uint32
	funcAttribute  func(v unsafe.Pointer, attr int32, fn uintptr) uint32
	launchKernel   func(fn uintptr, gx, gy, gz, bx, by, bz, shared uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) uint32

	streamCreate  func(stream unsafe.Pointer, flags uint32) uint32
	streamDestroy func(stream uintptr) uint32
	streamQuery   func(stream uintptr) uint32
	streamSync    func(stream uintptr) uint32

	eventCreate  func(ev unsafe.Pointer, flags uint32) uint32
	eventDestroy func(ev uintptr) uint32
	eventRecord  func(ev uintptr, stream uintptr) uint32
	eventElapsed func(ms unsafe.Pointer, start, end uintptr) uint32
}

// apis are the libraries opened so far, by path, with the error of one
// that did not open; a library is never closed, since a device of it may
// be open.
var apis struct {
	sync.Mutex
	m map[string]apiOrErr
}

type apiOrErr struct {
	a   *api
	err error
}

// load returns the functions of the library at path, opening it the
// first time. Its error wraps driver.ErrUnavailable: no library, or one
// without the runtime's functions, is a machine without the backend.
func load(path string) (*api, error) {
	apis.Lock()
	defer apis.Unlock()
	if r, ok := apis.m[path]; ok {
		return r.a, r.err
	}
	a, err := bind(path)
	if apis.m == nil {
		apis.m = map[string]apiOrErr{}
	}
	apis.m[path] = apiOrErr{a, err}
	return a, err
}

func bind(path string) (*api, error) {
	lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("hip: no runtime library (%v; set XPU_HIP_LIB to its path): %w", err, driver.ErrUnavailable)
	}
	a := &api{path: path}
	sym := func(fptr any, name string) {
		if err != nil {
			return
		}
		var addr uintptr
		if addr, err = purego.Dlsym(lib, name); err != nil {
			err = fmt.Errorf("hip: %s lacks %s (not a HIP runtime of ROCm 6 or later?): %w", path, name, driver.ErrUnavailable)
			return
		}
		purego.RegisterFunc(fptr, addr)
	}
	sym(&a.errorName, "hipGetErrorName")
	sym(&a.errorString, "hipGetErrorString")
	sym(&a.init, "hipInit")
	sym(&a.runtimeVersion, "hipRuntimeGetVersion")
	sym(&a.deviceGetCount, "hipGetDeviceCount")
	sym(&a.deviceGet, "hipDeviceGet")
	sym(&a.deviceGetName, "hipDeviceGetName")
	sym(&a.deviceAttribute, "hipDeviceGetAttribute")
	sym(&a.deviceTotalMem, "hipDeviceTotalMem")
	sym(&a.deviceProps, "hipGetDevicePropertiesR0600")
	sym(&a.setDevice, "hipSetDevice")
	sym(&a.malloc, "hipMalloc")
	sym(&a.free, "hipFree")
	sym(&a.memcpyHtoD, "hipMemcpyHtoD")
	sym(&a.memcpyHtoDAsy, "hipMemcpyHtoDAsync")
	sym(&a.memcpyDtoH, "hipMemcpyDtoH")
	sym(&a.memsetD8, "hipMemsetD8")
	sym(&a.memsetD8Async, "hipMemsetD8Async")
	sym(&a.moduleLoadData, "hipModuleLoadData")
	sym(&a.moduleUnload, "hipModuleUnload")
	sym(&a.moduleGetFunc, "hipModuleGetFunction")
	sym(&a.funcAttribute, "hipFuncGetAttribute")
	sym(&a.launchKernel, "hipModuleLaunchKernel")
	sym(&a.streamCreate, "hipStreamCreateWithFlags")
	sym(&a.streamDestroy, "hipStreamDestroy")
	sym(&a.streamQuery, "hipStreamQuery")
	sym(&a.streamSync, "hipStreamSynchronize")
	sym(&a.eventCreate, "hipEventCreateWithFlags")
	sym(&a.eventDestroy, "hipEventDestroy")
	sym(&a.eventRecord, "hipEventRecord")
	sym(&a.eventElapsed, "hipEventElapsedTime")
	if err != nil {
		return nil, err
	}
	return a, nil
}

// The hipError_t values the driver tells apart.
const (
	hipSuccess       = 0
	hipErrNotReady   = 600
	hipErrNoBinary   = 209 // hipErrorNoBinaryForGpu
	hipErrorNotFound = 500
)

// sticky reports whether rc is an error after which the device cannot
// run work again (a kernel's illegal access, a launch failure, an
// assertion): HIP reports it from every later call, so the device is
// lost.
func sticky(rc uint32) bool {
	switch rc {
	case 700, 702, 710, 719:
		return true
	}
	return false
}

// errorText is HIP's name and description of rc:
// "hipErrorOutOfMemory (out of memory)".
func (a *api) errorText(rc uint32) string {
	text := fmt.Sprintf("hipError_t %d", rc)
	if name := a.errorName(rc); name != nil {
		text = native.CString(name)
	}
	if desc := a.errorString(rc); desc != nil {
		text += " (" + native.CString(desc) + ")"
	}
	return text
}

// check returns nil for success, else an error naming the call and HIP's
// words for rc, wrapping driver.ErrLost where rc is sticky.
func (a *api) check(call string, rc uint32) error {
	if rc == hipSuccess {
		return nil
	}
	err := errors.New("hip: " + call + ": " + a.errorText(rc))
	if sticky(rc) {
		return fmt.Errorf("%w: %w", err, driver.ErrLost)
	}
	return err
}
