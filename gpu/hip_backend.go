//go:build linux && (amd64 || arm64)

package gpu

import (
	"github.com/goxpu/xpu/gpu/hip"
	"github.com/goxpu/xpu/schema"
)

// The HIP backend, on linux (amd64, arm64), where its driver opens
// libamdhip64.so through purego: second in Open's order, after cuda, and
// unavailable, quickly, on a machine without the library or a device.
func init() { registerBackend(schema.BackendHIP, hip.Open) }
