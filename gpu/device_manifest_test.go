package gpu_test

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	_ "github.com/goxpu/xpu/kernels/wave" // wave kernels with a WGSL variant per tier
	"github.com/goxpu/xpu/schema"
)

// TestDeviceManifestOnDevices checks each device's view of every
// registered kernel's manifest against KernelWave, and that its hash names
// the code of one of the kernel's artifacts for the device's backend.
func TestDeviceManifestOnDevices(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		variants := 0
		for _, k := range gpu.Kernels() {
			if _, ok := k.Manifest(d.Backend()); !ok {
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
			if m.WaveTier != w.Tier || m.WaveWidth != w.Width || m.Backend != d.Backend() {
				t.Errorf("%s: device manifest %s tier %q width %d; KernelWave %+v", k.Name(), m.Backend, m.WaveTier, m.WaveWidth, w)
			}
			var own []schema.Artifact
			for _, a := range k.Spec().Artifacts {
				if a.Backend == d.Backend() {
					own = append(own, a)
				}
			}
			if m.Hash == "" {
				continue // a hand-written artifact, which names no hash
			}
			if len(own) > 1 {
				variants++
			}
			i := slices.IndexFunc(own, func(a schema.Artifact) bool { return a.Hash == m.Hash })
			if i < 0 {
				t.Errorf("%s: device manifest hash %s names none of the %d %s artifacts", k.Name(), m.Hash, len(own), d.Backend())
				continue
			}
			// A native artifact's hash is of the kernel's own code (its
			// LLVM module), not of the package's library it carries.
			if a := own[i]; a.Target.Text() && !a.Target.Native() {
				sum := sha256.Sum256([]byte(a.Code))
				if want := "sha256:" + hex.EncodeToString(sum[:]); m.Hash != want {
					t.Errorf("%s: device manifest hash %s, the %s artifact's code is %s", k.Name(), m.Hash, a.WaveTier, want)
				}
			}
		}
		if d.Backend() == schema.BackendWebGPU && variants == 0 {
			t.Error("no kernel with wave variants was checked")
		}
		t.Logf("%d kernels with wave variants", variants)
	})
}
