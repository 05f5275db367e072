// Package nativetest is the tests both native GPU drivers (gpu/cuda,
// gpu/hip) run alike, beyond the driver contract's suite (drivertest):
// the fault word of a launch, launches from many threads at once, and
// the build of a driver's fake library from its C source. Each driver
// runs them from its own tests, on its fake library and its machine's
// device, with its kernels' code in its own form.
//
// Layering: test support; it imports the driver contract (gpu/driver),
// schema, xpu and the standard library, never a driver or the runtime.
package nativetest

import (
	"testing"

	"github.com/goxpu/xpu/gpu/driver"
)

// Buffer allocates size bytes of d, released when t ends.
func Buffer(t *testing.T, d driver.Device, size int) driver.Buffer {
	t.Helper()
	b, err := d.NewBuffer(size)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}
