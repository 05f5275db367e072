//go:build linux && amd64

package cpu

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
	"weak"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/driver/drivertest"
	"github.com/goxpu/xpu/schema"
)

// The host-tier tests run the entries of testdata/host.ll, compiled with
// LLVM 19 for baseline x86-64 (so that they run on any x86-64 processor)
// and labelled x86-64-v3, beside hand-written Go lowerings of the same
// kernels.

// hostObject is the shared object built from testdata/host.ll, once.
var hostObject struct {
	once      sync.Once
	code      string
	path      string // a copy of it, for the helper processes
	dir       string // the folder it was built in
	skip, err string
}

// TestMain removes the folder the test object was built in.
func TestMain(m *testing.M) {
	code := m.Run()
	if hostObject.dir != "" {
		os.RemoveAll(hostObject.dir)
	}
	os.Exit(code)
}

// hostCode returns the bytes of the test shared object. It skips t where
// LLVM 19 is not on PATH, unless $XPU_REQUIRE names llvm-host.
func hostCode(t testing.TB) string {
	t.Helper()
	o := &hostObject
	o.once.Do(buildHostObject)
	switch {
	case o.err != "":
		t.Fatal(o.err)
	case o.skip != "" && strings.Contains(os.Getenv("XPU_REQUIRE"), "llvm-host"):
		t.Fatalf("%s, and XPU_REQUIRE=%s requires the host tier", o.skip, os.Getenv("XPU_REQUIRE"))
	case o.skip != "":
		t.Skip(o.skip)
	}
	return o.code
}

func buildHostObject() {
	o := &hostObject
	for _, tool := range []string{"llc-19", "ld.lld-19"} {
		if _, err := exec.LookPath(tool); err != nil {
			o.skip = fmt.Sprintf("the host tier's tests need LLVM 19: %v", err)
			return
		}
	}
	// opt-19 -O2, where it is on PATH, optimizes the entries as the
	// lowering's pipeline would (it would hoist an unordered load of the
	// stop word out of xpu_forever's loop).
	_, noOpt := exec.LookPath("opt-19")
	dir, err := os.MkdirTemp("", "xpu-cpu-test-")
	if err != nil {
		o.err = err.Error()
		return
	}
	o.dir = dir // for the helper processes; TestMain removes it
	ll, err := filepath.Abs(filepath.Join("testdata", "host.ll"))
	if err != nil {
		o.err = err.Error()
		return
	}
	bc, obj, so := filepath.Join(dir, "host.bc"), filepath.Join(dir, "host.o"), filepath.Join(dir, "host.so")
	cmds := [][]string{
		{"opt-19", "-O2", ll, "-o", bc},
		{"llc-19", "-O2", "-mcpu=x86-64", "-filetype=obj", "-relocation-model=pic", bc, "-o", obj},
		{"ld.lld-19", "-shared", obj, "-o", so},
	}
	if noOpt != nil {
		cmds, cmds[1][len(cmds[1])-3] = cmds[1:], ll
	}
	for _, cmd := range cmds {
		if out, err := exec.Command(cmd[0], cmd[1:]...).CombinedOutput(); err != nil {
			o.err = fmt.Sprintf("%s: %v\n%s", strings.Join(cmd, " "), err, out)
			return
		}
	}
	raw, err := os.ReadFile(so)
	if err != nil {
		o.err = err.Error()
		return
	}
	o.code, o.path = string(raw), so
}

// hostFacts are this processor's facts at x86-64-v3: the test object is
// baseline x86-64, so a processor of any level runs it.
func hostFacts() *Facts {
	f := Detect()
	f.X64Level = 3
	return &f
}

// openHost opens a device of tier with its cache in a folder of t's.
func openHost(t *testing.T, tier Tier, workers int) driver.Device {
	t.Helper()
	d, err := New(Config{Facts: hostFacts(), Tier: tier, Workers: workers, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// withHost returns k with, beside its artifacts, a host artifact of
// code for x86-64-v3 whose entry is that of k's name.
func withHost(k *driver.Kernel, code string) *driver.Kernel {
	c := *k
	short := k.Name[strings.LastIndexByte(k.Name, '.')+1:]
	c.Artifacts = append(hostArtifacts(code, short), k.Artifacts...)
	return &c
}

func hostArtifacts(code, short string) []schema.Artifact {
	a := hostArtifactFor("x86-64-v3", "")
	a.Code, a.Symbol = code, schema.HostSymbol(short)
	return []schema.Artifact{a}
}

// shift: out[i+off] = in[i] for i below n, i = 64 times the block's
// place in the grid's linear order plus the work-item's; an off that
// takes i+off past out's end is an index fault.
func shiftCPU(b *driver.CPUBlock) {
	out, in := driver.CPUView[int32](b.Buffers[0]), driver.CPUView[int32](b.Buffers[1])
	off, n := driver.CPUUniform[uint32](b.Uniforms, 0), driver.CPUUniform[uint32](b.Uniforms, 4)
	g, gs := b.Group, b.Groups
	for lx := range uint32(64) {
		if i := ((g.Z*gs.Y+g.Y)*gs.X+g.X)*64 + lx; i < n {
			out[i+off] = in[i]
		}
	}
}

var shiftKernel = &driver.Kernel{
	Name:  "cpu.shift",
	Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
	Params: []schema.Param{
		{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "int32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
		{Name: "in", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "int32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
		{Name: "off", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 0},
		{Name: "n", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 4},
	},
	UniformSize: 16,
	Artifacts:   goCode(shiftCPU),
}

// forever loops until its launch is to stop.
func foreverCPU(b *driver.CPUBlock) {
	for stop := b.Stopping(); ; {
		if stop.Load() {
			panic(driver.ErrStopped)
		}
	}
}

var foreverKernel = &driver.Kernel{
	Name:  "cpu.forever",
	Block: xpu.Dim3{X: 1, Y: 1, Z: 1},
	Params: []schema.Param{
		{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
	},
	Artifacts: goCode(foreverCPU),
}

// uniforms packs 32-bit words into a 16-byte uniform block.
func uniforms(words ...uint32) []byte {
	u := make([]byte, 16)
	for i, w := range words {
		binary.LittleEndian.PutUint32(u[4*i:], w)
	}
	return u
}

// run compiles k on d, checking that it runs at want, and launches it
// over groups.
func run(t *testing.T, ctx context.Context, d driver.Device, k *driver.Kernel, want schema.Target, groups xpu.Dim3, u []byte, bufs ...driver.Buffer) error {
	t.Helper()
	if a := d.Artifact(k); a == nil || a.Target != want {
		t.Fatalf("%s runs %+v, want its %s artifact", k.Name, a, want)
	}
	p, err := d.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	return q.Launch(ctx, p, groups, bufs, u)
}

// TestHostSaxpy runs saxpy's host entry on fresh random inputs, y's tail
// past n poisoned, and compares with Go's arithmetic: exact, since both
// round a*x[i] and then the sum to float32 (the entry does not fuse).
func TestHostSaxpy(t *testing.T) {
	k := withHost(saxpyKernel, hostCode(t))
	for _, workers := range []int{1, 3, 8} {
		d := openHost(t, TierAuto, workers)
		n := 1000 + rand.IntN(3000)
		const pad = 37
		x, y := make([]float32, n), make([]float32, n+pad)
		for i := range x {
			x[i], y[i] = rand.Float32()*2-1, rand.Float32()*2-1
		}
		poison := math.Float32frombits(0x7fc0dead)
		for i := n; i < n+pad; i++ {
			y[i] = poison
		}
		a := rand.Float32()*4 - 2
		by, bx := upload(t, d, y), upload(t, d, x)
		groups := xpu.Dim3{X: xpu.GroupsFor(uint32(n), 64)}
		if err := run(t, context.Background(), d, k, schema.TargetLLVMHost, groups, uniforms(math.Float32bits(a), uint32(n)), by, bx); err != nil {
			t.Fatal(err)
		}
		got := download[float32](t, by, n+pad)
		for i := range n {
			if want := a*x[i] + y[i]; got[i] != want {
				t.Fatalf("workers %d, n %d: y[%d] = %v, want %v", workers, n, i, got[i], want)
			}
		}
		for i := n; i < n+pad; i++ {
			if math.Float32bits(got[i]) != 0x7fc0dead {
				t.Fatalf("workers %d, n %d: y[%d] past n written: %v", workers, n, i, got[i])
			}
		}
	}
}

// TestHostFault runs shift on a grid of several X, Y and Z where it
// faults: past the end of out, where only the grid's last block faults,
// at work-item 59; and past the end of a short in, where every block
// from the eleventh on faults, one worker taking chunks of three blocks,
// so that it goes on after faults inside a chunk. The blocks that do not
// fault run; the error names the first fault as the contract reports it;
// and the Go tier's run of the same launch leaves the same output.
func TestHostFault(t *testing.T) {
	k := withHost(shiftKernel, hostCode(t))
	groups := xpu.Dim3{X: 5, Y: 3, Z: 2}
	n := 64 * int(groups.Count())
	const poison = int32(-0x21524111)
	for _, c := range []struct {
		off, inLen, workers int
		says                string
	}{
		{5, n, 4, fmt.Sprintf("group {4 2 1}: work-item {59 0 0}: index out of range [%d] with length %d, buffer out", n, n)},
		{0, 643, 1, "group {0 2 0}: work-item {3 0 0}: index out of range [643] with length 643, buffer in"},
		// An off of 2^32-100 wraps i+off to i-100 for i from 100 on: the
		// first two blocks fault, and the blocks after them run.
		{1<<32 - 100, n, 1, fmt.Sprintf("group {0 0 0}: work-item {0 0 0}: index out of range [4294967196 (-100 as int32)] with length %d, buffer out", n)},
	} {
		in := make([]int32, c.inLen)
		for i := range in {
			in[i] = rand.Int32()
		}
		// Independent: each block in turn, its work-items in order up to
		// its first fault, i+off wrapping as uint32 arithmetic does.
		want := make([]int32, n)
		for j := range want {
			want[j] = poison
		}
		for b := range n / 64 {
			for lx := range 64 {
				i := b*64 + lx
				j := int(uint32(i + c.off))
				if i >= c.inLen || j >= n {
					break
				}
				want[j] = in[i]
			}
		}
		outs := map[Tier][]int32{}
		for _, tier := range []Tier{TierAuto, TierGo} {
			d := openHost(t, tier, c.workers)
			out := make([]int32, n)
			for i := range out {
				out[i] = poison
			}
			bout := upload(t, d, out)
			target := schema.TargetLLVMHost
			if tier == TierGo {
				target = schema.TargetGo
			}
			err := run(t, context.Background(), d, k, target, groups, uniforms(uint32(c.off), uint32(n)), bout, upload(t, d, in))
			if !errors.Is(err, ErrKernel) || !errors.Is(err, driver.ErrFault) {
				t.Fatalf("off %d, tier %v: err = %v, want ErrKernel and driver.ErrFault", c.off, tier, err)
			}
			if want := "cpu: kernel failed: cpu.shift: " + c.says; tier != TierGo && err.Error() != want {
				t.Errorf("off %d: err = %q, want %q", c.off, err, want)
			}
			outs[tier] = download[int32](t, bout, n)
		}
		for j := range want {
			if outs[TierAuto][j] != want[j] || outs[TierGo][j] != want[j] {
				t.Fatalf("off %d: out[%d] = %d (host), %d (Go); want %d", c.off, j, outs[TierAuto][j], outs[TierGo][j], want[j])
			}
		}
	}
}

// TestHostFaultText checks the text of each fault a host entry returns,
// on a HostFault filled as an entry fills it.
func TestHostFaultText(t *testing.T) {
	mem := [][]byte{make([]byte, 40), make([]byte, 12)}
	f := schema.HostFault{Group: [3]uint32{7, 1, 2}, Local: [3]uint32{3, 0, 1}}
	for _, c := range []struct {
		code   uint32
		object uint32
		index  uint32
		says   string
	}{
		{schema.HostFaultIndex, 1, 10, "group {7 1 2}: work-item {3 0 1}: index out of range [10] with length 3, buffer in"},
		{schema.HostFaultIndex, 0, ^uint32(0), "index out of range [4294967295 (-1 as int32)] with length 10, buffer out"},
		{schema.HostFaultIndex, ^uint32(0), 64, "index out of range [64] of a shared or private array"},
		{schema.HostFaultIndex, 2, 1, "parameter 2, which is no buffer of the kernel"},
		{schema.HostFaultDivZero, 0, 0, "group {7 1 2}: work-item {3 0 1}: integer division by zero"},
		{schema.HostFaultNegativeShift, 0, 0, "negative shift amount"},
		{schema.HostFaultBarrier, 0, 0, "do not agree on"},
		{schema.HostStopped, 0, 0, "stop word clear"},
		{99, 0, 0, "returned 99, no code"},
	} {
		f.Object, f.Index = c.object, c.index
		if err := faultError(shiftKernel, c.code, &f, mem); !strings.Contains(err.Error(), c.says) {
			t.Errorf("code %d: %q, want it to say %q", c.code, err, c.says)
		}
	}
}

// TestHostStop runs a kernel that loops until its stop word is set, at
// both tiers: a launch whose context ends stops with the Go tier's error,
// and the device goes on working.
func TestHostStop(t *testing.T) {
	code := hostCode(t)
	k, sax := withHost(foreverKernel, code), withHost(saxpyKernel, code)
	errs := map[Tier]error{}
	for _, tier := range []Tier{TierHost, TierGo} {
		d := openHost(t, tier, 3)
		target := schema.TargetLLVMHost
		if tier == TierGo {
			target = schema.TargetGo
		}
		b, err := d.NewBuffer(4)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		start := time.Now()
		err = run(t, ctx, d, k, target, xpu.Dim3{X: 7}, nil, b)
		cancel()
		if !errors.Is(err, driver.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("tier %v: err = %v, want ErrTimeout and the context's error", tier, err)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("tier %v: the stop took %v", tier, el)
		}
		errs[tier] = err
		// The device still runs work.
		x, y := []float32{1, 2, 3}, []float32{4, 5, 6}
		by := upload(t, d, y)
		if err := run(t, context.Background(), d, sax, target, xpu.Dim3{X: 1}, uniforms(math.Float32bits(2), 3), by, upload(t, d, x)); err != nil {
			t.Fatal(err)
		}
		for i, got := range download[float32](t, by, 3) {
			if want := 2*x[i] + y[i]; got != want {
				t.Errorf("tier %v after a stop: y[%d] = %v, want %v", tier, i, got, want)
			}
		}
	}
	if errs[TierHost].Error() != errs[TierGo].Error() {
		t.Errorf("stopped: host tier %q, Go tier %q: want the same error", errs[TierHost], errs[TierGo])
	}
}

// TestHostLoadErrors checks the errors of host code that does not load:
// bytes that are no shared object, and an object without the entry.
func TestHostLoadErrors(t *testing.T) {
	code := hostCode(t)
	d := openHost(t, TierHost, 1)
	bad := withHost(saxpyKernel, "\x7fELF, and no shared object "+strings.Repeat("x", 1000))
	missing := *saxpyKernel
	missing.Name, missing.Artifacts = "cpu.missing", hostArtifacts(code, "missing")
	for _, c := range []struct {
		k    *driver.Kernel
		says []string
	}{
		{bad, []string{"cpu.saxpy", ".so: ", "ELF"}},
		{&missing, []string{"cpu.missing", ".so", "no entry xpu_missing", "undefined symbol"}},
	} {
		_, err := d.Compile(c.k)
		if !errors.Is(err, ErrNoLowering) || !errors.Is(err, ErrHostLoad) {
			t.Errorf("Compile(%s): err = %v, want ErrNoLowering and ErrHostLoad", c.k.Name, err)
			continue
		}
		t.Logf("Compile(%s): %v", c.k.Name, err)
		for _, s := range c.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("Compile(%s): %q does not say %q", c.k.Name, err, s)
			}
		}
	}
}

// TestHostCallShare checks how a host launch's work-items are shared
// out by the entry's measured cost: before a call has measured it, a call
// runs at least hostChunkItems; a light kernel (a 32Ki-element saxpy in
// about 4 us) then stays on one worker, a heavy one's small launch (four
// blocks of 256 work-items of about 1 us each) is spread over both.
func TestHostCallShare(t *testing.T) {
	var prog program
	if got := prog.leastItems(); got != hostChunkItems {
		t.Errorf("unmeasured: %d work-items a call, want %d", got, hostChunkItems)
	}
	p := pool{workers: 2}
	prog.noteCost(4*time.Microsecond, 32<<10)
	if w, _ := p.plan(128, prog.leastItems()/256); w != 1 {
		t.Errorf("a light kernel's 128 blocks of 256 run on %d workers, want 1", w)
	}
	prog.noteCost(time.Millisecond, 1024)
	if w, _ := p.plan(4, max(prog.leastItems()/256, 1)); w != 2 {
		t.Errorf("a heavy kernel's 4 blocks of 256 run on %d workers, want 2", w)
	}
	prog.noteCost(0, 100)
	prog.noteCost(time.Second, 0)
	if got := prog.leastItems(); got != 10 {
		t.Errorf("after calls that measured nothing, %d work-items a call; want the last measure's 10", got)
	}
}

// TestHostBufferLife checks the pin a host-tier device's buffer holds
// for its life: it ends with Release (twice is harmless) and, for a
// buffer never released, once the buffer is collected, so that its
// memory is freed in both cases; and a launch after it runs right.
func TestHostBufferLife(t *testing.T) {
	d := openHost(t, TierHost, 2)
	var mems []weak.Pointer[byte]
	for i := range 32 {
		b, err := d.NewBuffer(16 << (i % 12))
		if err != nil {
			t.Fatal(err)
		}
		if b.(*buffer).pin == nil {
			t.Fatal("a host-tier device's buffer is not pinned")
		}
		mems = append(mems, weak.Make(unsafe.SliceData(b.(*buffer).mem)))
		if i%2 == 0 {
			b.Release()
			b.Release()
		}
	}
	// A buffer's cleanup unpins it after one collection, the next frees it.
	for deadline := time.Now().Add(10 * time.Second); ; {
		runtime.GC()
		live := 0
		for _, m := range mems {
			if m.Value() != nil {
				live++
			}
		}
		if live == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d buffers' memory still held", live, len(mems))
		}
		time.Sleep(time.Millisecond)
	}
	if b, _ := openHost(t, TierGo, 1).NewBuffer(64); b.(*buffer).pin != nil {
		t.Error("a Go-tier device's buffer is pinned")
	}
	TestHostSaxpy(t)
}

// TestHostConcurrent launches on several devices and queues at once,
// compiling each kernel on each device as it goes: the process opens the
// object once, and every launch's result is right (go test -race).
func TestHostConcurrent(t *testing.T) {
	k := withHost(saxpyKernel, hostCode(t))
	devs := []driver.Device{openHost(t, TierHost, 2), openHost(t, TierAuto, 3)}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- saxpyOnce(devs[g%len(devs)], k, 200+g*37)
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

// saxpyOnce runs k (saxpy) once on d over n random elements and checks
// the result against Go's arithmetic.
func saxpyOnce(d driver.Device, k *driver.Kernel, n int) error {
	x, y := make([]float32, n), make([]float32, n)
	raw := make([]byte, 4*n)
	for i := range x {
		x[i], y[i] = rand.Float32(), rand.Float32()
	}
	a := rand.Float32()
	put := func(v []float32) (driver.Buffer, error) {
		b, err := d.NewBuffer(4 * n)
		if err != nil {
			return nil, err
		}
		for i, e := range v {
			binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(e))
		}
		return b, b.Write(0, raw)
	}
	bx, err := put(x)
	if err != nil {
		return err
	}
	by, err := put(y)
	if err != nil {
		return err
	}
	p, err := d.Compile(k)
	if err != nil {
		return err
	}
	q, err := d.NewQueue()
	if err != nil {
		return err
	}
	defer q.Release()
	if err := q.Launch(context.Background(), p, xpu.Dim3{X: xpu.GroupsFor(uint32(n), 64)}, []driver.Buffer{by, bx}, uniforms(math.Float32bits(a), uint32(n))); err != nil {
		return err
	}
	if err := by.Read(context.Background(), 0, raw); err != nil {
		return err
	}
	for i, got := range driver.CPUView[float32](raw) {
		if want := a*x[i] + y[i]; got != want {
			return fmt.Errorf("n %d: y[%d] = %v, want %v", n, i, got, want)
		}
	}
	return nil
}

// TestDriverHost runs the driver-contract suite at the host tier only:
// the suite's Add and Spin kernels run their entries in the test object.
func TestDriverHost(t *testing.T) {
	code := hostCode(t)
	cache := t.TempDir()
	drivertest.Run(t, drivertest.Config{
		Open: func() (driver.Device, error) {
			return New(Config{Facts: hostFacts(), Tier: TierHost, CacheDir: cache})
		},
		Required: true,
		Backend:  schema.BackendCPU,
		Code: drivertest.Code{
			Add:  func(k *driver.Kernel) { k.Artifacts = append(hostArtifacts(code, "add"), goCode(addCPU)...) },
			Spin: func(k *driver.Kernel) { k.Artifacts = append(hostArtifacts(code, "spin"), goCode(spinCPU)...) },
		},
		Refusals: func(add *driver.Kernel) []drivertest.Refusal {
			goOnly, bad := *add, *add
			goOnly.Name, goOnly.Artifacts = "drivertest.goonly", goCode(addCPU)
			bad.Name, bad.Artifacts = "drivertest.bad", hostArtifacts("\x7fELF, not an object", "bad")
			return append(refusals(add),
				drivertest.Refusal{Why: "no host artifact", Kernel: &goOnly, Says: []string{goOnly.Name, "no llvm-host artifact"}},
				drivertest.Refusal{Why: "host code that does not load", Kernel: &bad, Says: []string{bad.Name, "does not load"}},
			)
		},
		CheckInfo: func(t *testing.T, d driver.Device) {
			checkInfo(t, d)
			if info := d.Info(); info.Native != schema.TargetLLVMHost || info.ISA != "x86-64-v3" {
				t.Errorf("Info: Native %q, ISA %q; want llvm-host, x86-64-v3", info.Native, info.ISA)
			}
		},
		RunsOnRecord: true,
		LeakCycles:   400,
		LongWork:     2 * time.Second,
	})
}

// The cache tests run this test binary again as a helper process: with
// $XPU_CPU_HOST_HELPER set, TestHostHelperProcess opens the device as
// Open does, from the environment, and runs saxpy at the host tier from
// the object at $XPU_CPU_HOST_HELPER.
const helperEnv = "XPU_CPU_HOST_HELPER"

func TestHostHelperProcess(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("run by the cache tests only")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	if err := saxpyOnce(d, withHost(saxpyKernel, string(raw)), 999); err != nil {
		t.Fatal(err)
	}
}

// helper runs TestHostHelperProcess in a new process with env added.
func helper(t *testing.T, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostHelperProcess$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), append([]string{helperEnv + "=" + hostObject.path, tierEnv + "=llvm-host"}, env...)...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestHostHelperProcess") {
		t.Fatalf("helper process (%v): %v\n%s", env, err, out)
	}
}

// TestHostCache checks the cache across processes: the first writes the
// object, named by its hash; the next reuses the file; a corrupt file is
// replaced (renamed over, not written in place); and where the cache
// cannot be written, a temporary folder serves and is removed.
func TestHostCache(t *testing.T) {
	if Detect().X64Level < 3 {
		t.Skip("the helper process opens a device of the processor's own facts, below x86-64-v3")
	}
	code := hostCode(t)
	dir := t.TempDir()
	sum := sha256.Sum256([]byte(code))
	file := filepath.Join(dir, hex.EncodeToString(sum[:])+".so")
	inode := func() uint64 {
		t.Helper()
		st, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(file)
		if err != nil || string(raw) != code {
			t.Fatalf("%s does not hold the object (%v)", file, err)
		}
		return st.Sys().(*syscall.Stat_t).Ino
	}

	helper(t, cacheEnv+"="+dir)
	first := inode()
	helper(t, cacheEnv+"="+dir)
	if inode() != first {
		t.Error("a second process wrote the cached file again")
	}
	if err := os.WriteFile(file, []byte(code[:len(code)/2]), 0o644); err != nil {
		t.Fatal(err)
	}
	helper(t, cacheEnv+"="+dir)
	if inode() == first {
		t.Error("the corrupt file was written in place, not replaced")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left in the cache: %v", left)
	}

	// A cache folder below a plain file cannot be made.
	blocked := filepath.Join(dir, "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	helper(t, cacheEnv+"="+filepath.Join(blocked, "cache"), "TMPDIR="+tmp)
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the temporary folder is left: %v", left)
	}
}

// HostCodeForTest gives the external tests of this folder the test
// object (see hostCode).
func HostCodeForTest(t testing.TB) string { return hostCode(t) }

// BenchmarkLaunch times one launch of saxpy at each tier: over one block
// of 64 (the fixed cost of a launch, which the host tier pays in pinning
// and one call into native code per chunk) and over 2^20 elements.
func BenchmarkLaunch(b *testing.B) {
	k := withHost(saxpyKernel, hostCode(b))
	for _, n := range []int{64, 1 << 20} {
		for _, tier := range []Tier{TierGo, TierHost} {
			b.Run(fmt.Sprintf("n=%d/%v", n, tier), func(b *testing.B) {
				d, err := New(Config{Facts: hostFacts(), Tier: tier, CacheDir: b.TempDir()})
				if err != nil {
					b.Fatal(err)
				}
				p, err := d.Compile(k)
				if err != nil {
					b.Fatal(err)
				}
				q, _ := d.NewQueue()
				y, _ := d.NewBuffer(4 * n)
				x, _ := d.NewBuffer(4 * n)
				u := uniforms(math.Float32bits(2), uint32(n))
				bufs := []driver.Buffer{y, x}
				groups := xpu.Dim3{X: xpu.GroupsFor(uint32(n), 64)}
				ctx := context.Background()
				for b.Loop() {
					if err := q.Launch(ctx, p, groups, bufs, u); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
