package cpu

import (
	"runtime"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/driver/drivertest"
	"github.com/goxpu/xpu/schema"
)

// TestDriver runs the driver-contract suite on the CPU backend. Every
// case runs but two, which do not apply: AsyncErrors (the CPU reports a
// launch's error from Launch itself; there is no later channel) and Timer
// (the CPU has no device clock; the runtime times it by the host's). The
// CPU has no bindings to cache and no uniform ring, reads at any offset,
// and runs a launch as it records it, so RunawayKernel checks that the
// launch's context stops the run and the device goes on working, except
// under js/wasm: one thread runs the kernel, so nothing can set its stop
// flag while it runs, and the processor has no name to read, as arm64
// processors have no brand string.
func TestDriver(t *testing.T) {
	var cannotStop string
	if runtime.GOOS == "js" {
		cannotStop = "js/wasm runs one thread: the timer that sets a launch's stop flag cannot run while the kernel does"
	}
	drivertest.Run(t, drivertest.Config{
		Open:     Open,
		Required: true,
		Backend:  schema.BackendCPU,
		Code: drivertest.Code{
			Add:  func(k *driver.Kernel) { k.Artifacts = goCode(addCPU) },
			Spin: func(k *driver.Kernel) { k.Artifacts = goCode(spinCPU) },
		},
		Refusals:     refusals,
		CheckInfo:    checkInfo,
		NoName:       runtime.GOOS == "js" || runtime.GOARCH == "arm64",
		RunsOnRecord: true,
		CannotStop:   cannotStop,
		LeakCycles:   400,
		LongWork:     2 * time.Second,
	})
}

// addCPU is the suite's Add kernel as the Go lowering would write it.
func addCPU(b *driver.CPUBlock) {
	out, in := driver.CPUView[uint32](b.Buffers[0]), driver.CPUView[uint32](b.Buffers[1])
	k := driver.CPUUniform[uint32](b.Uniforms, 0)
	for x := range uint32(64) {
		if i := b.Group.X*64 + x; int(i) < len(in) {
			out[i] = in[i] + k
		}
	}
}

// spinCPU is the suite's Spin kernel, reading its launch's stop flag at
// the top of the outer loop as the Go lowering does.
func spinCPU(b *driver.CPUBlock) {
	out := driver.CPUView[uint32](b.Buffers[0])
	rounds, inner := driver.CPUUniform[uint32](b.Uniforms, 0), driver.CPUUniform[uint32](b.Uniforms, 4)
	stop := b.Stopping()
	x, i := uint32(12345), uint32(0)
	for ; i < rounds; i++ {
		if stop.Load() {
			panic(driver.ErrStopped)
		}
		for range inner {
			x = x*1664525 + 1013904223
		}
	}
	out[0], out[1] = x, i
}

// refusals are the kernels the CPU's Compile refuses: one without a Go
// lowering, one refused by its generator, and one whose block is beyond
// the device's.
func refusals(add *driver.Kernel) []drivertest.Refusal {
	none, refused, wide := *add, *add, *add
	none.Name, none.Artifacts = "drivertest.nolowering", nil
	refused.Name, refused.Refused = "drivertest.refused", "requires N%2 == 0"
	wide.Name, wide.Block.X = "drivertest.wide", 2*maxBlock
	return []drivertest.Refusal{
		{Why: "no Go lowering", Kernel: &none, Says: []string{none.Name, "no CPU lowering"}},
		{Why: "a refused kernel", Kernel: &refused, Says: []string{refused.Name, refused.Refused}},
		{Why: "a block beyond the device's", Kernel: &wide, Says: []string{wide.Name, "block of 2048"}},
	}
}

// checkInfo checks what the CPU reports beyond every backend: a worker
// pool, and a wave width (its subgroup size) of the processor's lanes.
func checkInfo(t *testing.T, d driver.Device) {
	info, lanes := d.Info(), Detect().Lanes()
	if info.Workers <= 0 {
		t.Errorf("info %+v: no workers", info)
	}
	if l := info.Limits; l.SubgroupMin != lanes || l.SubgroupMax != lanes {
		t.Errorf("subgroup sizes %d..%d, want the processor's %d lanes", l.SubgroupMin, l.SubgroupMax, lanes)
	}
}

// goCode is the artifact list of a kernel whose code is the block
// function f.
func goCode(f driver.CPUFunc) []schema.Artifact {
	return []schema.Artifact{{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: f}}
}
