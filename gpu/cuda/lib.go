//go:build linux && (amd64 || arm64)

package cuda

// This file binds the functions of the CUDA driver API that the driver
// calls, through purego, once per library path per process.

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/internal/native"
)

// defaultLibrary is the driver library the system's loader finds.
const defaultLibrary = "libcuda.so.1"

// api is one opened driver library's functions: those of the shared
// driver (native.Library), and the CUDA driver's own. Handles
// (CUcontext, CUmodule, CUfunction, CUstream, CUevent) and device
// pointers are uintptr; a CUresult is a uint32.
type api struct {
	native.Library

	getErrorName   func(rc uint32, str unsafe.Pointer) uint32
	getErrorString func(rc uint32, str unsafe.Pointer) uint32
	driverVersion  func(v unsafe.Pointer) uint32

	primaryRetain  func(ctx unsafe.Pointer, dev int32) uint32
	primaryRelease func(dev int32) uint32
	ctxSetCurrent  func(ctx uintptr) uint32

	moduleLoadDataEx func(mod unsafe.Pointer, image unsafe.Pointer, n uint32, opts unsafe.Pointer, vals unsafe.Pointer) uint32
}

// apis are the libraries opened so far.
var apis native.Libraries[*api]

// load returns the functions of the library at path, opening it the
// first time. Its error wraps driver.ErrUnavailable: no library, or one
// without the driver API, is a machine without the backend.
func load(path string) (*api, error) { return apis.Load(path, bind) }

func bind(path string) (*api, error) {
	lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("cuda: no driver library (%v; set XPU_CUDA_LIB to its path): %w", err, driver.ErrUnavailable)
	}
	a := &api{}
	a.Prefix, a.Check, a.NotReady = "cuda", a.check, cuErrNotReady
	a.Module, a.Groups, a.Registers = "module", "blocks", "registers a thread"
	s := &native.Symbols{
		Find:     func(name string) (uintptr, error) { return purego.Dlsym(lib, name) },
		Register: purego.RegisterFunc,
		Missing: func(name string) error {
			return fmt.Errorf("cuda: %s lacks %s (not a CUDA driver library?): %w", path, name, driver.ErrUnavailable)
		},
	}
	s.Bind(&a.getErrorName, "cuGetErrorName")
	s.Bind(&a.getErrorString, "cuGetErrorString")
	s.Bind(&a.driverVersion, "cuDriverGetVersion")
	s.Bind(&a.primaryRetain, "cuDevicePrimaryCtxRetain")
	s.Bind(&a.primaryRelease, "cuDevicePrimaryCtxRelease_v2")
	s.Bind(&a.ctxSetCurrent, "cuCtxSetCurrent")
	s.Bind(&a.moduleLoadDataEx, "cuModuleLoadDataEx")
	l := &a.Library
	native.BindFn(s, &l.Init, "cuInit")
	native.BindFn(s, &l.DeviceGetCount, "cuDeviceGetCount")
	native.BindFn(s, &l.DeviceGet, "cuDeviceGet")
	native.BindFn(s, &l.DeviceGetName, "cuDeviceGetName")
	native.BindFn(s, &l.DeviceAttribute, "cuDeviceGetAttribute")
	native.BindFn(s, &l.DeviceTotalMem, "cuDeviceTotalMem_v2")
	native.BindFn(s, &l.MemAlloc, "cuMemAlloc_v2")
	native.BindFn(s, &l.MemFree, "cuMemFree_v2")
	native.BindFn(s, &l.MemcpyHtoD, "cuMemcpyHtoD_v2")
	native.BindFn(s, &l.MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2")
	native.BindFn(s, &l.MemcpyDtoH, "cuMemcpyDtoH_v2")
	native.BindFn(s, &l.MemsetD8, "cuMemsetD8_v2")
	native.BindFn(s, &l.MemsetD8Async, "cuMemsetD8Async")
	native.BindFn(s, &l.ModuleUnload, "cuModuleUnload")
	native.BindFn(s, &l.ModuleGetFunction, "cuModuleGetFunction")
	native.BindFn(s, &l.FuncGetAttribute, "cuFuncGetAttribute")
	native.BindFn(s, &l.LaunchKernel, "cuLaunchKernel")
	native.BindFn(s, &l.StreamCreate, "cuStreamCreate")
	native.BindFn(s, &l.StreamDestroy, "cuStreamDestroy_v2")
	native.BindFn(s, &l.StreamQuery, "cuStreamQuery")
	native.BindFn(s, &l.StreamSynchronize, "cuStreamSynchronize")
	native.BindFn(s, &l.EventCreate, "cuEventCreate")
	native.BindFn(s, &l.EventDestroy, "cuEventDestroy_v2")
	native.BindFn(s, &l.EventRecord, "cuEventRecord")
	native.BindFn(s, &l.EventElapsedTime, "cuEventElapsedTime")
	native.BindFn(s, &l.StreamBeginCapture, "cuStreamBeginCapture_v2")
	native.BindFn(s, &l.StreamEndCapture, "cuStreamEndCapture")
	native.BindFn(s, &l.GraphInstantiate, "cuGraphInstantiateWithFlags")
	native.BindFn(s, &l.GraphLaunch, "cuGraphLaunch")
	native.BindFn(s, &l.GraphExecDestroy, "cuGraphExecDestroy")
	native.BindFn(s, &l.GraphDestroy, "cuGraphDestroy")
	if s.Err != nil {
		return nil, s.Err
	}
	return a, nil
}

// The CUresults the driver tells apart.
const (
	cuSuccess     = 0
	cuErrNotReady = 600
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
