//go:build js

package jsgpu

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"strings"
	"syscall/js"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// These tests drive the device through the driver contract alone. They
// need navigator.gpu: the browser test of package wasm runs them in a
// headless Chromium; under Node they are skipped.

// addKernel: out[i] = in[i] + k. Its layout declares a third buffer that
// the WGSL never touches: the explicit layout must keep it bound.
var addKernel = &driver.Kernel{
	Name:  "jsgpu.add",
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
	if nav := js.Global().Get("navigator"); nav.Type() != js.TypeObject || !nav.Get("gpu").Truthy() {
		t.Skip("no navigator.gpu in this JS host")
	}
	dd, err := Open()
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

func mustBuffer(t testing.TB, d *device, size int) driver.Buffer {
	t.Helper()
	b, err := d.NewBuffer(size)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestInfo(t *testing.T) {
	d := openTest(t)
	info := d.Info()
	l := info.Limits
	if info.Backend != "webgpu" || info.Name == "" || info.Driver == "" {
		t.Errorf("info %+v lacks a name or driver", info)
	}
	if l.MaxInvocationsPerBlock == 0 || l.MaxBlockSize.X == 0 || l.MaxGroups == 0 || l.MaxSharedBytes == 0 ||
		l.MaxStorageBuffers == 0 || l.MaxStorageBufferBytes == 0 || l.MaxBufferBytes == 0 || l.UniformOffsetAlignment == 0 {
		t.Errorf("limits %+v: a limit WebGPU reports is zero", l)
	}
	if (info.Facts["subgroups"] == "true") != (l.SubgroupMax > 0) || l.SubgroupMin > l.SubgroupMax {
		t.Errorf("subgroups fact %q with sizes %d..%d", info.Facts["subgroups"], l.SubgroupMin, l.SubgroupMax)
	}
	t.Logf("%s (%s, %s): %+v %v", info.Name, info.Type, info.Driver, l, info.Facts)
}

func TestCompileErrors(t *testing.T) {
	d := openTest(t)
	bad := *addKernel
	bad.Name = "jsgpu.bad"
	bad.WGSL = strings.Replace(addKernel.WGSL, "in[i] + u.k", "in[i] + 1.5", 1)
	_, err := d.Compile(&bad)
	if err == nil || !strings.Contains(err.Error(), "jsgpu.bad") || !strings.Contains(err.Error(), "WGSL: 11:") {
		t.Fatalf("invalid WGSL: %v, want an error naming the kernel and the line", err)
	}
	t.Log(err)
	// The shader's binding types must match the layout from the params.
	mismatch := *addKernel
	mismatch.Params = append([]driver.Param(nil), addKernel.Params...)
	mismatch.Params[1].Access = driver.AccessReadWrite
	if _, err := d.Compile(&mismatch); err == nil {
		t.Fatal("a read_write layout for a read-only binding compiled")
	} else {
		t.Log(err)
	}
	// The device still works after errors, and reports none of them
	// again.
	p, err := d.Compile(addKernel)
	if err != nil {
		t.Fatal(err)
	}
	p.Release()
	if err := d.takeErrors(); err != nil {
		t.Errorf("errors left over: %v", err)
	}
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
	launches := 2*ringBytes/d.uniformAlign + 17
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

// TestReleaseRecorded releases buffers that recorded launches use before
// their pass is submitted: the launches still run, on live memory, and the
// bind group cache empties.
func TestReleaseRecorded(t *testing.T) {
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
	out := mustBuffer(t, d, 4*64)
	defer out.Release()
	for round := range 3 {
		in, unused := mustBuffer(t, d, 4*64), mustBuffer(t, d, 4)
		if err := in.Write(0, u32Bytes(make([]uint32, 64))); err != nil {
			t.Fatal(err)
		}
		if err := q.Launch(p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{out, in, unused}, uniforms(uint32(round+7))); err != nil {
			t.Fatal(err)
		}
		in.Release()
		unused.Release()
		if err := q.Flush(); err != nil {
			t.Fatalf("round %d: flush after releasing recorded buffers: %v", round, err)
		}
	}
	if err := q.Sync(); err != nil {
		t.Fatal(err)
	}
	for i, v := range readU32(t, out) {
		if v != 9 {
			t.Fatalf("[%d] = %d, want 9", i, v)
		}
	}
	if n := d.groups.size(); n != 0 {
		t.Errorf("%d bind groups cached after their buffers were released", n)
	}
}

// TestAsyncErrors checks that a validation error WebGPU reports later (a
// dispatch over more groups than the device allows) comes back from Sync,
// once, and that the device goes on working.
func TestAsyncErrors(t *testing.T) {
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
	a, b, c := mustBuffer(t, d, 4*64), mustBuffer(t, d, 4*64), mustBuffer(t, d, 4)
	tooMany := xpu.Dim3{X: d.info.Limits.MaxGroups + 1, Y: 1, Z: 1}
	if err := q.Launch(p, tooMany, []driver.Buffer{a, b, c}, uniforms(1)); err != nil {
		t.Fatal(err)
	}
	err = q.Sync()
	if err == nil {
		t.Fatal("a dispatch over too many groups synced without an error")
	}
	t.Log(err)
	if err := q.Launch(p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{a, b, c}, uniforms(5)); err != nil {
		t.Fatal(err)
	}
	if err := q.Sync(); err != nil {
		t.Fatalf("the device kept an old error: %v", err)
	}
	if got := readU32(t, a); got[63] != 5 {
		t.Fatalf("after an error: [63] = %d, want 5", got[63])
	}
}

// TestWriteRead checks unaligned writes and reads at offsets.
func TestWriteRead(t *testing.T) {
	d := openTest(t)
	b := mustBuffer(t, d, 10)
	defer b.Release()
	if err := b.Write(0, []byte{1, 2, 3, 4, 5, 6}); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 6)
	if err := b.Read(4, got[:4]); err != nil {
		t.Fatal(err)
	}
	if string(got[:2]) != "\x05\x06" {
		t.Errorf("read at 4: % x", got[:4])
	}
	if err := b.Read(2, got); err == nil {
		t.Error("a read at an unaligned offset succeeded")
	}
	if _, err := d.NewBuffer(int(min(d.info.Limits.MaxBufferBytes+4, 1<<53))); err == nil {
		t.Error("a buffer over the device's limit was allocated")
	}
	if err := errors.Join(d.takeErrors()); err != nil {
		t.Errorf("errors left over: %v", err)
	}
}
