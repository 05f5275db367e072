//go:build linux && (amd64 || arm64)

package hip

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/driver/drivertest"
	"github.com/goxpu/xpu/gpu/internal/native"
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
	d, err := New(cfg)
	if errors.Is(err, driver.ErrUnavailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d.(*device)
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
		attrMaxSharedPerBlock: 16<<10 + 4*r.Int32N(8192), attrWarpSize: 32 << r.Int32N(2), attrMultiprocessors: 1 + r.Int32N(200),
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
		l.MaxSharedBytes != u(attrMaxSharedPerBlock) || l.SubgroupMin != u(attrWarpSize) || l.SubgroupMax != u(attrWarpSize) ||
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

// TestFaultWord runs the faulting division: with a divisor, the quotients
// on fresh inputs and a clear word; with zero, the word's FaultDivZero
// bit, through the argument after the uniform block.
func TestFaultWord(t *testing.T) { onDevices(t, testFaultWord) }

func testFaultWord(t *testing.T, d *device, obj string) {
	k := &driver.Kernel{
		Name:  "hip.divide",
		Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
		Params: []schema.Param{
			{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessWrite},
			{Name: "in", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
			{Name: "d", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4},
		},
		UniformSize: 16,
		Artifacts:   hsacoCode(obj, "divide", d.Info().ISA, d.wave),
	}
	k.Artifacts[0].Fault = true
	p, err := d.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	const n = 200
	out, in, word := mustBuf(t, d, 4*n), mustBuf(t, d, 4*n), mustBuf(t, d, 4)
	src := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(src[4*i:], rand.Uint32())
	}
	for _, div := range []uint32{1 + rand.Uint32N(1000), 0} {
		if err := out.Write(0, bytesOf(0xDEADBEEF, n)); err != nil {
			t.Fatal(err)
		}
		if err := in.Write(0, src); err != nil {
			t.Fatal(err)
		}
		u := make([]byte, 16)
		binary.LittleEndian.PutUint32(u, div)
		if err := q.Launch(context.Background(), p, xpu.Dim3{X: (n + 63) / 64, Y: 1, Z: 1}, []driver.Buffer{out, in, word}, u); err != nil {
			t.Fatal(err)
		}
		if err := q.Sync(context.Background()); err != nil {
			t.Fatal(err)
		}
		got, w := make([]byte, 4*n), make([]byte, 4)
		if err := out.Read(context.Background(), 0, got); err != nil {
			t.Fatal(err)
		}
		if err := word.Read(context.Background(), 0, w); err != nil {
			t.Fatal(err)
		}
		wantWord := uint32(0)
		if div == 0 {
			wantWord = schema.FaultDivZero
		}
		if bits := binary.LittleEndian.Uint32(w); bits != wantWord {
			t.Fatalf("divisor %d: fault word %#x, want %#x", div, bits, wantWord)
		}
		for i := range n {
			want := uint32(0)
			if div != 0 {
				want = binary.LittleEndian.Uint32(src[4*i:]) / div
			}
			if g := binary.LittleEndian.Uint32(got[4*i:]); g != want {
				t.Fatalf("divisor %d: out[%d] = %d, want %d", div, i, g, want)
			}
		}
	}
}

// TestThreads launches from many goroutines at once, each on its own
// queue: the fake refuses every call on a thread whose current device is
// not set, so each call must set it on the thread it runs on.
func TestThreads(t *testing.T) { onDevices(t, testThreads) }

func testThreads(t *testing.T, d *device, obj string) {
	k := drivertest.AddKernel()
	k.Artifacts = hsacoCode(obj, "add", d.Info().ISA, d.wave)
	p, err := d.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- addOnce(d, p, uint32(g))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// addOnce runs the Add kernel on a queue of its own over fresh inputs and
// checks the sums.
func addOnce(d *device, p driver.Program, k uint32) error {
	q, err := d.NewQueue()
	if err != nil {
		return err
	}
	defer q.Release()
	const n = 640
	bufs := make([]driver.Buffer, 3)
	for i := range bufs {
		if bufs[i], err = d.NewBuffer(4 * n); err != nil {
			return err
		}
		defer bufs[i].Release()
	}
	src := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(src[4*i:], rand.Uint32())
	}
	if err := bufs[1].Write(0, src); err != nil {
		return err
	}
	if err := bufs[0].Write(0, bytesOf(0xDEADBEEF, n)); err != nil {
		return err
	}
	for range 20 {
		if err := q.Launch(context.Background(), p, xpu.Dim3{X: n / 64, Y: 1, Z: 1}, bufs, bytesOf(k, 4)); err != nil {
			return err
		}
	}
	if err := q.Sync(context.Background()); err != nil {
		return err
	}
	got := make([]byte, 4*n)
	if err := bufs[0].Read(context.Background(), 0, got); err != nil {
		return err
	}
	for i := range n {
		if g, w := binary.LittleEndian.Uint32(got[4*i:]), binary.LittleEndian.Uint32(src[4*i:])+k; g != w {
			return fmt.Errorf("k=%d: out[%d] = %#x, want %#x", k, i, g, w)
		}
	}
	return nil
}

func mustBuf(t *testing.T, d *device, size int) driver.Buffer {
	t.Helper()
	b, err := d.NewBuffer(size)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}

// bytesOf is n copies of v, little-endian.
func bytesOf(v uint32, n int) []byte {
	b := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(b[4*i:], v)
	}
	return b
}
