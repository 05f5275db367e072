//go:build js

package gpu

import "github.com/goxpu/xpu/gpu/webgpu/jsgpu"

// The WebGPU backend in the browser: navigator.gpu through syscall/js.
func init() { registerBackend("webgpu", jsgpu.Open) }
