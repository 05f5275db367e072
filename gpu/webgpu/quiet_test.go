//go:build cgo

package webgpu

import (
	"testing"

	"github.com/goxpu/xpu/gpu/driver/drivertest"
)

// TestQuietByDefault checks that wgpu-native, and the libraries it
// loads, print nothing while XPU_DEBUG is unset.
func TestQuietByDefault(t *testing.T) { drivertest.Quiet(t, open, false) }
