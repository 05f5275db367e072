//go:build linux && (amd64 || arm64)

package hip

// This file binds the functions of the HIP runtime that the driver
// calls, through purego, once per library path per process.

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/internal/native"
)

// defaultLibrary is the runtime library the system's loader finds.
const defaultLibrary = "libamdhip64.so"

// api is one opened runtime library's functions: those of the shared
// driver (native.Library), and HIP's own. Handles (hipModule_t,
// hipFunction_t, hipStream_t, hipEvent_t) and device pointers are
// uintptr; a hipError_t is a uint32; a device is its ordinal.
type api struct {
	native.Library

	errorName      func(rc uint32) *byte
	errorString    func(rc uint32) *byte
	runtimeVersion func(v unsafe.Pointer) uint32

	deviceProps func(props unsafe.Pointer, dev int32) uint32
	setDevice   func(dev int32) uint32

	moduleLoadData func(mod unsafe.Pointer, image unsafe.Pointer) uint32
}

// apis are the libraries opened so far.
var apis native.Libraries[*api]

// load returns the functions of the library at path, opening it the
// first time. Its error wraps driver.ErrUnavailable: no library, or one
// without the runtime's functions, is a machine without the backend.
func load(path string) (*api, error) { return apis.Load(path, bind) }

func bind(path string) (*api, error) {
	lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, fmt.Errorf("hip: no runtime library (%v; set XPU_HIP_LIB to its path): %w", err, driver.ErrUnavailable)
	}
	a := &api{}
	a.Prefix, a.Check, a.NotReady = "hip", a.check, hipErrNotReady
	a.Module, a.Groups, a.Registers = "code object", "workgroups", "VGPRs a work-item"
	s := &native.Symbols{
		Find:     func(name string) (uintptr, error) { return purego.Dlsym(lib, name) },
		Register: purego.RegisterFunc,
		Missing: func(name string) error {
			return fmt.Errorf("hip: %s lacks %s (not a HIP runtime of ROCm 6 or later?): %w", path, name, driver.ErrUnavailable)
		},
	}
	s.Bind(&a.errorName, "hipGetErrorName")
	s.Bind(&a.errorString, "hipGetErrorString")
	s.Bind(&a.runtimeVersion, "hipRuntimeGetVersion")
	s.Bind(&a.deviceProps, "hipGetDevicePropertiesR0600")
	s.Bind(&a.setDevice, "hipSetDevice")
	s.Bind(&a.moduleLoadData, "hipModuleLoadData")
	l := &a.Library
	native.BindFn(s, &l.Init, "hipInit")
	native.BindFn(s, &l.DeviceGetCount, "hipGetDeviceCount")
	native.BindFn(s, &l.DeviceGet, "hipDeviceGet")
	native.BindFn(s, &l.DeviceGetName, "hipDeviceGetName")
	native.BindFn(s, &l.DeviceAttribute, "hipDeviceGetAttribute")
	native.BindFn(s, &l.DeviceTotalMem, "hipDeviceTotalMem")
	native.BindFn(s, &l.MemAlloc, "hipMalloc")
	native.BindFn(s, &l.MemFree, "hipFree")
	native.BindFn(s, &l.MemcpyHtoD, "hipMemcpyHtoD")
	native.BindFn(s, &l.MemcpyHtoDAsync, "hipMemcpyHtoDAsync")
	native.BindFn(s, &l.MemcpyDtoH, "hipMemcpyDtoH")
	native.BindFn(s, &l.MemsetD8, "hipMemsetD8")
	native.BindFn(s, &l.MemsetD8Async, "hipMemsetD8Async")
	native.BindFn(s, &l.ModuleUnload, "hipModuleUnload")
	native.BindFn(s, &l.ModuleGetFunction, "hipModuleGetFunction")
	native.BindFn(s, &l.FuncGetAttribute, "hipFuncGetAttribute")
	native.BindFn(s, &l.LaunchKernel, "hipModuleLaunchKernel")
	native.BindFn(s, &l.StreamCreate, "hipStreamCreateWithFlags")
	native.BindFn(s, &l.StreamDestroy, "hipStreamDestroy")
	native.BindFn(s, &l.StreamQuery, "hipStreamQuery")
	native.BindFn(s, &l.StreamSynchronize, "hipStreamSynchronize")
	native.BindFn(s, &l.EventCreate, "hipEventCreateWithFlags")
	native.BindFn(s, &l.EventDestroy, "hipEventDestroy")
	native.BindFn(s, &l.EventRecord, "hipEventRecord")
	native.BindFn(s, &l.EventElapsedTime, "hipEventElapsedTime")
	native.BindFn(s, &l.StreamBeginCapture, "hipStreamBeginCapture")
	native.BindFn(s, &l.StreamEndCapture, "hipStreamEndCapture")
	native.BindFn(s, &l.GraphInstantiate, "hipGraphInstantiateWithFlags")
	native.BindFn(s, &l.GraphLaunch, "hipGraphLaunch")
	native.BindFn(s, &l.GraphExecDestroy, "hipGraphExecDestroy")
	native.BindFn(s, &l.GraphDestroy, "hipGraphDestroy")
	if s.Err != nil {
		return nil, s.Err
	}
	return a, nil
}

// The hipError_t values the driver tells apart.
const (
	hipSuccess     = 0
	hipErrNotReady = 600
	hipErrNoBinary = 209 // hipErrorNoBinaryForGpu
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
