package gpu_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	_ "github.com/goxpu/xpu/kernels/wave" // wave kernels with a WGSL variant per tier
)

// TestDeviceManifestOnDevices checks each device's view of every
// registered kernel's manifest against KernelWave, and on webgpu that its
// hash names the WGSL of the variant the device runs.
func TestDeviceManifestOnDevices(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		variants := 0
		for _, k := range gpu.Kernels() {
			gen, ok := k.Manifest(d.Backend())
			if !ok {
				continue
			}
			m, ok := d.Manifest(k)
			w, err := d.KernelWave(k)
			if err != nil {
				if ok {
					t.Errorf("%s: a device manifest for a kernel whose waves the device cannot run: %v", k.Name(), err)
				}
				continue
			}
			if !ok {
				t.Errorf("%s: no device manifest", k.Name())
				continue
			}
			if m.WaveTier != w.Tier || m.WaveWidth != w.Width || len(m.WaveVariants) != 0 {
				t.Errorf("%s: device manifest tier %q width %d (%d variants); KernelWave %+v", k.Name(), m.WaveTier, m.WaveWidth, len(m.WaveVariants), w)
			}
			if len(gen.WaveVariants) == 0 {
				if m.Hash != gen.Hash {
					t.Errorf("%s: device manifest hash %s, generated %s", k.Name(), m.Hash, gen.Hash)
				}
				continue
			}
			variants++
			if gen.WaveTier != "" {
				t.Errorf("%s: the generated manifest names tier %q and lists variants", k.Name(), gen.WaveTier)
			}
			for _, v := range k.Spec().WaveVariants {
				if v.Tier != w.Tier {
					continue
				}
				sum := sha256.Sum256([]byte(v.WGSL))
				if want := "sha256:" + hex.EncodeToString(sum[:]); m.Hash != want {
					t.Errorf("%s: device manifest hash %s, the %s variant's WGSL is %s", k.Name(), m.Hash, v.Tier, want)
				}
			}
		}
		if d.Backend() == "webgpu" && variants == 0 {
			t.Error("no kernel with wave variants was checked")
		}
		t.Logf("%d kernels with wave variants", variants)
	})
}
