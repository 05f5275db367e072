//go:build cgo && !linux

package webgpu

// waylandQuiet does nothing: wgpu-native looks for a Wayland display on
// Linux only.
func waylandQuiet(bool) {}
