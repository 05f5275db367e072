package gpu_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// TestKeyStableAcrossOpens opens each device a second time: the key and
// its spelling are the same, and name the device's backend.
func TestKeyStableAcrossOpens(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		again, err := gpu.OpenBackend(d.Backend())
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		k, k2 := d.Key(), again.Key()
		if k != k2 || k.String() != k2.String() {
			t.Fatalf("two opens of one device:\n%s\n%s", k, k2)
		}
		if k.Backend != d.Backend() || k.Name != d.Info().Name || k == (gpu.DeviceKey{}) {
			t.Errorf("key %s of a %s device %q", k, d.Backend(), d.Info().Name)
		}
		t.Log(k)
	})
	if k := (*gpu.Device)(nil).Key(); k != (gpu.DeviceKey{}) {
		t.Errorf("nil device: key %s", k)
	}
}
