//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"testing"

	"github.com/goxpu/xpu/gpu/driver/drivertest"
)

// TestQuietByDefault checks that Dawn prints nothing while XPU_DEBUG is
// unset.
func TestQuietByDefault(t *testing.T) { drivertest.Quiet(t, open, required()) }
