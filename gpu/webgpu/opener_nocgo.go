//go:build !cgo

package webgpu

import "github.com/goxpu/xpu/gpu/driver"

// Opener returns nil: this build has no cgo, so the driver is not built.
func Opener() driver.Opener { return nil }
