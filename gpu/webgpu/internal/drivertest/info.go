package drivertest

// This file holds the cases of a device's description and of compiling.

import (
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

func testInfo(t *testing.T, c Config) {
	d := c.open(t)
	info := d.Info()
	l := info.Limits
	t.Logf("%s (%s, %s): %+v %v", info.Name, info.Type, info.Driver, l, info.Facts)
	if info.Backend != "webgpu" || info.Name == "" || info.Driver == "" || (info.Type == "" && !c.NoType) {
		t.Errorf("info %+v lacks a name, driver or type", info)
	}
	if l.MaxInvocationsPerBlock == 0 || l.MaxBlockSize.X == 0 || l.MaxGroups == 0 || l.MaxSharedBytes == 0 ||
		l.MaxStorageBuffers == 0 || l.MaxStorageBufferBytes == 0 || l.MaxBufferBytes == 0 || l.UniformOffsetAlignment == 0 {
		t.Errorf("limits %+v: a limit the device reports is zero", l)
	}
	// Subgroup sizes are offered to the wave tiers only on a device with
	// subgroups whose probed layout is the one they assume; a device with
	// subgroups reports the probe either way.
	layout, probed := info.Facts[core.LayoutFact]
	if info.Subgroups != probed {
		t.Errorf("subgroups %v with %s %q", info.Subgroups, core.LayoutFact, layout)
	}
	if (probed && layout == core.LayoutConsecutive) != (l.SubgroupMax > 0) || l.SubgroupMin > l.SubgroupMax {
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

func testCompileErrors(t *testing.T, c Config) {
	d := c.open(t)
	bad := *addKernel
	bad.Name = "drivertest.bad"
	bad.WGSL = strings.Replace(addKernel.WGSL, "in[i] + u.k", "in[i] + 1.5", 1)
	_, err := d.Compile(&bad)
	if err == nil || !strings.Contains(err.Error(), bad.Name) || !strings.Contains(err.Error(), c.CompileErrorLine) {
		t.Fatalf("invalid WGSL: %v, want an error naming the kernel (and the line: %q)", err, c.CompileErrorLine)
	}
	t.Log(err)
	// The shader's binding types must match the layout from the params.
	if c.RefusesReadOnlyAsStorage {
		mismatch := *addKernel
		mismatch.Params = slices.Clone(addKernel.Params)
		mismatch.Params[1].Access = driver.AccessReadWrite
		if _, err := d.Compile(&mismatch); err == nil {
			t.Fatal("a read_write layout for a read-only binding compiled")
		} else {
			t.Log(err)
		}
	}
	mismatch := *addKernel
	mismatch.Name = "drivertest.mismatch"
	mismatch.Params = slices.Clone(addKernel.Params)
	mismatch.Params[1].Access = driver.AccessReadWrite
	mismatch.WGSL = strings.Replace(addKernel.WGSL, "var<storage, read_write> out", "var<uniform> out", 1)
	if _, err := d.Compile(&mismatch); err == nil {
		t.Fatal("a shader whose bindings disagree with its layout compiled")
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
	if err := core.Of(d).Errors(); err != nil {
		t.Errorf("errors left over: %v", err)
	}
}
