//go:build cgo

package webgpu

// This file keeps wgpu-native and what it loads off standard error unless
// XPU_DEBUG asks for them (driver.DebugEnv).

import (
	"sync"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu/gpu/driver"
)

// logLevel returns wgpu-native's log level for the debug setting: off
// unset, else the level it names, warn (wgpu-native's own default) for
// any other value.
func logLevel(debug string) wgpu.LogLevel {
	switch debug {
	case "":
		return wgpu.LogLevelOff
	case "info":
		return wgpu.LogLevelInfo
	case "debug":
		return wgpu.LogLevelDebug
	case "trace":
		return wgpu.LogLevelTrace
	}
	return wgpu.LogLevelWarn
}

// probing serializes the quiet spans of concurrent opens: the Wayland
// client's log handler is one per process.
var probing sync.Mutex

// quiet sets wgpu-native's log level from XPU_DEBUG (its log callback,
// which the binding installs, prints to standard error) and, unless
// XPU_DEBUG is set, silences the Wayland client library until the
// returned function is called. wgpu-native's GL backend loads that
// library to look for a display while the instance is made and its
// adapters are enumerated, and without one the library prints
// "error: XDG_RUNTIME_DIR is invalid or not set in the environment".
func quiet() (done func()) {
	debug := driver.Debug()
	wgpu.SetLogLevel(logLevel(debug))
	if debug != "" {
		return func() {}
	}
	probing.Lock()
	waylandQuiet(true)
	return func() {
		waylandQuiet(false)
		probing.Unlock()
	}
}
