package gpu

import "github.com/goxpu/xpu/gpu/webgpu"

// The WebGPU backend, when its driver is built (it needs cgo today).
func init() {
	if open := webgpu.Opener(); open != nil {
		registerBackend("webgpu", open)
	}
}
