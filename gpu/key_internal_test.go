package gpu

import (
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// TestKeyChangesWithEachField opens fake devices that differ from one
// base device in one fact each: each fact of the key changes the key and
// its spelling; a display-only fact changes neither.
func TestKeyChangesWithEachField(t *testing.T) {
	base := driver.Info{
		Backend: "webgpu", Software: "wgpu-native 0.19.4.1", Driver: "vulkan", Name: "llvmpipe", Type: "cpu",
		VendorID: 0x10005, DeviceID: 0, Subgroups: true,
		Limits: driver.Limits{SubgroupMin: 8, SubgroupMax: 8, MaxInvocationsPerBlock: 256, MaxBlockSize: xpu.Dim3{X: 256, Y: 256, Z: 64}, MaxSharedBytes: 32768},
		Facts:  map[string]string{"architecture": "x86"},
	}
	key := func(info driver.Info) DeviceKey {
		t.Helper()
		d, _, err := newStub(info, false)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		return d.Key()
	}
	k0 := key(base)
	if k0 != key(base) {
		t.Fatal("one device, two keys")
	}
	for _, c := range []struct {
		name   string
		change func(*driver.Info)
	}{
		{"backend", func(i *driver.Info) { i.Backend = "cpu" }},
		{"software", func(i *driver.Info) { i.Software = "wgpu-native 0.19.5" }},
		{"driver", func(i *driver.Info) { i.Driver = "metal" }},
		{"name", func(i *driver.Info) { i.Name = "llvmpipe (LLVM 20)" }},
		{"type", func(i *driver.Info) { i.Type = "integrated-gpu" }},
		{"vendor", func(i *driver.Info) { i.VendorID = 0x10de }},
		{"device", func(i *driver.Info) { i.DeviceID = 0x2684 }},
		{"subgroups", func(i *driver.Info) { i.Subgroups = false }},
		{"subgroup min", func(i *driver.Info) { i.Limits.SubgroupMin = 4 }},
		{"subgroup max", func(i *driver.Info) { i.Limits.SubgroupMax = 16 }},
		{"invocations", func(i *driver.Info) { i.Limits.MaxInvocationsPerBlock = 1024 }},
		{"block size", func(i *driver.Info) { i.Limits.MaxBlockSize.Z = 1 }},
		{"shared bytes", func(i *driver.Info) { i.Limits.MaxSharedBytes = 65536 }},
		{"workers", func(i *driver.Info) { i.Workers = 2 }},
	} {
		info := base
		c.change(&info)
		if k := key(info); k == k0 || k.String() == k0.String() {
			t.Errorf("%s changed: key %s, as before", c.name, k)
		}
	}
	display := base
	display.Facts = map[string]string{"architecture": "arm", "features": "shader-f16"}
	display.Limits.MaxBufferBytes = 1 << 30
	if k := key(display); k != k0 || k.String() != k0.String() {
		t.Errorf("a display fact changed the key:\n%s\n%s", k0, k)
	}
}
