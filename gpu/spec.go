package gpu

import "github.com/goxpu/xpu/gpu/driver"

// The description of a device, as the backend contract defines it.
type (
	// Info describes a device.
	Info = driver.Info
	// Limits are the compute limits of a device; zero means absent.
	Limits = driver.Limits
)
