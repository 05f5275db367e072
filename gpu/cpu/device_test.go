package cpu

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// The kernels of these tests and their Go lowerings written by hand, as
// codegen would write them: the device is tested without codegen.

func saxpy(t xpu.Thread, y, x []float32, a float32, n uint32) {
	if i := t.GlobalX(); i < n {
		y[i] = a*x[i] + y[i]
	}
}

func saxpyCPU(b *driver.CPUBlock) {
	y, x := driver.CPUView[float32](b.Buffers[0]), driver.CPUView[float32](b.Buffers[1])
	a, n := driver.CPUUniform[float32](b.Uniforms, 0), driver.CPUUniform[uint32](b.Uniforms, 4)
	for lx := range uint32(64) {
		if i := b.Group.X*64 + lx; i < n {
			y[i] = a*x[i] + y[i]
		}
	}
}

var saxpyKernel = &driver.Kernel{
	Name:  "cpu.saxpy",
	Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
	Params: []schema.Param{
		{Name: "y", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "float32"}, Size: 4, Access: schema.AccessReadWrite, Binding: 0},
		{Name: "x", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "float32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
		{Name: "a", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "float32"}, Size: 4, Binding: 0},
		{Name: "n", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 4},
	},
	UniformSize: 16,
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: saxpyCPU},
	},
}

// blockReverse reverses each block of 64 through a shared array.
func blockReverse(t xpu.Thread, out, in []int32) {
	s := xpu.Shared[int32](t, 64)
	l := t.LocalIndex()
	s[l] = in[t.GlobalX()]
	t.Barrier()
	out[t.GlobalX()] = s[63-l]
}

func blockReverseCPU(b *driver.CPUBlock) {
	out, in := driver.CPUView[int32](b.Buffers[0]), driver.CPUView[int32](b.Buffers[1])
	var s [64]int32
	for lx := range uint32(64) {
		s[lx] = in[b.Group.X*64+lx]
	}
	for lx := range uint32(64) {
		out[b.Group.X*64+lx] = s[63-lx]
	}
}

var blockReverseKernel = &driver.Kernel{
	Name:  "cpu.blockReverse",
	Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
	Params: []schema.Param{
		{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "int32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
		{Name: "in", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "int32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
	},
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: blockReverseCPU},
	},
}

// divide divides elementwise; a zero divisor fails the block.
func divideCPU(b *driver.CPUBlock) {
	q, d := driver.CPUView[int32](b.Buffers[0]), driver.CPUView[int32](b.Buffers[1])
	for lx := range uint32(64) {
		i := b.Group.X*64 + lx
		q[i] /= d[i]
	}
}

var divideKernel = &driver.Kernel{
	Name:  "cpu.divide",
	Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
	Params: []schema.Param{
		{Name: "q", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "int32"}, Size: 4, Access: schema.AccessReadWrite, Binding: 0},
		{Name: "d", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "int32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
	},
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: divideCPU},
	},
}

func openTest(t *testing.T, workers int) driver.Device {
	t.Helper()
	d, err := New(Config{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// upload returns a device buffer holding the bytes of v (a []float32 or
// []int32).
func upload[T float32 | int32](t *testing.T, d driver.Device, v []T) driver.Buffer {
	t.Helper()
	b, err := d.NewBuffer(4 * len(v))
	if err != nil {
		t.Fatal(err)
	}
	raw := make([]byte, 4*len(v))
	for i, e := range v {
		var w uint32
		switch e := any(e).(type) {
		case float32:
			w = math.Float32bits(e)
		case int32:
			w = uint32(e)
		}
		binary.LittleEndian.PutUint32(raw[4*i:], w)
	}
	if err := b.Write(0, raw); err != nil {
		t.Fatal(err)
	}
	return b
}

func download[T float32 | int32](t *testing.T, b driver.Buffer, n int) []T {
	t.Helper()
	raw := make([]byte, 4*n)
	if err := b.Read(context.Background(), 0, raw); err != nil {
		t.Fatal(err)
	}
	return driver.CPUView[T](raw)
}

func launch(t *testing.T, d driver.Device, k *driver.Kernel, groups uint32, uniforms []byte, bufs ...driver.Buffer) error {
	t.Helper()
	p, err := d.Compile(k)
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	if err := q.Launch(context.Background(), p, xpu.Dim3{X: groups}, bufs, uniforms); err != nil {
		return err
	}
	return q.Sync(context.Background())
}

func TestSaxpyMatchesReference(t *testing.T) {
	for _, workers := range []int{1, 2, 7} {
		d := openTest(t, workers)
		const n = 1000
		groups := xpu.GroupsFor(n, 64)
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = rand.Float32()*2-1, rand.Float32()*2-1
		}
		a := rand.Float32()
		bx, by := upload(t, d, x), upload(t, d, y)
		u := make([]byte, 16)
		binary.LittleEndian.PutUint32(u, math.Float32bits(a))
		binary.LittleEndian.PutUint32(u[4:], n)
		if err := launch(t, d, saxpyKernel, groups, u, by, bx); err != nil {
			t.Fatal(err)
		}
		if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: groups}, Block: xpu.Dim3{X: 64}}, saxpy, y, x, a, uint32(n)); err != nil {
			t.Fatal(err)
		}
		// The same Go arithmetic runs on both sides: bit-exact.
		for i, got := range download[float32](t, by, n) {
			if got != y[i] {
				t.Fatalf("workers %d: y[%d] = %v, reference %v", workers, i, got, y[i])
			}
		}
	}
}

func TestSharedBlocksMatchReference(t *testing.T) {
	d := openTest(t, 0)
	const n = 64 * 37
	in, out := make([]int32, n), make([]int32, n)
	for i := range in {
		in[i], out[i] = rand.Int32(), -1
	}
	bin, bout := upload(t, d, in), upload(t, d, out) // out is poisoned
	if err := launch(t, d, blockReverseKernel, n/64, nil, bout, bin); err != nil {
		t.Fatal(err)
	}
	if err := xpu.Run(xpu.Config{Groups: xpu.Dim3{X: n / 64}, Block: xpu.Dim3{X: 64}}, blockReverse, out, in); err != nil {
		t.Fatal(err)
	}
	for i, got := range download[int32](t, bout, n) {
		if got != out[i] {
			t.Fatalf("out[%d] = %d, reference %d", i, got, out[i])
		}
	}
}

func TestDivisionByZeroIsAnError(t *testing.T) {
	d := openTest(t, 0)
	q, dv := make([]int32, 256), make([]int32, 256)
	for i := range q {
		q[i], dv[i] = rand.Int32(), 1+rand.Int32N(100)
	}
	dv[200] = 0
	err := launch(t, d, divideKernel, 4, nil, upload(t, d, q), upload(t, d, dv))
	if !errors.Is(err, ErrKernel) || !strings.Contains(err.Error(), "cpu.divide") || !strings.Contains(err.Error(), "{3 0 0}") {
		t.Fatalf("err = %v, want ErrKernel naming cpu.divide and group {3 0 0}", err)
	}
}

func TestKernelWithoutLoweringIsRefusedByName(t *testing.T) {
	d := openTest(t, 0)
	for _, k := range []*driver.Kernel{
		{Name: "pkg.NoCPU", Block: xpu.Dim3{X: 1, Y: 1, Z: 1}},
		{Name: "pkg.Refused", Block: xpu.Dim3{X: 1, Y: 1, Z: 1}, Artifacts: []schema.Artifact{
			{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: saxpyCPU},
		},
			Refused: "[xpu-requires] member Refused: requires false"},
	} {
		_, err := d.Compile(k)
		if !errors.Is(err, ErrNoLowering) || !strings.Contains(err.Error(), k.Name) {
			t.Errorf("Compile(%s) = %v, want ErrNoLowering naming it", k.Name, err)
		}
	}
}

func TestBadLaunchesAreRefused(t *testing.T) {
	d := openTest(t, 0)
	other := openTest(t, 0)
	b, _ := d.NewBuffer(4 * 64)
	ob, _ := other.NewBuffer(4 * 64)
	u := make([]byte, 16)
	for name, bufs := range map[string][]driver.Buffer{
		"too few buffers":         {b},
		"another device's buffer": {b, ob},
	} {
		if err := launch(t, d, saxpyKernel, 1, u, bufs...); !errors.Is(err, ErrLaunch) {
			t.Errorf("%s: err = %v, want ErrLaunch", name, err)
		}
	}
	if err := launch(t, d, saxpyKernel, 1, u[:4], b, b); !errors.Is(err, ErrLaunch) {
		t.Errorf("short uniforms: err = %v, want ErrLaunch", err)
	}
	if err := launch(t, d, saxpyKernel, 0, u, b, b); !errors.Is(err, ErrLaunch) {
		t.Errorf("empty grid: err = %v, want ErrLaunch", err)
	}
}

func TestInjectedFactsAreReported(t *testing.T) {
	f := Facts{Vendor: "AMD", Model: "Test Processor", LogicalCores: 2, SIMD: SIMDAVX2FMA, L2: 512 << 10}
	d, err := New(Config{Facts: &f, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	info := d.Info()
	want := map[string]string{
		"vendor": "AMD", "model": "Test Processor", "cores.logical": "2", "simd": "avx2+fma",
		"lanes": "8", "cache.l2": "524288",
	}
	for k, v := range want {
		if info.Facts[k] != v {
			t.Errorf("fact %s = %q, want %q", k, info.Facts[k], v)
		}
	}
	for _, absent := range []string{"cores.physical", "cache.l1d", "cache.l3", "cache.line"} {
		if v, ok := info.Facts[absent]; ok {
			t.Errorf("fact %s = %q, want it absent", absent, v)
		}
	}
	if info.Backend != "cpu" || info.Limits.SubgroupMin != 8 || info.Workers != 3 {
		t.Errorf("info = %+v", info)
	}
	p, err := d.Compile(saxpyKernel)
	if err != nil {
		t.Fatal(err)
	}
	if w := p.(*program).wave; w != 8 {
		t.Errorf("wave of a width-agnostic kernel = %d, want the lane width 8", w)
	}
}

func TestLaneWidths(t *testing.T) {
	for s, want := range map[SIMD]uint32{SIMDNone: 1, SIMDSSE4: 4, SIMDNEON: 4, SIMDAVX2FMA: 8, SIMDAVX512: 16} {
		if got := s.Lanes(); got != want {
			t.Errorf("%v lanes = %d, want %d", s, got, want)
		}
	}
}

func TestDetectedFactsHaveNoZeros(t *testing.T) {
	for k, v := range Detect().Map() {
		if v == "" || v == "0" {
			t.Errorf("fact %s = %q: an unreadable fact must be absent", k, v)
		}
	}
	t.Logf("facts: %v", Detect().Map())
}

// TestBufferMemory checks that the device reports the machine's physical
// memory (/proc/meminfo's MemTotal on Linux; a wasm program run by Node
// may read that file too, but cannot ask the system) as its largest
// buffer and refuses a larger one with an error: Go would end the program
// on an allocation the system cannot give.
func TestBufferMemory(t *testing.T) {
	d := openTest(t, 0)
	lim := d.Info().Limits.MaxBufferBytes
	if raw, err := os.ReadFile("/proc/meminfo"); err == nil && runtime.GOOS == "linux" {
		var kb uint64
		for _, line := range strings.Split(string(raw), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
				kb, _ = strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			}
		}
		if got := d.Info().Facts["memory"]; got != strconv.FormatUint(lim, 10) {
			t.Errorf("fact memory = %q, want MaxBufferBytes %d", got, lim)
		}
		// MemTotal is rounded to kB; Sysinfo's total is exact.
		if kb == 0 || lim/1024 != kb {
			t.Errorf("MaxBufferBytes = %d, want MemTotal %d kB", lim, kb)
		}
	}
	for _, size := range []int{int(min(lim+1, math.MaxInt)), math.MaxInt, -1} {
		if _, err := d.NewBuffer(size); !errors.Is(err, ErrLaunch) {
			t.Errorf("NewBuffer(%d): err = %v, want ErrLaunch", size, err)
		}
	}
}
