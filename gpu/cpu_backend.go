package gpu

import (
	"github.com/goxpu/xpu/gpu/cpu"
	"github.com/goxpu/xpu/schema"
)

// The CPU backend: every machine has one, so it is the last Open tries and
// the one it falls back to when no GPU adapter exists.
func init() { registerBackend(schema.BackendCPU, cpu.Open) }
