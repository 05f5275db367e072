// Package drivertest is the conformance suite of the WebGPU drivers: one
// set of cases, run against each driver by a test of its own package
// through [Run], that drives a device through the driver contract
// (gpu/driver) alone.
//
// Layering: it imports the contract and the drivers' shared core
// (gpu/webgpu/internal/core), never a driver, the runtime or codegen.
package drivertest

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// Config describes a driver to the suite.
type Config struct {
	// Open opens a device of the driver.
	Open func() (driver.Device, error)
	// Required: an unavailable device fails the suite instead of
	// skipping it.
	Required bool
	// AdapterLimits returns the limits of the device's adapter, to check
	// that the device was raised to its compute limits; nil where the
	// binding does not report them.
	AdapterLimits func(d driver.Device) driver.Limits
	// NoType: the binding does not report the adapter's type.
	NoType bool
	// NoSubgroups: the binding reports no subgroup sizes.
	NoSubgroups bool
	// CompileErrorLine, when not empty, begins the line and column of a
	// WGSL compile error in its message ("WGSL: 11:").
	CompileErrorLine string
	// RefusesReadOnlyAsStorage: the binding refuses a read-write storage
	// layout entry for a shader's read-only storage buffer.
	RefusesReadOnlyAsStorage bool
	// RingRounds is how many uniform rings' worth of launches the ring
	// case records before it syncs.
	RingRounds int
	// LeakCycles is how many alloc/launch/free cycles the leak case
	// measures; 0 leaves it out (a host that reports no resident memory).
	LeakCycles int
	// AsyncErrors: the device survives a dispatch over more groups than
	// it allows, and reports it from Sync.
	AsyncErrors bool
	// AsyncErrorSays, when not empty, is a word that error holds.
	AsyncErrorSays string
	// LongWork is how long the work is that the case SyncWaitsForWork
	// waits for (at least three quarters of it is required); 0 leaves
	// the case out.
	LongWork time.Duration
}

// Run runs every case of the suite against the driver c describes, each
// as a subtest.
func Run(t *testing.T, c Config) {
	cases := []struct {
		name string
		run  func(*testing.T, Config)
	}{
		{"Info", testInfo},
		{"CompileErrors", testCompileErrors},
		{"Launch", testLaunch},
		{"Ring", testRing},
		{"Repeat", testRepeat},
		{"Timer", testTimer},
		{"NoLeaks", testNoLeaks},
		{"ReleaseRecorded", testReleaseRecorded},
		{"AsyncErrors", testAsyncErrors},
		{"WriteRead", testWriteRead},
		{"Views", testViews},
		{"SyncWaitsForWork", testSyncWaitsForWork},
		{"RunawayKernel", testRunawayKernel},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, c) })
	}
}

// open opens a device for t and closes it when t ends, failing t when
// Close reports an error.
func (c Config) open(t testing.TB) driver.Device {
	t.Helper()
	d, err := c.Open()
	if errors.Is(err, driver.ErrUnavailable) && !c.Required {
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
	return d
}

// addKernel: out[i] = in[i] + k. Its layout declares a third buffer that
// the WGSL never touches: the explicit layout must keep it bound.
var addKernel = &driver.Kernel{
	Name:  "drivertest.add",
	Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
	Params: []schema.Param{
		{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
		{Name: "in", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
		{Name: "unused", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessNone, Binding: 2},
		{Name: "k", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 0},
	},
	UniformSize: 16,
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: `
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
`},
	},
}

// setup compiles addKernel and makes a queue, both released when t ends.
func setup(t testing.TB, d driver.Device) (driver.Program, driver.Queue) {
	t.Helper()
	p, err := d.Compile(addKernel)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Release)
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(q.Release)
	return p, q
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
	if err := b.Read(bg, 0, raw); err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, len(raw)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return out
}

func mustBuffer(t testing.TB, d driver.Device, size int) driver.Buffer {
	t.Helper()
	b, err := d.NewBuffer(size)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bg is the context of the waits that need no bound.
var bg = context.Background()
