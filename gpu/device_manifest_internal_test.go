package gpu

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

func sha(code string) string {
	sum := sha256.Sum256([]byte(code))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// tieredKernel declares wave=32 and carries a variant per tier, with the
// manifests generated code would write.
var tieredKernel = func() *Kernel {
	const wgsl = "@compute @workgroup_size(64) fn main() {}\n// "
	variants := []WaveVariant{
		{Tier: WaveNative, SubgroupMin: 32, SubgroupMax: 32, Width: 32, WGSL: wgsl + "native"},
		{Tier: WaveFolded, SubgroupMin: 4, SubgroupMax: 16, Width: 32, WGSL: wgsl + "folded"},
		{Tier: WaveNarrow, SubgroupMin: 64, SubgroupMax: 128, Width: 32, WGSL: wgsl + "narrow"},
		{Tier: WaveEmulated, Width: 32, WGSL: wgsl + "emulated"},
	}
	web := Manifest{Kernel: "github.com/goxpu/xpu/gpu.tiered", Backend: "webgpu", Target: "wgsl", Hash: sha(wgsl + "emulated"),
		Block: xpu.Dim3{X: 64, Y: 1, Z: 1}, Wave: 32, WaveOps: true}
	for _, v := range variants {
		web.WaveVariants = append(web.WaveVariants, ManifestVariant{Tier: v.Tier, SubgroupMin: v.SubgroupMin, SubgroupMax: v.SubgroupMax, Width: v.Width, Hash: sha(v.WGSL)})
	}
	cpu := Manifest{Kernel: web.Kernel, Backend: "cpu", Target: "go", Hash: sha("cpu"), Block: web.Block, Wave: 32, WaveOps: true, WaveTier: WaveEmulated}
	return Register(&KernelSpec{
		Name: web.Kernel, Block: xpu.Dim3{X: 64}, Wave: 32,
		WGSL: wgsl + "emulated", WaveVariants: variants,
		CPU:       func(*CPUBlock) {},
		Manifests: []Manifest{web, cpu},
	})
}()

func TestDeviceManifest(t *testing.T) {
	const wgsl = "@compute @workgroup_size(64) fn main() {}\n// "
	subgroups := func(lo, hi uint32) driver.Info {
		return driver.Info{Backend: "webgpu", Limits: driver.Limits{SubgroupMin: lo, SubgroupMax: hi}, Subgroups: true}
	}
	for _, c := range []struct {
		name    string
		backend string
		info    driver.Info
		tier    string
		hash    string
	}{
		{"subgroups of 32", "webgpu", subgroups(32, 32), WaveNative, sha(wgsl + "native")},
		{"subgroups of 8 to 16", "webgpu", subgroups(8, 16), WaveFolded, sha(wgsl + "folded")},
		{"subgroups of 64", "webgpu", subgroups(64, 64), WaveNarrow, sha(wgsl + "narrow")},
		{"subgroups of 16 to 64", "webgpu", subgroups(16, 64), WaveEmulated, sha(wgsl + "emulated")},
		{"no subgroups", "webgpu", driver.Info{Backend: "webgpu"}, WaveEmulated, sha(wgsl + "emulated")},
		{"cpu of 8 lanes", "cpu", driver.Info{Backend: "cpu", Limits: driver.Limits{SubgroupMin: 8, SubgroupMax: 8}}, WaveEmulated, sha("cpu")},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, _, err := newStub(c.info, false)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			m, ok := d.Manifest(tieredKernel)
			if !ok {
				t.Fatal("no device manifest")
			}
			if m.WaveTier != c.tier || m.WaveWidth != 32 || m.Hash != c.hash || m.WaveVariants != nil || m.Backend != c.backend {
				t.Errorf("device manifest: tier %q width %d hash %s variants %v, want %q 32 %s none", m.WaveTier, m.WaveWidth, m.Hash, m.WaveVariants, c.tier, c.hash)
			}
			w, err := d.KernelWave(tieredKernel)
			if err != nil || w.Tier != m.WaveTier || w.Width != m.WaveWidth {
				t.Errorf("KernelWave %+v, %v; the manifest says %s at %d", w, err, m.WaveTier, m.WaveWidth)
			}
			if _, ok := d.Manifest(&Kernel{}); ok {
				t.Error("a manifest for a kernel that is not registered")
			}
			if _, ok := d.Manifest(nil); ok {
				t.Error("a manifest for a nil kernel")
			}
		})
	}
	// The device-independent view lists the variants and leaves the tier.
	m, ok := tieredKernel.Manifest("webgpu")
	if !ok || m.WaveTier != "" || len(m.WaveVariants) != 4 || m.WaveWidth != 0 {
		t.Fatalf("Kernel.Manifest: %+v", m)
	}
	m.WaveVariants[0].Hash = "changed"
	if again, _ := tieredKernel.Manifest("webgpu"); again.WaveVariants[0].Hash == "changed" {
		t.Error("Kernel.Manifest shares its variants with the spec")
	}
}
