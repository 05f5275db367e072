//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
	"github.com/goxpu/xpu/gpu/webgpu/internal/webgputest"
)

// required reports whether a missing library fails the tests instead of
// skipping them: with XPU_WEBGPU=dawn or webgpu in XPU_REQUIRE.
func required() bool {
	return os.Getenv("XPU_WEBGPU") == "dawn" || slices.Contains(strings.Split(os.Getenv("XPU_REQUIRE"), ","), "webgpu")
}

// TestDriver runs the drivers' conformance suite on Dawn.
func TestDriver(t *testing.T) {
	webgputest.Run(t, webgputest.Config{
		Open:     open,
		Required: required(),
		AdapterLimits: func(d driver.Device) driver.Limits {
			var al limits
			wgpu.adapterGetLimits(core.Of(d).API().(*api).adapter, &al)
			return driver.Limits{MaxInvocationsPerBlock: al.MaxComputeInvocationsPerWorkgroup, MaxSharedBytes: al.MaxComputeWorkgroupStorageSize}
		},
		RingRounds:     3,
		LeakCycles:     400,
		AsyncErrors:    true,
		AsyncErrorSays: "validation",
		LongWork:       7 * time.Second,
	})
}

// TestInfo checks what Dawn alone reports: its Null backend is refused,
// the facts name the driver, and on lavapipe (the test machines' device)
// the features and subgroup sizes are known.
func TestInfo(t *testing.T) {
	dd, err := open()
	if err != nil && !required() {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer dd.Close()
	d, info := core.Of(dd).API().(*api), dd.Info()
	l := info.Limits
	if info.Driver == "null" {
		t.Error("Dawn's Null backend was not refused")
	}
	if info.Software != "dawn" {
		t.Errorf("info %+v does not name the driver", info)
	}
	if strings.HasPrefix(info.Name, "llvmpipe") {
		if l.SubgroupMin != 8 || l.SubgroupMax != 8 {
			t.Errorf("llvmpipe subgroup sizes %d..%d, want 8..8", l.SubgroupMin, l.SubgroupMax)
		}
		if f := info.Facts[core.LayoutFact]; f != core.LayoutConsecutive {
			t.Errorf("llvmpipe: %s %q, want %q", core.LayoutFact, f, core.LayoutConsecutive)
		}
		for _, f := range []string{"timestamp-query", "shader-f16"} {
			if info.Facts[f] != "true" {
				t.Errorf("llvmpipe: feature %s missing from %v", f, info.Facts)
			}
		}
		if !info.Subgroups {
			t.Errorf("llvmpipe: info %+v without subgroups", info)
		}
		if !d.timestamps || !d.subgroups {
			t.Errorf("llvmpipe: timestamps %v, subgroups %v: not enabled on the device", d.timestamps, d.subgroups)
		}
	}
}

// TestMissingLibrary: a library that cannot be opened is reported as an
// unavailable backend.
func TestMissingLibrary(t *testing.T) {
	t.Setenv("XPU_WEBGPU_LIB", "/nonexistent/libwebgpu.so")
	if _, _, err := dlopen(); err == nil {
		t.Fatal("opened a library that does not exist")
	} else {
		t.Log(err)
	}
}
