//go:build !((linux || darwin) && (amd64 || arm64))

package dawn

import "github.com/goxpu/xpu/gpu/driver"

// Opener returns nil: purego cannot call webgpu.h on this platform.
func Opener() driver.Opener { return nil }

// CacheDir returns "": the driver is not built on this platform.
func CacheDir() string { return "" }
