//go:build cgo

package webgpu

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// These tests drive the device through the driver contract alone.

// addKernel: out[i] = in[i] + k. Its layout declares a third buffer that
// the WGSL never touches: the explicit layout must keep it bound.
var addKernel = &driver.Kernel{
	Name:  "webgpu.add",
	Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
	Params: []driver.Param{
		{Name: "out", Kind: driver.ParamBuffer, Type: "uint32", Size: 4, Access: driver.AccessWrite, Binding: 0},
		{Name: "in", Kind: driver.ParamBuffer, Type: "uint32", Size: 4, Access: driver.AccessRead, Binding: 1},
		{Name: "unused", Kind: driver.ParamBuffer, Type: "uint32", Size: 4, Access: driver.AccessNone, Binding: 2},
		{Name: "k", Kind: driver.ParamScalar, Type: "uint32", Size: 4, Binding: 0},
	},
	UniformSize: 16,
	WGSL: `
struct Uniforms { k: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read> in: array<u32>;
@group(0) @binding(3) var<uniform> u: Uniforms;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
	let i = gid.x;
	if i < arrayLength(&in) {
		out[i] = in[i] + u.k;
	}
}
`,
}

func openTest(t testing.TB) *device {
	t.Helper()
	dd, err := open()
	if errors.Is(err, driver.ErrUnavailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	d := dd.(*device)
	t.Cleanup(func() { d.Close() })
	return d
}

func u32Bytes(v []uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func uniforms(k uint32) []byte { return u32Bytes([]uint32{k, 0, 0, 0}) }

func readU32(t testing.TB, b driver.Buffer) []uint32 {
	t.Helper()
	raw := make([]byte, b.Size())
	if err := b.Read(0, raw); err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, len(raw)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return out
}

func TestInfo(t *testing.T) {
	d := openTest(t)
	info := d.Info()
	l := info.Limits
	if info.Backend != "webgpu" || info.Name == "" || info.Driver == "" || info.Type == "" {
		t.Errorf("info %+v lacks a name, driver or type", info)
	}
	if l.MaxInvocationsPerBlock == 0 || l.MaxBlockSize.X == 0 || l.MaxGroups == 0 || l.MaxSharedBytes == 0 ||
		l.MaxStorageBuffers == 0 || l.MaxStorageBufferBytes == 0 || l.MaxBufferBytes == 0 || l.UniformOffsetAlignment == 0 {
		t.Errorf("limits %+v: a limit wgpu reports is zero", l)
	}
	if l.SubgroupMin != 0 || l.SubgroupMax != 0 {
		t.Errorf("wgpu 0.19 reports no subgroup sizes, got %d..%d", l.SubgroupMin, l.SubgroupMax)
	}
	// The device was raised to the adapter's compute limits.
	al := d.adapter.GetLimits().Limits
	if l.MaxInvocationsPerBlock != al.MaxComputeInvocationsPerWorkgroup || l.MaxSharedBytes != al.MaxComputeWorkgroupStorageSize {
		t.Errorf("device limits %+v below the adapter's (%d invocations, %d shared bytes)",
			l, al.MaxComputeInvocationsPerWorkgroup, al.MaxComputeWorkgroupStorageSize)
	}
	t.Logf("%s (%s, %s): %+v %v", info.Name, info.Type, info.Driver, l, info.Facts)
}

func TestCompileErrors(t *testing.T) {
	d := openTest(t)
	bad := *addKernel
	bad.Name = "webgpu.bad"
	bad.WGSL = strings.Replace(addKernel.WGSL, "in[i] + u.k", "in[i] + 1.5", 1)
	if _, err := d.Compile(&bad); err == nil || !strings.Contains(err.Error(), "webgpu.bad") {
		t.Fatalf("invalid WGSL: %v", err)
	} else {
		t.Log(err)
	}
	// The shader's binding types must match the layout from the params.
	mismatch := *addKernel
	mismatch.Params = append([]driver.Param(nil), addKernel.Params...)
	mismatch.Params[1].Access = driver.AccessReadWrite
	if _, err := d.Compile(&mismatch); err == nil {
		t.Fatal("a read_write layout for a read-only binding compiled")
	} else {
		t.Log(err)
	}
	// The device still works after errors.
	p, err := d.Compile(addKernel)
	if err != nil {
		t.Fatal(err)
	}
	p.Release()
}

// TestRing runs more launches than one uniform ring holds before a
// submit, each with its own scalar, on dependent data.
func TestRing(t *testing.T) {
	d := openTest(t)
	p, err := d.Compile(addKernel)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	const n = 100
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	in := make([]uint32, n)
	for i := range in {
		in[i] = r.Uint32()
	}
	a, b, unused := mustBuffer(t, d, 4*n), mustBuffer(t, d, 4*n), mustBuffer(t, d, 4)
	if err := a.Write(0, u32Bytes(in)); err != nil {
		t.Fatal(err)
	}
	want := append([]uint32(nil), in...)
	launches := 3*ringBytes/d.uniformAlign + 17
	for i := range launches {
		k := r.Uint32()
		src, dst := a, b
		if i%2 == 1 {
			src, dst = b, a
		}
		if err := q.Launch(p, xpu.Dim3{X: 2, Y: 1, Z: 1}, []driver.Buffer{dst, src, unused}, uniforms(k)); err != nil {
			t.Fatal(err)
		}
		for j := range want {
			want[j] += k
		}
	}
	if err := q.Sync(); err != nil {
		t.Fatal(err)
	}
	final := b
	if launches%2 == 0 {
		final = a
	}
	for i, v := range readU32(t, final) {
		if v != want[i] {
			t.Fatalf("after %d launches: [%d] = %#x, want %#x", launches, i, v, want[i])
		}
	}
}

// TestNoLeaks allocates, launches and frees many times: the bind group
// cache empties, and the process does not grow by the buffers it freed
// (on a software adapter device memory is host memory).
func TestNoLeaks(t *testing.T) {
	d := openTest(t)
	p, err := d.Compile(addKernel)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	const size = 1 << 20
	cycle := func(i int) {
		a, b, c := mustBuffer(t, d, size), mustBuffer(t, d, size), mustBuffer(t, d, 4)
		for j := range 3 {
			if err := q.Launch(p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{b, a, c}, uniforms(uint32(i+j))); err != nil {
				t.Fatal(err)
			}
		}
		if i%3 == 0 {
			if err := b.Read(0, make([]byte, 64)); err != nil {
				t.Fatal(err)
			}
		}
		a.Release()
		b.Release()
		c.Release()
		if i%2 == 0 {
			if err := q.Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 20 {
		cycle(i)
	}
	if err := q.Sync(); err != nil {
		t.Fatal(err)
	}
	before := residentBytes(t)
	const cycles = 400
	for i := range cycles {
		cycle(i)
	}
	if err := q.Sync(); err != nil {
		t.Fatal(err)
	}
	d.dev.Poll(true, nil)
	after := residentBytes(t)
	if n := d.groups.size(); n != 0 {
		t.Errorf("%d bind groups cached after every buffer was released", n)
	}
	// A leak of the buffers alone would be 2*size*cycles = 800 MiB.
	if before > 0 && after-before > 64<<20 {
		t.Errorf("resident memory grew by %d MiB over %d cycles of %d MiB", (after-before)>>20, cycles, 2*size>>20)
	}
	t.Logf("resident memory: %d MiB before, %d MiB after %d cycles", before>>20, after>>20, cycles)
}

// residentBytes returns the resident set size of the process, or 0 where
// the system does not say.
func residentBytes(t testing.TB) int64 {
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

func mustBuffer(t testing.TB, d *device, size int) driver.Buffer {
	t.Helper()
	b, err := d.NewBuffer(size)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
