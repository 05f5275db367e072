package driver_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// wgsl returns a WGSL artifact of tier for subgroups of min to max lanes.
func wgsl(tier schema.Tier, min, max, width uint32) schema.Artifact {
	return schema.Artifact{
		Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL, WaveOps: true, WaveTier: tier},
		Selector: schema.Selector{SubgroupMin: min, SubgroupMax: max, Width: width},
		Code:     string(tier),
	}
}

// TestPick checks the artifact chosen for declared and agnostic kernels
// from device facts: every tier is chosen at least once, and a backend
// picks only its own artifacts.
func TestPick(t *testing.T) {
	goArtifact := schema.Artifact{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo, WaveOps: true, WaveTier: schema.TierEmulated}}
	declared := &driver.Kernel{Wave: 16, Artifacts: []schema.Artifact{
		wgsl(schema.TierNative, 16, 16, 16),
		wgsl(schema.TierFolded, 4, 8, 16),
		wgsl(schema.TierNarrow, 32, 128, 16),
		wgsl(schema.TierEmulated, 0, 0, 16),
		goArtifact,
	}}
	agnostic := &driver.Kernel{Artifacts: []schema.Artifact{
		goArtifact,
		wgsl(schema.TierEmulated, 0, 0, 32),
		wgsl(schema.TierNative, 4, 32, 0),
	}}
	for _, c := range []struct {
		name     string
		k        *driver.Kernel
		backend  schema.Backend
		min, max uint32
		want     schema.Tier
	}{
		{"declared, S = W", declared, schema.BackendWebGPU, 16, 16, schema.TierNative},
		{"declared, S < W (lavapipe)", declared, schema.BackendWebGPU, 8, 8, schema.TierFolded},
		{"declared, S < W (SwiftShader)", declared, schema.BackendWebGPU, 4, 4, schema.TierFolded},
		{"declared, S > W", declared, schema.BackendWebGPU, 32, 32, schema.TierNarrow},
		{"declared, S varies", declared, schema.BackendWebGPU, 8, 32, schema.TierEmulated},
		{"declared, no subgroups (wgpu 0.19)", declared, schema.BackendWebGPU, 0, 0, schema.TierEmulated},
		{"declared, on the cpu", declared, schema.BackendCPU, 0, 0, schema.TierEmulated},
		{"agnostic, S = 8", agnostic, schema.BackendWebGPU, 8, 8, schema.TierNative},
		{"agnostic, S = 64 past the ballot's 32", agnostic, schema.BackendWebGPU, 64, 64, schema.TierEmulated},
		{"agnostic, no subgroups", agnostic, schema.BackendWebGPU, 0, 0, schema.TierEmulated},
	} {
		a := driver.Pick(c.k, c.backend, c.min, c.max)
		if a == nil || a.WaveTier != c.want || a.Backend != c.backend {
			t.Errorf("%s: got %+v, want %s tier %q", c.name, a, c.backend, c.want)
		}
	}
	if a := driver.Pick(&driver.Kernel{Wave: 8}, schema.BackendWebGPU, 8, 8); a != nil {
		t.Errorf("a kernel without artifacts: got %+v", a)
	}
	if a := driver.Pick(declared, schema.BackendCUDA, 32, 32); a != nil {
		t.Errorf("a backend without artifacts: got %+v", a)
	}
}
