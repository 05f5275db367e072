// Package webgputest runs the driver-contract suite (gpu/driver/drivertest)
// on a WebGPU driver: it gives the suite's kernels their WGSL, names the
// kernels a WebGPU driver must refuse (invalid WGSL, a shader whose
// bindings disagree with the layout), and answers what the suite asks of
// a driver from the drivers' shared core (its errors, its bind groups, its
// uniform ring), with the checks of a device's Info that only WebGPU has
// (the subgroup probe, the adapter's compute limits).
//
// Layering: it imports the suite, the contract and the drivers' shared
// core (gpu/webgpu/internal/core), never a driver, the runtime or codegen.
package webgputest

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/driver/drivertest"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
	"github.com/goxpu/xpu/schema"
)

// Config describes a WebGPU driver to the suite.
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
	// LeakCycles, AsyncErrors, AsyncErrorSays and LongWork are those of
	// drivertest.Config.
	LeakCycles     int
	AsyncErrors    bool
	AsyncErrorSays string
	LongWork       time.Duration
}

// Run runs the driver-contract suite on the WebGPU driver c describes.
func Run(t *testing.T, c Config) {
	drivertest.Run(t, drivertest.Config{
		Open:     c.Open,
		Required: c.Required,
		Backend:  schema.BackendWebGPU,
		Code: drivertest.Code{
			Add:  func(k *driver.Kernel) { k.Artifacts = wgsl(addWGSL) },
			Spin: func(k *driver.Kernel) { k.Artifacts = wgsl(spinWGSL) },
		},
		Refusals:  c.refusals,
		CheckInfo: c.checkInfo,
		NoType:    c.NoType,
		Errors:    func(d driver.Device) error { return core.Of(d).Errors() },
		Bindings:  func(d driver.Device) int { return core.Of(d).BindGroups() },
		RingLaunches: func(d driver.Device) int {
			return max(1, c.RingRounds)*core.RingBytes/core.Of(d).UniformAlign() + 17
		},
		ReadAlign:      4,
		WriteAlign:     4,
		LeakCycles:     c.LeakCycles,
		AsyncErrors:    c.AsyncErrors,
		AsyncErrorSays: c.AsyncErrorSays,
		LongWork:       c.LongWork,
	})
}

// addWGSL is the Add kernel. Its layout declares a third buffer that the
// WGSL never touches: the explicit layout must keep it bound.
const addWGSL = `
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
`

// spinWGSL is the Spin kernel: a GPU cannot stop a dispatch, so it reads
// no stop flag.
const spinWGSL = `
struct Uniforms { rounds: u32, inner: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> u: Uniforms;

@compute @workgroup_size(1)
fn main() {
	var x: u32 = 12345u;
	var i: u32 = 0u;
	for (; i < u.rounds; i++) {
		for (var j: u32 = 0u; j < u.inner; j++) {
			x = x * 1664525u + 1013904223u;
		}
	}
	out[0] = x;
	out[1] = i;
}
`

// refusals are the kernels a WebGPU driver's Compile refuses: invalid
// WGSL, and shaders whose bindings disagree with the layout the
// parameters make.
func (c Config) refusals(add *driver.Kernel) []drivertest.Refusal {
	bad := *add
	bad.Name = "drivertest.bad"
	bad.Artifacts = wgsl(strings.Replace(add.Artifacts[0].Code, "in[i] + u.k", "in[i] + 1.5", 1))
	rs := []drivertest.Refusal{{Why: "invalid WGSL", Kernel: &bad, Says: []string{bad.Name, c.CompileErrorLine}}}
	if c.RefusesReadOnlyAsStorage {
		rw := *add
		rw.Params = slices.Clone(add.Params)
		rw.Params[1].Access = schema.AccessReadWrite
		rs = append(rs, drivertest.Refusal{Why: "a read_write layout for a read-only binding", Kernel: &rw})
	}
	mismatch := *add
	mismatch.Name = "drivertest.mismatch"
	mismatch.Params = slices.Clone(add.Params)
	mismatch.Params[1].Access = schema.AccessReadWrite
	mismatch.Artifacts = wgsl(strings.Replace(add.Artifacts[0].Code, "var<storage, read_write> out", "var<uniform> out", 1))
	return append(rs, drivertest.Refusal{Why: "a shader whose bindings disagree with its layout", Kernel: &mismatch})
}

// checkInfo checks what a WebGPU device reports beyond every backend:
// every WebGPU limit, subgroups offered only with the layout the probe
// found, and the adapter's compute limits.
func (c Config) checkInfo(t *testing.T, d driver.Device) {
	info := d.Info()
	l := info.Limits
	if l.MaxStorageBuffers == 0 || l.UniformOffsetAlignment == 0 {
		t.Errorf("limits %+v: a limit WebGPU reports is zero", l)
	}
	// Subgroup sizes are offered to the wave tiers only on a device with
	// subgroups whose probed layout is the one they assume; a device with
	// subgroups reports the probe either way.
	layout, probed := info.Facts[core.LayoutFact]
	if info.Subgroups != probed {
		t.Errorf("subgroups %v with %s %q", info.Subgroups, core.LayoutFact, layout)
	}
	if (probed && layout == core.LayoutConsecutive) != (l.SubgroupMax > 0) {
		t.Errorf("subgroups %v, %s %q, with sizes %d..%d", info.Subgroups, core.LayoutFact, layout, l.SubgroupMin, l.SubgroupMax)
	}
	if c.NoSubgroups && (l.SubgroupMin != 0 || l.SubgroupMax != 0) {
		t.Errorf("the binding reports no subgroup sizes, got %d..%d", l.SubgroupMin, l.SubgroupMax)
	}
	if c.AdapterLimits != nil {
		// The device was raised to the adapter's compute limits.
		al := c.AdapterLimits(d)
		if l.MaxInvocationsPerBlock != al.MaxInvocationsPerBlock || l.MaxSharedBytes != al.MaxSharedBytes {
			t.Errorf("device limits %+v below the adapter's (%d invocations, %d shared bytes)",
				l, al.MaxInvocationsPerBlock, al.MaxSharedBytes)
		}
	}
}

// wgsl is the artifact list of a kernel whose code is the WGSL module
// code, for any WebGPU device.
func wgsl(code string) []schema.Artifact {
	return []schema.Artifact{{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: code}}
}
