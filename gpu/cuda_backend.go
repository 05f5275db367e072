//go:build linux && (amd64 || arm64)

package gpu

import (
	"github.com/goxpu/xpu/gpu/cuda"
	"github.com/goxpu/xpu/schema"
)

// The CUDA backend, on linux (amd64, arm64), where its driver opens
// libcuda.so.1 through purego: first in Open's order, and unavailable,
// quickly, on a machine without the library or a device.
func init() { registerBackend(schema.BackendCUDA, cuda.Open) }
