//go:build linux && (amd64 || arm64)

package hip

import (
	"errors"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/driver/drivertest"
	"github.com/goxpu/xpu/schema"
)

// The fake device's processor and wave size.
const (
	fakeISA  = "gfx90a"
	fakeWave = 64
)

// suiteConfig is the driver-contract suite's configuration of a device
// that open opens, whose kernels are in obj, the suite's code object for
// isa at wave. The driver defers launches (RunsOnRecord false), so
// RunawayKernel checks that a wait that outlives its context loses the
// device. Left out: AsyncErrors, since HIP refuses a grid beyond the
// device's in hipModuleLaunchKernel itself, which Launch returns.
func suiteConfig(open func() (driver.Device, error), required bool, obj, isa string, wave uint32) drivertest.Config {
	return drivertest.Config{
		Open:     open,
		Required: required,
		Backend:  schema.BackendHIP,
		Code: drivertest.Code{
			Add:  func(k *driver.Kernel) { k.Artifacts = hsacoCode(obj, "add", isa, wave) },
			Spin: func(k *driver.Kernel) { k.Artifacts = hsacoCode(obj, "spin", isa, wave) },
		},
		Refusals: func(add *driver.Kernel) []drivertest.Refusal { return refusals(add, obj, isa, wave) },
		CheckInfo: func(t *testing.T, d driver.Device) {
			info := d.Info()
			if info.Native != schema.TargetHSACO || info.ISA == "" || info.Limits.SubgroupMin != info.Limits.SubgroupMax {
				t.Errorf("info: native %q ISA %q subgroups %d..%d", info.Native, info.ISA, info.Limits.SubgroupMin, info.Limits.SubgroupMax)
			}
		},
		LeakCycles: 400,
		LongWork:   2 * time.Second,
	}
}

// refusals are the kernels the HIP driver's Compile refuses.
func refusals(add *driver.Kernel, obj, isa string, wave uint32) []drivertest.Refusal {
	none, refused, wide, other, bad, missing := *add, *add, *add, *add, *add, *add
	none.Name, none.Artifacts = "drivertest.nohsaco", nil
	refused.Name, refused.Refused = "drivertest.refused", "requires N%2 == 0"
	wide.Name, wide.Block.X = "drivertest.wide", 1<<16
	other.Name, other.Artifacts = "drivertest.other", hsacoCode(obj, "add", "gfx1100", wave)
	bad.Name, bad.Artifacts = "drivertest.bad", hsacoCode(badObject, "add", isa, wave)
	missing.Name, missing.Artifacts = "drivertest.missing", hsacoCode(obj, "subtract", isa, wave)
	return []drivertest.Refusal{
		{Why: "no HSACO artifact", Kernel: &none, Says: []string{none.Name, "no hsaco artifact"}},
		{Why: "a refused kernel", Kernel: &refused, Says: []string{refused.Name, refused.Refused}},
		{Why: "a block beyond the device's", Kernel: &wide, Says: []string{wide.Name, "block of 65536"}},
		{Why: "another processor", Kernel: &other, Says: []string{other.Name, "gfx1100", isa}},
		{Why: "a code object that does not load", Kernel: &bad, Says: []string{bad.Name, "does not load", "hipModuleLoadData"}},
		{Why: "an entry the object lacks", Kernel: &missing, Says: []string{missing.Name, "no entry subtract", "hipErrorNotFound"}},
	}
}

// badObject is no code object: HIP's loader refuses it.
const badObject = "FAKEHIP: not an ELF code object\x00"

// TestDriverFake runs the driver-contract suite against the fake runtime
// library.
func TestDriverFake(t *testing.T) {
	lib := fakeLibrary(t)
	obj := suiteObject(t, fakeISA, fakeWave)
	drivertest.Run(t, suiteConfig(func() (driver.Device, error) { return New(Config{Library: lib}) }, true, obj, fakeISA, fakeWave))
}

// TestDriverDevice runs the suite against the machine's own HIP runtime,
// as Open finds it, with the suite's code object built for its device;
// it skips where there is none.
func TestDriverDevice(t *testing.T) {
	d, err := Open()
	if errors.Is(err, driver.ErrUnavailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	isa, wave := d.Info().ISA, d.(*device).wave
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	drivertest.Run(t, suiteConfig(Open, false, suiteObject(t, isa, wave), isa, wave))
}
