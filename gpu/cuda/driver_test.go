//go:build linux && (amd64 || arm64)

package cuda

import (
	_ "embed"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/driver/drivertest"
	"github.com/goxpu/xpu/schema"
)

// suitePTX holds the suite's kernels and a faulting division in PTX.
//
//go:embed testdata/suite.ptx
var suitePTX string

// ptxCode is the artifact list of a kernel whose entry sym is in the PTX
// module code, built for isa.
func ptxCode(code, sym, isa string) []schema.Artifact {
	return []schema.Artifact{{
		Manifest: schema.Manifest{Backend: schema.BackendCUDA, Target: schema.TargetPTX},
		Selector: schema.Selector{ISA: isa},
		Code:     code,
		Symbol:   sym,
	}}
}

// suiteConfig is the driver-contract suite's configuration of a device
// that open opens. The driver defers launches (RunsOnRecord false), so
// RunawayKernel checks that a wait that outlives its context loses the
// device. Left out: AsyncErrors, since CUDA refuses a grid beyond the
// device's in cuLaunchKernel itself, which Launch returns; there is no
// later channel.
func suiteConfig(open func() (driver.Device, error), required bool) drivertest.Config {
	return drivertest.Config{
		Open:     open,
		Required: required,
		Backend:  schema.BackendCUDA,
		Code: drivertest.Code{
			Add:  func(k *driver.Kernel) { k.Artifacts = ptxCode(suitePTX, "add", "sm_70") },
			Spin: func(k *driver.Kernel) { k.Artifacts = ptxCode(suitePTX, "spin", "sm_70") },
		},
		Refusals: refusals,
		CheckInfo: func(t *testing.T, d driver.Device) {
			info := d.Info()
			if info.Native != schema.TargetPTX || info.ISA == "" || info.Limits.SubgroupMin != info.Limits.SubgroupMax {
				t.Errorf("info: native %q ISA %q subgroups %d..%d", info.Native, info.ISA, info.Limits.SubgroupMin, info.Limits.SubgroupMax)
			}
		},
		LeakCycles: 400,
		LongWork:   2 * time.Second,
	}
}

// refusals are the kernels the CUDA driver's Compile refuses.
func refusals(add *driver.Kernel) []drivertest.Refusal {
	none, refused, wide, above, bad, missing := *add, *add, *add, *add, *add, *add
	none.Name, none.Artifacts = "drivertest.noptx", nil
	refused.Name, refused.Refused = "drivertest.refused", "requires N%2 == 0"
	wide.Name, wide.Block.X = "drivertest.wide", 1<<16
	above.Name, above.Artifacts = "drivertest.above", ptxCode(suitePTX, "add", "sm_99")
	bad.Name, bad.Artifacts = "drivertest.bad", ptxCode(badPTX, "add", "sm_70")
	missing.Name, missing.Artifacts = "drivertest.missing", ptxCode(suitePTX, "subtract", "sm_70")
	return []drivertest.Refusal{
		{Why: "no PTX artifact", Kernel: &none, Says: []string{none.Name, "no ptx artifact"}},
		{Why: "a refused kernel", Kernel: &refused, Says: []string{refused.Name, refused.Refused}},
		{Why: "a block beyond the device's", Kernel: &wide, Says: []string{wide.Name, "block of 65536"}},
		{Why: "a compute capability above the device's", Kernel: &above, Says: []string{above.Name, "sm_99"}},
		{Why: "a module that does not load", Kernel: &bad, Says: []string{bad.Name, "does not load", "CUDA_ERROR_INVALID_PTX", "JIT log", "near 'FAKECUDA_JIT_FAIL'"}},
		{Why: "an entry the module lacks", Kernel: &missing, Says: []string{missing.Name, "no entry subtract", "CUDA_ERROR_NOT_FOUND"}},
	}
}

// badPTX is a module that no JIT compiles; the fake fails on its marker,
// which its log quotes, as ptxas quotes the token it cannot parse.
const badPTX = ".version 7.0\n.target sm_70\n.address_size 64\nFAKECUDA_JIT_FAIL\n"

// TestDriverFake runs the driver-contract suite against the fake driver
// library.
func TestDriverFake(t *testing.T) {
	lib := fakeLibrary(t)
	drivertest.Run(t, suiteConfig(func() (driver.Device, error) { return New(Config{Library: lib}) }, true))
}

// TestDriverDevice runs the suite against the machine's own CUDA driver,
// as Open finds it; it skips where there is none.
func TestDriverDevice(t *testing.T) {
	drivertest.Run(t, suiteConfig(Open, false))
}
