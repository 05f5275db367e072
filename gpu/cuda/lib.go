//go:build linux && (amd64 || arm64)

package cuda

// This file binds the functions of the CUDA driver API that the driver
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

// defaultLibrary is the driver library the system's loader finds.
const defaultLibrary = "libcuda.so.1"

// api is one opened driver library's functions. Handles (CUcontext,
// CUmodule, CUfunction, CUstream, CUevent) and device pointers are
// uintptr; a CUresult is a uint32.
type api struct {
	path string

	getErrorName   func(rc uint32, str unsafe.Pointer) uint32
	getErrorString func(rc uint32, str unsafe.Pointer) uint32
	init           func(flags uint32) uint32
	driverVersion  func(v unsafe.Pointer) uint32

	deviceGet       func(dev unsafe.Pointer, ordinal int32) uint32
	deviceGetCount  func(n unsafe.Pointer) uint32
	deviceGetName   func(name unsafe.Pointer, n int32, dev int32) uint32
	deviceAttribute func(v unsafe.Pointer, attr int32, dev int32) uint32
	deviceTotalMem  func(bytes unsafe.Pointer, dev int32) uint32
	primaryRetain   func(ctx unsafe.Pointer, dev int32) uint32
	primaryRelease  func(dev int32) uint32
	ctxSetCurrent   func(ctx uintptr) uint32

	memAlloc      func(ptr unsafe.Pointer, bytes uintptr) uint32
	memFree       func(ptr uintptr) uint32
	memcpyHtoD    func(dst uintptr, src unsafe.Pointer, n uintptr) uint32
	memcpyHtoDAsy func(dst uintptr, src unsafe.Pointer, n uintptr, stream uintptr) uint32
	memcpyDtoH    func(dst unsafe.Pointer, src uintptr, n uintptr) uint32
	memsetD8      func(dst uintptr, v uint8, n uintptr) uint32
	memsetD8Async func(dst uintptr, v uint8, n uintptr, stream uintptr) uint32

	moduleLoadDataEx func(mod unsafe.Pointer, image unsafe.Pointer, n uint32, opts unsafe.Pointer, vals unsafe.Pointer) uint32
	moduleUnload     func(mod uintptr) uint32
	moduleGetFunc    func(fn unsafe.Pointer, mod uintptr, name string) uint32
	funcAttribute    func(v unsafe.Pointer, attr int32, fn uintptr) uint32
	launchKernel     func(fn uintptr, gx, gy, gz, bx, by, bz, shared uint32, stream uintptr, params unsafe.Pointer, extra unsafe.Pointer) uint32

	streamCreate  func(stream unsafe.Pointer, flags uint32) uint32
	streamDestroy func(stream uintptr) uint32
	streamQuery   func(stream uintptr) uint32
	streamSync    func(stream uintptr) uint32

	eventCreate  func(ev unsafe.Pointer, flags uint32) uint32
	eventDestroy func(ev uintptr) uint32
	eventRecord  func(ev uintptr, stream uintptr) uint32
	eventSync    func(ev uintptr) uint32
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
// without the driver API, is a machine without the backend.
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
		return nil, fmt.Errorf("cuda: no driver library (%v; set XPU_CUDA_LIB to its path): %w", err, driver.ErrUnavailable)
	}
	a := &api{path: path}
	sym := func(fptr any, name string) {
		if err != nil {
			return
		}
		var addr uintptr
		if addr, err = purego.Dlsym(lib, name); err != nil {
			err = fmt.Errorf("cuda: %s lacks %s (not a CUDA driver library?): %w", path, name, driver.ErrUnavailable)
			return
		}
		purego.RegisterFunc(fptr, addr)
	}
	sym(&a.getErrorName, "cuGetErrorName")
	sym(&a.getErrorString, "cuGetErrorString")
	sym(&a.init, "cuInit")
	sym(&a.driverVersion, "cuDriverGetVersion")
	sym(&a.deviceGet, "cuDeviceGet")
	sym(&a.deviceGetCount, "cuDeviceGetCount")
	sym(&a.deviceGetName, "cuDeviceGetName")
	sym(&a.deviceAttribute, "cuDeviceGetAttribute")
	sym(&a.deviceTotalMem, "cuDeviceTotalMem_v2")
	sym(&a.primaryRetain, "cuDevicePrimaryCtxRetain")
	sym(&a.primaryRelease, "cuDevicePrimaryCtxRelease_v2")
	sym(&a.ctxSetCurrent, "cuCtxSetCurrent")
	sym(&a.memAlloc, "cuMemAlloc_v2")
	sym(&a.memFree, "cuMemFree_v2")
	sym(&a.memcpyHtoD, "cuMemcpyHtoD_v2")
	sym(&a.memcpyHtoDAsy, "cuMemcpyHtoDAsync_v2")
	sym(&a.memcpyDtoH, "cuMemcpyDtoH_v2")
	sym(&a.memsetD8, "cuMemsetD8_v2")
	sym(&a.memsetD8Async, "cuMemsetD8Async")
	sym(&a.moduleLoadDataEx, "cuModuleLoadDataEx")
	sym(&a.moduleUnload, "cuModuleUnload")
	sym(&a.moduleGetFunc, "cuModuleGetFunction")
	sym(&a.funcAttribute, "cuFuncGetAttribute")
	sym(&a.launchKernel, "cuLaunchKernel")
	sym(&a.streamCreate, "cuStreamCreate")
	sym(&a.streamDestroy, "cuStreamDestroy_v2")
	sym(&a.streamQuery, "cuStreamQuery")
	sym(&a.streamSync, "cuStreamSynchronize")
	sym(&a.eventCreate, "cuEventCreate")
	sym(&a.eventDestroy, "cuEventDestroy_v2")
	sym(&a.eventRecord, "cuEventRecord")
	sym(&a.eventSync, "cuEventSynchronize")
	sym(&a.eventElapsed, "cuEventElapsedTime")
	if err != nil {
		return nil, err
	}
	return a, nil
}

// The CUresults the driver tells apart.
const (
	cuSuccess       = 0
	cuErrNoDevice   = 100
	cuErrInvalidPTX = 218
	cuErrNotReady   = 600
)

// sticky reports whether rc is an error after which the context cannot
// run work again (a kernel's illegal access, a launch failure): CUDA
// reports it from every later call, so the device is lost.
func sticky(rc uint32) bool {
	switch rc {
	case 700, 702, 714, 715, 716, 717, 718, 719, 720:
		return true
	}
	return false
}

// errorText is CUDA's name and description of rc:
// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
func (a *api) errorText(rc uint32) string {
	var name, desc *byte
	text := fmt.Sprintf("CUresult %d", rc)
	if a.getErrorName(rc, unsafe.Pointer(&name)) == cuSuccess && name != nil {
		text = native.CString(name)
	}
	if a.getErrorString(rc, unsafe.Pointer(&desc)) == cuSuccess && desc != nil {
		text += " (" + native.CString(desc) + ")"
	}
	return text
}

// check returns nil for success, else an error naming the call and
// CUDA's words for rc, wrapping driver.ErrLost where rc is sticky.
func (a *api) check(call string, rc uint32) error {
	if rc == cuSuccess {
		return nil
	}
	err := errors.New("cuda: " + call + ": " + a.errorText(rc))
	if sticky(rc) {
		return fmt.Errorf("%w: %w", err, driver.ErrLost)
	}
	return err
}

// zstring returns the bytes of s followed by a NUL, as C reads a string.
func zstring(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}
