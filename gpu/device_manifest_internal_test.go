package gpu

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

func sha(code string) string {
	sum := sha256.Sum256([]byte(code))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// tieredKernel declares wave=32 and carries a WGSL artifact per tier and
// a Go one, with the manifests generated code would write.
var tieredKernel = func() *Kernel {
	const wgsl = "@compute @workgroup_size(64) fn main() {}\n// "
	web := func(tier schema.Tier, sel schema.Selector) schema.Artifact {
		code := wgsl + string(tier)
		return schema.Artifact{
			Manifest: schema.Manifest{Kernel: "github.com/goxpu/xpu/gpu.tiered", Backend: schema.BackendWebGPU, Target: schema.TargetWGSL,
				Hash: sha(code), Block: xpu.Dim3{X: 64, Y: 1, Z: 1}, Wave: 32, WaveOps: true, WaveTier: tier},
			Selector: sel,
			Code:     code,
		}
	}
	arts := []schema.Artifact{
		web(schema.TierNative, schema.Selector{SubgroupMin: 32, SubgroupMax: 32, Width: 32}),
		web(schema.TierFolded, schema.Selector{SubgroupMin: 4, SubgroupMax: 16, Width: 32}),
		web(schema.TierNarrow, schema.Selector{SubgroupMin: 64, SubgroupMax: 128, Width: 32}),
		web(schema.TierEmulated, schema.Selector{Width: 32}),
		{Manifest: schema.Manifest{Kernel: "github.com/goxpu/xpu/gpu.tiered", Backend: schema.BackendCPU, Target: schema.TargetGo,
			Hash: sha("cpu"), Block: xpu.Dim3{X: 64, Y: 1, Z: 1}, Wave: 32, WaveOps: true, WaveTier: schema.TierEmulated},
			Entry: func(*driver.CPUBlock) {}},
	}
	return register(&driver.Kernel{Name: "github.com/goxpu/xpu/gpu.tiered", Block: xpu.Dim3{X: 64}, Wave: 32, WaveOps: true, Artifacts: arts})
}()

func TestDeviceManifest(t *testing.T) {
	const wgsl = "@compute @workgroup_size(64) fn main() {}\n// "
	subgroups := func(lo, hi uint32) driver.Info {
		return driver.Info{Backend: schema.BackendWebGPU, Limits: driver.Limits{SubgroupMin: lo, SubgroupMax: hi}, Subgroups: true}
	}
	for _, c := range []struct {
		name    string
		backend schema.Backend
		info    driver.Info
		tier    schema.Tier
		hash    string
	}{
		{"subgroups of 32", schema.BackendWebGPU, subgroups(32, 32), schema.TierNative, sha(wgsl + "native")},
		{"subgroups of 8 to 16", schema.BackendWebGPU, subgroups(8, 16), schema.TierFolded, sha(wgsl + "folded")},
		{"subgroups of 64", schema.BackendWebGPU, subgroups(64, 64), schema.TierNarrow, sha(wgsl + "narrow")},
		{"subgroups of 16 to 64", schema.BackendWebGPU, subgroups(16, 64), schema.TierEmulated, sha(wgsl + "emulated")},
		{"no subgroups", schema.BackendWebGPU, driver.Info{Backend: schema.BackendWebGPU}, schema.TierEmulated, sha(wgsl + "emulated")},
		{"cpu of 8 lanes", schema.BackendCPU, driver.Info{Backend: schema.BackendCPU, Limits: driver.Limits{SubgroupMin: 8, SubgroupMax: 8}}, schema.TierEmulated, sha("cpu")},
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
			if m.WaveTier != c.tier || m.WaveWidth != 32 || m.Hash != c.hash || m.Backend != c.backend {
				t.Errorf("device manifest: tier %q width %d hash %s, want %q 32 %s", m.WaveTier, m.WaveWidth, m.Hash, c.tier, c.hash)
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
	// The device-independent view is the artifact's for any device.
	m, ok := tieredKernel.Manifest(schema.BackendWebGPU)
	if !ok || m.WaveTier != schema.TierEmulated || m.Hash != sha(wgsl+"emulated") || m.WaveWidth != 0 {
		t.Fatalf("Kernel.Manifest: %+v", m)
	}
	if ms := tieredKernel.Manifests(); len(ms) != 5 {
		t.Fatalf("Manifests: %d, want one per artifact (5)", len(ms))
	}
	m.NativeOps = append(m.NativeOps, "changed")
	if again, _ := tieredKernel.Manifest(schema.BackendWebGPU); len(again.NativeOps) != 0 {
		t.Error("Kernel.Manifest shares its slices with the spec")
	}
}

// amendingStub is a stub driver that, as CUDA's does, learns the
// registers of a kernel's code when it compiles it: its program holds
// them, and Amend copies them into the device's manifest.
type amendingStub struct {
	stubDevice
	compiled *int // kernels compiled
}

type amendedProgram struct{ registers int }

func (amendedProgram) Release() {}

func (s amendingStub) Compile(k *driver.Kernel) (driver.Program, error) {
	*s.compiled++
	return amendedProgram{registers: 10 + len(k.Name)}, nil
}

func (amendingStub) Amend(p driver.Program, m *schema.Manifest) {
	r := p.(amendedProgram).registers
	m.Registers, m.SpillBytes = &r, new(int)
}

// TestDeviceManifestAmended checks that a driver that amends manifests
// sets the facts of the code it compiled in the device's view, compiling
// the kernel once for the manifest and its launches, and leaves the
// kernel's own manifest as generated.
func TestDeviceManifestAmended(t *testing.T) {
	compiled := 0
	info := driver.Info{Backend: schema.BackendCPU}
	d, err := newDevice(schema.BackendCPU, amendingStub{stubDevice{info, &stubQueue{}}, &compiled})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for range 2 {
		m, ok := d.Manifest(tieredKernel)
		if !ok {
			t.Fatal("no device manifest")
		}
		if want := 10 + len(tieredKernel.spec.Name); m.Registers == nil || *m.Registers != want || m.SpillBytes == nil || *m.SpillBytes != 0 {
			t.Fatalf("device manifest: registers %v, spills %v; want %d and 0", m.Registers, m.SpillBytes, want)
		}
	}
	if _, err := d.program(tieredKernel); err != nil || compiled != 1 {
		t.Errorf("compiled %d times (%v), want once for the manifests and the launches", compiled, err)
	}
	if g, ok := tieredKernel.Manifest(schema.BackendCPU); !ok || g.Registers != nil {
		t.Errorf("the generated manifest was amended: %+v", g)
	}
}
