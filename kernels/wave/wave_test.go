package wave_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
	"github.com/goxpu/xpu/kernels/wave"
)

// TestWaveSuite runs every case on every device present, comparing with
// the reference runner told the wave width the device runs the kernel at.
func TestWaveSuite(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		seed, err := conformance.Seed()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range wave.Cases() {
			t.Run(c.Name(), func(t *testing.T) {
				choice, err := d.KernelWave(c.Kernel.Name())
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: tier %s, width %d", d.Backend(), choice.Tier, choice.Width)
				if err := conformance.Run(d, c, seed); err != nil {
					t.Errorf("%v\n(seed %d: rerun with %s=%d)", err, seed, conformance.SeedEnv, seed)
				}
			})
		}
	})
}
