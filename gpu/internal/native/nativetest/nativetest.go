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
	"errors"
	"testing"

	"github.com/goxpu/xpu/gpu/driver"
)

// Open opens a device by open, closed when t ends; it skips t where the
// device is unavailable.
func Open(t *testing.T, open func() (driver.Device, error)) driver.Device {
	t.Helper()
	d, err := open()
	if errors.Is(err, driver.ErrUnavailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

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
