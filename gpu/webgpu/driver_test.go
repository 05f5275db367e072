//go:build cgo

package webgpu

import (
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
	"github.com/goxpu/xpu/gpu/webgpu/internal/webgputest"
)

// TestDriver runs the drivers' conformance suite on wgpu-native.
func TestDriver(t *testing.T) {
	webgputest.Run(t, webgputest.Config{
		Open: open,
		AdapterLimits: func(d driver.Device) driver.Limits {
			al := core.Of(d).API().(*api).adapter.GetLimits().Limits
			return driver.Limits{MaxInvocationsPerBlock: al.MaxComputeInvocationsPerWorkgroup, MaxSharedBytes: al.MaxComputeWorkgroupStorageSize}
		},
		NoSubgroups:              true,
		RefusesReadOnlyAsStorage: true,
		RingRounds:               3,
		LeakCycles:               400,
		LongWork:                 8 * time.Second,
	})
}
