package driver_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu/driver"
)

// TestPickWave checks the tier chosen for declared and agnostic kernels
// from device facts: every tier is chosen at least once.
func TestPickWave(t *testing.T) {
	declared := &driver.Kernel{Wave: 16, WaveVariants: []driver.WaveVariant{
		{Tier: driver.WaveNative, SubgroupMin: 16, SubgroupMax: 16, Width: 16},
		{Tier: driver.WaveFolded, SubgroupMin: 4, SubgroupMax: 8, Width: 16},
		{Tier: driver.WaveNarrow, SubgroupMin: 32, SubgroupMax: 128, Width: 16},
		{Tier: driver.WaveEmulated, Width: 16},
	}}
	agnostic := &driver.Kernel{WaveVariants: []driver.WaveVariant{
		{Tier: driver.WaveNative, SubgroupMin: 4, SubgroupMax: 32},
		{Tier: driver.WaveEmulated, Width: 32},
	}}
	for _, c := range []struct {
		name      string
		k         *driver.Kernel
		subgroups bool
		min, max  uint32
		want      string
	}{
		{"declared, S = W", declared, true, 16, 16, driver.WaveNative},
		{"declared, S < W (lavapipe)", declared, true, 8, 8, driver.WaveFolded},
		{"declared, S < W (SwiftShader)", declared, true, 4, 4, driver.WaveFolded},
		{"declared, S > W", declared, true, 32, 32, driver.WaveNarrow},
		{"declared, S varies", declared, true, 8, 32, driver.WaveEmulated},
		{"declared, no subgroups (wgpu 0.19)", declared, false, 0, 0, driver.WaveEmulated},
		{"declared, sizes without the feature", declared, false, 16, 16, driver.WaveEmulated},
		{"agnostic, S = 8", agnostic, true, 8, 8, driver.WaveNative},
		{"agnostic, S = 64 past the ballot's 32", agnostic, true, 64, 64, driver.WaveEmulated},
		{"agnostic, no subgroups", agnostic, false, 0, 0, driver.WaveEmulated},
	} {
		v, ok := driver.PickWave(c.k, c.subgroups, c.min, c.max)
		if !ok || v.Tier != c.want {
			t.Errorf("%s: got %q (ok %v), want %q", c.name, v.Tier, ok, c.want)
		}
	}
	if _, ok := driver.PickWave(&driver.Kernel{Wave: 8}, true, 8, 8); ok {
		t.Error("a kernel without variants: got a variant")
	}
}
