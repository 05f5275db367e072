package gpu

import (
	"fmt"

	"github.com/goxpu/xpu/gpu/cpu"
	"github.com/goxpu/xpu/schema"
)

// The CPU backend: every machine has one, so it is the last Open tries and
// the one it falls back to when no GPU adapter exists.
func init() { registerBackend(schema.BackendCPU, cpu.Open) }

// OpenCPU opens the CPU backend configured by cfg, as OpenBackend("cpu")
// opens it configured by the environment: to choose its tier (the host
// tier's native code or the Go lowering), its workers or its cache folder
// in the program.
func OpenCPU(cfg cpu.Config) (*Device, error) {
	drv, err := cpu.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("gpu: backend %s: %w", schema.BackendCPU, err)
	}
	return newDevice(schema.BackendCPU, drv)
}
