//go:build linux && (amd64 || arm64)

package hip

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/driver/drivertest"
	"github.com/goxpu/xpu/gpu/internal/native"
	"github.com/goxpu/xpu/gpu/internal/native/nativetest"
	"github.com/goxpu/xpu/schema"
)

// openFake opens a device of the fake library, closed when t ends.
func openFake(t *testing.T) *device {
	t.Helper()
	return opened(t, Config{Library: fakeLibrary(t)})
}

// opened opens the device cfg names, closed when t ends; it skips t
// where the device is unavailable.
func opened(t *testing.T, cfg Config) *device {
	t.Helper()
	return drivertest.Open(t, func() (driver.Device, error) { return New(cfg) }, false).(*device)
}

// onDevices runs f on a device of the fake library ("fake") and on the
// machine's own HIP device ("device"), which is skipped where there is
// none, each with the suite's code object built for it.
func onDevices(t *testing.T, f func(t *testing.T, d *device, obj string)) {
	t.Run("fake", func(t *testing.T) {
		d := openFake(t)
		f(t, d, suiteObject(t, d.Info().ISA, d.wave))
	})
	t.Run("device", func(t *testing.T) {
		d := opened(t, Config{})
		f(t, d, suiteObject(t, d.Info().ISA, d.wave))
	})
}

// TestInfoFromAttributes sets the fake device's attributes and
// architecture to random values and checks that Info reports each where
// it belongs.
func TestInfoFromAttributes(t *testing.T) {
	fakeLibrary(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 2))
	want := map[int32]int32{
		attrMaxThreadsPerBlk: 256 << r.Int32N(3),
		attrMaxBlockDimX:     512 + r.Int32N(512), attrMaxBlockDimX + 1: 512 + r.Int32N(512), attrMaxBlockDimX + 2: 1 + r.Int32N(1024),
		attrMaxGridDimX: 1<<20 + r.Int32N(1<<20), attrMaxGridDimX + 1: 1000 + r.Int32N(60000), attrMaxGridDimX + 2: 1000 + r.Int32N(60000),
		attrMaxSharedPerBlock: 16<<10 + 4*r.Int32N(8192), attrMaxRegsPerBlock: 65536 << r.Int32N(2), attrWarpSize: 32 << r.Int32N(2), attrMultiprocessors: 1 + r.Int32N(200),
		attrClockRate: 1e6 + r.Int32N(1e6), attrMemoryBusWidth: 64 << r.Int32N(6), attrMaxSharedOptin: 64<<10 + r.Int32N(1<<16),
	}
	proc := fmt.Sprintf("gfx%d", 900+r.IntN(300))
	arch := proc + []string{"", ":xnack-", ":sramecc+:xnack+"}[r.IntN(3)]
	name := fmt.Sprintf("fake device %d", r.Uint32())
	mem := uint64(1)<<30 + r.Uint64N(1<<34)
	for id, v := range want {
		fake.setAttr(id, v)
	}
	fake.setName(name)
	fake.setArch(arch)
	fake.setMemory(mem)
	defer func() { // the other tests' device
		fake.setAttr(attrMaxThreadsPerBlk, 1024)
		fake.setAttr(attrMaxBlockDimX, 1024)
		fake.setAttr(attrMaxBlockDimX+1, 1024)
		fake.setAttr(attrMaxBlockDimX+2, 1024)
		fake.setAttr(attrMaxGridDimX, 1<<31-1)
		fake.setAttr(attrMaxGridDimX+1, 65536)
		fake.setAttr(attrMaxGridDimX+2, 65536)
		fake.setAttr(attrMaxSharedPerBlock, 64<<10)
		fake.setAttr(attrWarpSize, fakeWave)
		fake.setArch("gfx90a:sramecc+:xnack-")
		fake.setMemory(1 << 30)
	}()
	d := openFake(t)
	info := d.Info()
	l := info.Limits
	u := func(id int32) uint32 { return uint32(want[id]) }
	if info.Name != name || info.ISA != proc || info.Facts["architecture"] != arch || info.Native != schema.TargetHSACO || d.wave != u(attrWarpSize) {
		t.Errorf("name %q ISA %q architecture %q native %q wave %d; want %q, %q of %q, wave %d",
			info.Name, info.ISA, info.Facts["architecture"], info.Native, d.wave, name, proc, arch, want[attrWarpSize])
	}
	if l.MaxInvocationsPerBlock != u(attrMaxThreadsPerBlk) ||
		l.MaxBlockSize != (xpu.Dim3{X: u(attrMaxBlockDimX), Y: u(attrMaxBlockDimX + 1), Z: u(attrMaxBlockDimX + 2)}) ||
		l.MaxGroups != min(u(attrMaxGridDimX), u(attrMaxGridDimX+1), u(attrMaxGridDimX+2)) ||
		l.MaxGrid != (xpu.Dim3{X: u(attrMaxGridDimX), Y: u(attrMaxGridDimX + 1), Z: u(attrMaxGridDimX + 2)}) ||
		l.MaxSharedBytes != u(attrMaxSharedPerBlock) || l.MaxRegistersPerBlock != u(attrMaxRegsPerBlock) || l.SubgroupMin != u(attrWarpSize) || l.SubgroupMax != u(attrWarpSize) ||
		l.MaxBufferBytes != mem || l.MaxStorageBufferBytes != mem {
		t.Errorf("limits %+v from attributes %v and %d bytes of memory", l, want, mem)
	}
	for fact, id := range map[string]int32{"compute units": attrMultiprocessors, "clock kHz": attrClockRate,
		"memory bus bits": attrMemoryBusWidth, "shared bytes per block optin": attrMaxSharedOptin} {
		if got := info.Facts[fact]; got != strconv.Itoa(int(want[id])) {
			t.Errorf("fact %q = %q, want %d", fact, got, want[id])
		}
	}
	if info.Facts["memory bytes"] != strconv.FormatUint(mem, 10) || info.Software != "HIP 6.3.42134" || info.Type != "discrete-gpu" || info.VendorID != 0x1002 {
		t.Errorf("info %+v", info)
	}
}

// TestBadWave checks that a device of a wave size no code object has
// does not open as one.
func TestBadWave(t *testing.T) {
	fakeLibrary(t)
	fake.setAttr(attrWarpSize, 48)
	defer fake.setAttr(attrWarpSize, fakeWave)
	_, err := New(Config{Library: fakeLibrary(t)})
	if err == nil || !strings.Contains(err.Error(), "wave of 48") {
		t.Fatalf("a wave of 48: %v", err)
	}
}

// TestManifestFacts checks that Amend sets in a manifest the registers
// and private bytes the library reports of the loaded entry, per entry.
func TestManifestFacts(t *testing.T) { onDevices(t, testManifestFacts) }

func testManifestFacts(t *testing.T, d *device, obj string) {
	for _, sym := range []string{"add", "spin", "divide"} {
		k := drivertest.AddKernel()
		k.Artifacts = hsacoCode(obj, sym, d.Info().ISA, d.wave)
		p, err := d.Compile(k)
		if err != nil {
			t.Fatal(err)
		}
		var m schema.Manifest
		d.Amend(p, &m)
		var regs, private int32
		fn, _ := native.Entry(p)
		leave, err := d.Enter()
		if err != nil {
			t.Fatal(err)
		}
		d.api.FuncGetAttribute.Call(unsafePointer(&regs), native.FuncNumRegs, fn)
		d.api.FuncGetAttribute.Call(unsafePointer(&private), native.FuncLocalBytes, fn)
		leave()
		if m.Registers == nil || m.SpillBytes == nil || *m.Registers != int(regs) || *m.SpillBytes != int(private) || regs == 0 {
			t.Errorf("%s: manifest registers %v spills %v; the library reports %d and %d", sym, m.Registers, m.SpillBytes, regs, private)
		}
		t.Logf("%s: %d VGPRs, %d private bytes", sym, regs, private)
		p.Release()
	}
}

// TestRefusedOtherISA checks that a device runs no artifact of another
// processor, says so by name, and of several picks the one of its own.
func TestRefusedOtherISA(t *testing.T) {
	d := openFake(t)
	obj := suiteObject(t, fakeISA, fakeWave)
	k := drivertest.AddKernel()
	k.Artifacts = append(hsacoCode(obj, "add", "gfx1100", 32), hsacoCode(obj, "add", "gfx908", 64)...)
	if a := d.Artifact(k); a != nil {
		t.Fatalf("a device of %s runs an artifact for %s", d.Info().ISA, a.Selector.ISA)
	}
	err := d.Refusal(k)
	if err == nil || !strings.Contains(err.Error(), k.Name) || !strings.Contains(err.Error(), "gfx1100, gfx908") ||
		!strings.Contains(err.Error(), "is gfx90a") {
		t.Fatalf("refusal: %v", err)
	}
	k.Artifacts = append(k.Artifacts, hsacoCode(obj, "add", "gfx90a", 64)...)
	if a := d.Artifact(k); a == nil || a.Selector.ISA != "gfx90a" {
		t.Fatalf("chose %+v, want the gfx90a artifact", a)
	}
}

// TestObjectForAnotherProcessor checks that a code object built for
// another processor, under an artifact that claims the device's, is
// refused by the loader and named so.
func TestObjectForAnotherProcessor(t *testing.T) {
	d := openFake(t)
	k := drivertest.AddKernel()
	k.Artifacts = hsacoCode(suiteObject(t, "gfx1100", 32), "add", d.Info().ISA, d.wave)
	_, err := d.Compile(k)
	if err == nil || !strings.Contains(err.Error(), "hipErrorNoBinaryForGpu") || !strings.Contains(err.Error(), d.arch) {
		t.Fatalf("a gfx1100 object on a %s: %v", d.arch, err)
	}
}

// TestUnavailable checks that a missing library is ErrUnavailable, at
// once.
func TestUnavailable(t *testing.T) {
	t0 := time.Now()
	_, err := New(Config{Library: t.TempDir() + "/libamdhip64.so"})
	if !errors.Is(err, driver.ErrUnavailable) {
		t.Fatalf("a missing library: %v, want ErrUnavailable", err)
	}
	if took := time.Since(t0); took > time.Second {
		t.Errorf("took %v", took)
	}
	if _, err := New(Config{Library: fakeLibrary(t), Device: 3}); !errors.Is(err, driver.ErrUnavailable) {
		t.Fatalf("device 3 of 1: %v, want ErrUnavailable", err)
	}
	t.Setenv("XPU_HIP_DEVICE", "-1")
	if _, err := Open(); err == nil || !strings.Contains(err.Error(), "XPU_HIP_DEVICE") {
		t.Fatalf("XPU_HIP_DEVICE=-1: %v", err)
	}
}

// TestFaultWord runs the faulting division (nativetest.FaultWord).
func TestFaultWord(t *testing.T) {
	onDevices(t, func(t *testing.T, d *device, obj string) {
		nativetest.FaultWord(t, d, "hip.divide", hsacoCode(obj, "divide", d.Info().ISA, d.wave))
	})
}

// TestThreads launches from many goroutines at once (nativetest.Threads):
// the fake refuses every call on a thread whose current device is not
// set.
func TestThreads(t *testing.T) {
	onDevices(t, func(t *testing.T, d *device, obj string) {
		k := drivertest.AddKernel()
		k.Artifacts = hsacoCode(obj, "add", d.Info().ISA, d.wave)
		nativetest.Threads(t, d, k)
	})
}
