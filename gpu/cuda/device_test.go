//go:build linux && (amd64 || arm64)

package cuda

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
// machine's own CUDA device ("device"), which is skipped where there is
// none.
func onDevices(t *testing.T, f func(t *testing.T, d *device)) {
	t.Run("fake", func(t *testing.T) { f(t, openFake(t)) })
	t.Run("device", func(t *testing.T) { f(t, opened(t, Config{})) })
}

// TestInfoFromAttributes sets the fake device's attributes to random
// values and checks that Info reports each where it belongs.
func TestInfoFromAttributes(t *testing.T) {
	fakeLibrary(t)
	r := rand.New(rand.NewPCG(rand.Uint64(), 2))
	want := map[int32]int32{
		attrCCMajor: 5 + r.Int32N(5), attrCCMinor: r.Int32N(10),
		attrMaxThreadsPerBlock: 256 << r.Int32N(3),
		attrMaxBlockDimX:       512 + r.Int32N(512), attrMaxBlockDimX + 1: 512 + r.Int32N(512), attrMaxBlockDimX + 2: 1 + r.Int32N(64),
		attrMaxGridDimX: 1<<20 + r.Int32N(1<<20), attrMaxGridDimX + 1: 1000 + r.Int32N(60000), attrMaxGridDimX + 2: 1000 + r.Int32N(60000),
		attrMaxSharedPerBlock: 16<<10 + 4*r.Int32N(8192), attrMaxRegsPerBlock: 32768 << r.Int32N(2), attrWarpSize: 32, attrMultiprocessors: 1 + r.Int32N(200),
		attrClockRate: 1e6 + r.Int32N(1e6), attrMemoryBusWidth: 64 << r.Int32N(4), attrMaxSharedOptin: 64<<10 + r.Int32N(1<<16),
	}
	name := fmt.Sprintf("fake device %d", r.Uint32())
	mem := uint64(1)<<30 + r.Uint64N(1<<34)
	for id, v := range want {
		fake.setAttr(id, v)
	}
	fake.setName(name)
	fake.setMemory(mem)
	defer func() { // the other tests' device
		fake.setAttr(attrCCMajor, 7)
		fake.setAttr(attrCCMinor, 5)
		fake.setAttr(attrMaxThreadsPerBlock, 1024)
		fake.setAttr(attrMaxBlockDimX, 1024)
		fake.setAttr(attrMaxBlockDimX+1, 1024)
		fake.setAttr(attrMaxBlockDimX+2, 64)
		fake.setAttr(attrMaxGridDimX, 1<<31-1)
		fake.setAttr(attrMaxGridDimX+1, 65535)
		fake.setAttr(attrMaxGridDimX+2, 65535)
		fake.setAttr(attrMaxSharedPerBlock, 48<<10)
		fake.setMemory(1 << 30)
	}()
	info := openFake(t).Info()
	l := info.Limits
	u := func(id int32) uint32 { return uint32(want[id]) }
	if info.Name != name || info.ISA != fmt.Sprintf("sm_%d%d", want[attrCCMajor], want[attrCCMinor]) || info.Native != schema.TargetPTX {
		t.Errorf("name %q ISA %q native %q; want %q, compute capability %d.%d", info.Name, info.ISA, info.Native, name, want[attrCCMajor], want[attrCCMinor])
	}
	if l.MaxInvocationsPerBlock != u(attrMaxThreadsPerBlock) ||
		l.MaxBlockSize != (xpu.Dim3{X: u(attrMaxBlockDimX), Y: u(attrMaxBlockDimX + 1), Z: u(attrMaxBlockDimX + 2)}) ||
		l.MaxGroups != min(u(attrMaxGridDimX), u(attrMaxGridDimX+1), u(attrMaxGridDimX+2)) ||
		l.MaxGrid != (xpu.Dim3{X: u(attrMaxGridDimX), Y: u(attrMaxGridDimX + 1), Z: u(attrMaxGridDimX + 2)}) ||
		l.MaxSharedBytes != u(attrMaxSharedPerBlock) || l.MaxRegistersPerBlock != u(attrMaxRegsPerBlock) || l.SubgroupMin != 32 || l.SubgroupMax != 32 ||
		l.MaxBufferBytes != mem || l.MaxStorageBufferBytes != mem {
		t.Errorf("limits %+v from attributes %v and %d bytes of memory", l, want, mem)
	}
	for fact, id := range map[string]int32{"multiprocessors": attrMultiprocessors, "clock kHz": attrClockRate,
		"memory bus bits": attrMemoryBusWidth, "shared bytes per block optin": attrMaxSharedOptin} {
		if got := info.Facts[fact]; got != strconv.Itoa(int(want[id])) {
			t.Errorf("fact %q = %q, want %d", fact, got, want[id])
		}
	}
	if info.Facts["memory bytes"] != strconv.FormatUint(mem, 10) || info.Software != "CUDA driver 13.0" || info.Type != "discrete-gpu" {
		t.Errorf("info %+v", info)
	}
}

// TestManifestFacts checks that Amend sets in a manifest the registers
// and local bytes the library reports of the compiled entry, per entry.
func TestManifestFacts(t *testing.T) { onDevices(t, testManifestFacts) }

func testManifestFacts(t *testing.T, d *device) {
	for _, sym := range []string{"add", "spin", "divide"} {
		k := drivertest.AddKernel()
		k.Artifacts = ptxCode(suitePTX, sym, "sm_70")
		p, err := d.Compile(k)
		if err != nil {
			t.Fatal(err)
		}
		var m schema.Manifest
		d.Amend(p, &m)
		var regs, local int32
		fn, _ := native.Entry(p)
		leave, err := d.Enter()
		if err != nil {
			t.Fatal(err)
		}
		d.api.FuncGetAttribute.Call(unsafePointer(&regs), native.FuncNumRegs, fn)
		d.api.FuncGetAttribute.Call(unsafePointer(&local), native.FuncLocalBytes, fn)
		leave()
		if m.Registers == nil || m.SpillBytes == nil || *m.Registers != int(regs) || *m.SpillBytes != int(local) || regs == 0 {
			t.Errorf("%s: manifest registers %v spills %v; the library reports %d and %d", sym, m.Registers, m.SpillBytes, regs, local)
		}
		t.Logf("%s: %d registers, %d local bytes", sym, regs, local)
		p.Release()
	}
}

// TestRefusedBelowISA checks that a device below an artifact's compute
// capability runs none of it, and says so by name.
func TestRefusedBelowISA(t *testing.T) {
	d := openFake(t)
	k := drivertest.AddKernel()
	k.Artifacts = append(ptxCode(suitePTX, "add", "sm_80"), ptxCode(suitePTX, "add", "sm_90")...)
	if a := d.Artifact(k); a != nil {
		t.Fatalf("a device of %s runs an artifact for %s", d.Info().ISA, a.Selector.ISA)
	}
	err := d.Refusal(k)
	if err == nil || !strings.Contains(err.Error(), k.Name) || !strings.Contains(err.Error(), "sm_80, sm_90") || !strings.Contains(err.Error(), "sm_75") {
		t.Fatalf("refusal: %v", err)
	}
	// Of artifacts for several capabilities, the highest the device has.
	k.Artifacts = append(ptxCode(suitePTX, "add", "sm_60"), append(ptxCode(suitePTX, "add", "sm_75"), k.Artifacts...)...)
	if a := d.Artifact(k); a == nil || a.Selector.ISA != "sm_75" {
		t.Fatalf("chose %+v, want the sm_75 artifact", a)
	}
}

// TestUnavailable checks that a missing library is ErrUnavailable, at
// once.
func TestUnavailable(t *testing.T) {
	t0 := time.Now()
	_, err := New(Config{Library: t.TempDir() + "/libcuda.so.1"})
	if !errors.Is(err, driver.ErrUnavailable) {
		t.Fatalf("a missing library: %v, want ErrUnavailable", err)
	}
	if took := time.Since(t0); took > time.Second {
		t.Errorf("took %v", took)
	}
	if _, err := New(Config{Library: fakeLibrary(t), Device: 3}); !errors.Is(err, driver.ErrUnavailable) {
		t.Fatalf("device 3 of 1: %v, want ErrUnavailable", err)
	}
}

// TestFaultWord runs the faulting division (nativetest.FaultWord).
func TestFaultWord(t *testing.T) {
	onDevices(t, func(t *testing.T, d *device) {
		nativetest.FaultWord(t, d, "cuda.divide", ptxCode(suitePTX, "divide", "sm_70"))
	})
}

// TestThreads launches from many goroutines at once (nativetest.Threads):
// the fake refuses every call on a thread whose current context is not
// set (CUDA_ERROR_INVALID_CONTEXT, as CUDA does).
func TestThreads(t *testing.T) {
	onDevices(t, func(t *testing.T, d *device) {
		k := drivertest.AddKernel()
		k.Artifacts = ptxCode(suitePTX, "add", "sm_70")
		nativetest.Threads(t, d, k)
	})
}
