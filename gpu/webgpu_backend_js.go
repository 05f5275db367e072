//go:build js

package gpu

import (
	"github.com/goxpu/xpu/gpu/webgpu/jsgpu"

	"github.com/goxpu/xpu/schema"
)

// The WebGPU backend in the browser: navigator.gpu through syscall/js.
func init() { registerBackend(schema.BackendWebGPU, jsgpu.Open) }
