//go:build (linux || darwin) && (amd64 || arm64)

package dawn

// This file holds the device log: Dawn reports what it thinks of a
// device's use (a deprecated call, a slow path) through a logging
// callback, wgpuDeviceSetLoggingCallback, an extension of Dawn's to
// webgpu.h. Every device gets one that prints to standard error only when
// XPU_DEBUG is set (driver.DebugEnv), so that Dawn's messages are off by
// default and at hand when asked for.

import (
	"fmt"
	"os"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/goxpu/xpu/gpu/driver"
)

// log holds the extension's function, nil in a library without it, and
// the callback, made once at load.
var log struct {
	set      func(dev uintptr, info loggingCallbackInfo)
	callback uintptr
}

// logTypes names WGPULoggingType's values.
var logTypes = map[uint32]string{1: "Verbose", 2: "Info", 3: "Warning", 4: "Error"}

// bindLog binds the extension where the library has it.
func bindLog(lib uintptr) {
	addr, err := purego.Dlsym(lib, "wgpuDeviceSetLoggingCallback")
	if err != nil {
		return
	}
	purego.RegisterFunc(&log.set, addr)
	log.callback = purego.NewCallback(func(typ uint32, msg unsafe.Pointer, msgLen uintptr, ud1, ud2 uintptr) {
		if ud1 != 0 {
			fmt.Fprintf(os.Stderr, "[dawn] [%s] %s\n", logTypes[typ], message(msg, msgLen))
		}
	})
}

// setLog installs the device's logging callback, which prints when
// XPU_DEBUG is set as the device opens and drops the messages otherwise.
func setLog(dev uintptr) {
	if log.set == nil {
		return
	}
	var print uintptr
	if driver.Debug() != "" {
		print = 1
	}
	log.set(dev, loggingCallbackInfo{callback: log.callback, userdata1: print}) // userdata1 1: print
}
