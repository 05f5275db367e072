package driver

// This file holds the setting that lets the device libraries speak.

import "os"

// DebugEnv names the environment variable that lets the device libraries'
// own log messages through to standard error: wgpu-native's log, the
// Wayland client library's messages while wgpu-native probes for a
// display, Dawn's device log. Unset (or "0"), the drivers silence them
// where they arise; the failures that matter reach the program as errors
// either way. "info", "debug" and "trace" also raise wgpu-native's log
// level, which is "warn" for any other value.
const DebugEnv = "XPU_DEBUG"

// Debug returns the value of XPU_DEBUG, "" when it is unset or "0": the
// drivers read it when they open a device.
func Debug() string {
	if v := os.Getenv(DebugEnv); v != "0" {
		return v
	}
	return ""
}
