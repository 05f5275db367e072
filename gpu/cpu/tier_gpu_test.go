//go:build linux && amd64

package cpu_test

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/cpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/gpuimpl"
	"github.com/goxpu/xpu/schema"
)

// registered numbers the kernels these tests register, whose names must
// differ from run to run of a test binary (-count).
var registered atomic.Int64

// register registers a saxpy-shaped kernel with arts, under a new name.
func register(arts ...schema.Artifact) (*gpu.Kernel, string) {
	name := fmt.Sprintf("github.com/goxpu/xpu/gpu/cpu_test.tiered%d", registered.Add(1))
	f32, u32 := schema.TypeName{Name: "float32"}, schema.TypeName{Name: "uint32"}
	return gpuimpl.Register(&gpuimpl.KernelSpec{
		Name:  name,
		Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
		Params: []schema.Param{
			{Name: "y", Kind: schema.ParamBuffer, Type: f32, Size: 4, Access: schema.AccessReadWrite, Binding: 0},
			{Name: "x", Kind: schema.ParamBuffer, Type: f32, Size: 4, Access: schema.AccessRead, Binding: 1},
			{Name: "a", Kind: schema.ParamScalar, Type: f32, Size: 4, Binding: 0},
			{Name: "n", Kind: schema.ParamScalar, Type: u32, Size: 4, Binding: 4},
		},
		UniformSize: 16,
		Artifacts:   arts,
	}), name
}

// TestRuntimeReportsTier checks what the runtime reports of a kernel with
// Go and host code on the CPU device under each XPU_CPU_TIER: the
// manifest of the tier it runs, and, at the host tier only, why a kernel
// with Go code only cannot run.
func TestRuntimeReportsTier(t *testing.T) {
	code := cpu.HostCodeForTest(t)
	if cpu.Detect().X64Level < 3 {
		t.Skip("the processor is below x86-64-v3, the level of the test object's artifact")
	}
	goArt := schema.Artifact{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo},
		Entry: func(*driver.CPUBlock) {}}
	hostArt := schema.Artifact{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetLLVMHost},
		Selector: schema.Selector{ISA: "x86-64-v3"}, Code: code, Symbol: schema.HostSymbol("saxpy")}
	both, _ := register(hostArt, goArt)
	goOnly, goName := register(goArt)
	t.Setenv("XPU_BACKEND", "cpu")
	t.Setenv("XPU_CPU_CACHE", t.TempDir())
	for tier, want := range map[string]schema.Target{"": schema.TargetLLVMHost, "go": schema.TargetGo, "llvm-host": schema.TargetLLVMHost} {
		t.Setenv("XPU_CPU_TIER", tier)
		d, err := gpu.Open()
		if err != nil {
			t.Fatal(err)
		}
		if m, ok := d.Manifest(both); !ok || m.Target != want {
			t.Errorf("XPU_CPU_TIER=%q: manifest %+v, want target %s", tier, m, want)
		}
		if ok, err := d.KernelAvailable(both); !ok {
			t.Errorf("XPU_CPU_TIER=%q: %v", tier, err)
		}
		ok, err := d.KernelAvailable(goOnly)
		if tier != "llvm-host" {
			if !ok {
				t.Errorf("XPU_CPU_TIER=%q: a Go-only kernel: %v", tier, err)
			}
		} else if ok || !errors.Is(err, gpu.ErrNoCode) || !strings.Contains(err.Error(), goName) || !strings.Contains(err.Error(), "llvm-host tier only") {
			t.Errorf("XPU_CPU_TIER=llvm-host: a Go-only kernel: %v, %v; want ErrNoCode naming it and the tier", ok, err)
		}
		d.Close()
	}
}
