package gpu

import "github.com/goxpu/xpu/cpu"

// The CPU backend: every machine has one, so it is the last Open tries and
// the one it falls back to when no GPU adapter exists.
func init() { registerBackend("cpu", cpu.Open) }
