//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// These tests drive the device through the driver contract alone.

// addKernel: out[i] = in[i] + k. Its layout declares a third buffer that
// the WGSL never touches: the explicit layout must keep it bound.
var addKernel = &driver.Kernel{
	Name:  "dawn.add",
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

// openTest opens a device; with XPU_WEBGPU=dawn or webgpu in XPU_REQUIRE
// a missing library fails the test instead of skipping it.
func openTest(t testing.TB) *device {
	t.Helper()
	dd, err := open()
	if errors.Is(err, driver.ErrUnavailable) && os.Getenv("XPU_WEBGPU") != "dawn" &&
		!slices.Contains(strings.Split(os.Getenv("XPU_REQUIRE"), ","), "webgpu") {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	d := dd.(*device)
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

func u32Bytes(v []uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

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
	t.Logf("%s (%s, %s): %+v %v", info.Name, info.Type, info.Driver, l, info.Facts)
	if info.Backend != "webgpu" || info.Name == "" || info.Driver == "" || info.Type == "" {
		t.Errorf("info %+v lacks a name, driver or type", info)
	}
	if info.Driver == "null" {
		t.Error("Dawn's Null backend was not refused")
	}
	if l.MaxInvocationsPerBlock == 0 || l.MaxBlockSize.X == 0 || l.MaxGroups == 0 || l.MaxSharedBytes == 0 ||
		l.MaxStorageBuffers == 0 || l.MaxStorageBufferBytes == 0 || l.MaxBufferBytes == 0 || l.UniformOffsetAlignment == 0 {
		t.Errorf("limits %+v: a limit Dawn reports is zero", l)
	}
	// The device was raised to the adapter's compute limits.
	var al limits
	wgpu.adapterGetLimits(d.adapter, &al)
	if l.MaxInvocationsPerBlock != al.maxComputeInvocationsPerWorkgroup || l.MaxSharedBytes != al.maxComputeWorkgroupStorageSize {
		t.Errorf("device limits %+v below the adapter's (%d invocations, %d shared bytes)",
			l, al.maxComputeInvocationsPerWorkgroup, al.maxComputeWorkgroupStorageSize)
	}
	if info.Facts["webgpu-driver"] != "dawn" {
		t.Errorf("facts %v do not name the driver", info.Facts)
	}
	// On lavapipe (the test machines' device) the facts are known.
	if strings.HasPrefix(info.Name, "llvmpipe") {
		if l.SubgroupMin != 8 || l.SubgroupMax != 8 {
			t.Errorf("llvmpipe subgroup sizes %d..%d, want 8..8", l.SubgroupMin, l.SubgroupMax)
		}
		for _, f := range []string{"timestamp-query", "subgroups", "shader-f16"} {
			if info.Facts[f] != "true" {
				t.Errorf("llvmpipe: feature %s missing from %v", f, info.Facts)
			}
		}
		if !d.timestamps || !d.subgroups {
			t.Errorf("llvmpipe: timestamps %v, subgroups %v: not enabled on the device", d.timestamps, d.subgroups)
		}
	}
}

func TestLaunch(t *testing.T) {
	d := openTest(t)
	p, err := d.Compile(addKernel)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	const n = 1000
	in := make([]uint32, n)
	for i := range in {
		in[i] = rand.Uint32()
	}
	poison := make([]uint32, n)
	for i := range poison {
		poison[i] = 0xDEADBEEF
	}
	bufs := make([]driver.Buffer, 3)
	for i := range bufs {
		if bufs[i], err = d.NewBuffer(4 * n); err != nil {
			t.Fatal(err)
		}
		defer bufs[i].Release()
	}
	if err := bufs[0].Write(0, u32Bytes(poison)); err != nil {
		t.Fatal(err)
	}
	if err := bufs[1].Write(0, u32Bytes(in)); err != nil {
		t.Fatal(err)
	}
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	// More launches than the uniform ring holds between submits; the
	// last one's k is the one seen.
	const launches = 1500
	var k uint32
	for i := range launches {
		k = uint32(i) * 7919
		if err := q.Launch(p, xpu.Dim3{X: (n + 63) / 64, Y: 1, Z: 1}, bufs, u32Bytes([]uint32{k, 0, 0, 0})); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Flush(); err != nil {
		t.Fatal(err)
	}
	got := readU32(t, bufs[0])
	for i := range got {
		if got[i] != in[i]+k {
			t.Fatalf("out[%d] = %#x, want %#x", i, got[i], in[i]+k)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	d := openTest(t)
	bad := *addKernel
	bad.Name = "dawn.bad"
	bad.WGSL = strings.Replace(addKernel.WGSL, "in[i] + u.k", "in[i] + 1.5", 1)
	if _, err := d.Compile(&bad); err == nil || !strings.Contains(err.Error(), "dawn.bad") {
		t.Fatalf("invalid WGSL: %v", err)
	} else {
		t.Log(err)
	}
	// The shader's binding types must match the layout from the params.
	mismatch := *addKernel
	mismatch.Name = "dawn.mismatch"
	mismatch.Params = slices.Clone(addKernel.Params)
	mismatch.Params[1].Access = driver.AccessReadWrite
	mismatch.WGSL = strings.Replace(addKernel.WGSL, "var<storage, read_write> out", "var<uniform> out", 1)
	if _, err := d.Compile(&mismatch); err == nil {
		t.Fatal("a shader whose bindings disagree with its layout compiled")
	} else {
		t.Log(err)
	}
	// The device is still usable.
	if p, err := d.Compile(addKernel); err != nil {
		t.Fatal(err)
	} else {
		p.Release()
	}
}

// TestUncapturedError makes an error no scope catches (a dispatch over
// more groups than the device allows) and expects it from Sync as a Go
// error, with the device still usable after.
func TestUncapturedError(t *testing.T) {
	d := openTest(t)
	p, err := d.Compile(addKernel)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	bufs := make([]driver.Buffer, 3)
	for i := range bufs {
		if bufs[i], err = d.NewBuffer(256); err != nil {
			t.Fatal(err)
		}
		defer bufs[i].Release()
	}
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	defer q.Release()
	huge := xpu.Dim3{X: d.info.Limits.MaxGroups + 1, Y: 1, Z: 1}
	if err := q.Launch(p, huge, bufs, make([]byte, 16)); err != nil {
		t.Fatal(err)
	}
	err = q.Sync()
	if err == nil || !strings.Contains(err.Error(), "validation") {
		t.Fatalf("a dispatch over %d groups: Sync returned %v, want a validation error", huge.X, err)
	}
	t.Log(err)
	if err := q.Launch(p, xpu.Dim3{X: 1, Y: 1, Z: 1}, bufs, make([]byte, 16)); err != nil {
		t.Fatal(err)
	}
	if err := q.Sync(); err != nil {
		t.Fatalf("after the error: %v", err)
	}
}

// TestMissingLibrary: a library that cannot be opened is reported as an
// unavailable backend.
func TestMissingLibrary(t *testing.T) {
	t.Setenv("XPU_WEBGPU_LIB", "/nonexistent/libwebgpu.so")
	if _, _, err := dlopen(); err == nil {
		t.Fatal("opened a library that does not exist")
	} else {
		t.Log(err)
	}
}
