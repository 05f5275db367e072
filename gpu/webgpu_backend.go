package gpu

import (
	"fmt"
	"os"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu"
	"github.com/goxpu/xpu/gpu/webgpu/dawn"
	"github.com/goxpu/xpu/schema"
)

// The WebGPU backend has two native drivers: wgpu-native through cgo
// (package webgpu, in builds with cgo) and Dawn through purego (package
// dawn, in every build). XPU_WEBGPU picks one at open time: "dawn" or
// "wgpu"; unset, a build with cgo opens wgpu-native and one without opens
// Dawn. A browser build has neither: webgpu_backend_js.go registers the
// browser's driver, package jsgpu.
func init() {
	native, pure := webgpu.Opener(), dawn.Opener()
	if native == nil && pure == nil {
		return
	}
	registerBackend(schema.BackendWebGPU, func() (driver.Device, error) {
		return webgpuDriver(os.Getenv("XPU_WEBGPU"), native, pure)()
	})
}

// webgpuDriver returns the opener that XPU_WEBGPU (choice) names.
func webgpuDriver(choice string, native, pure driver.Opener) driver.Opener {
	unavailable := func(why string) driver.Opener {
		return func() (driver.Device, error) {
			return nil, fmt.Errorf("XPU_WEBGPU=%s: %s: %w", choice, why, ErrUnavailable)
		}
	}
	switch choice {
	case "dawn":
		if pure == nil {
			return unavailable("the Dawn driver is not built on this platform")
		}
		return pure
	case "wgpu":
		if native == nil {
			return unavailable("the wgpu-native driver needs cgo")
		}
		return native
	case "":
		if native != nil {
			return native
		}
		return pure
	}
	return unavailable(`not a WebGPU driver (want "dawn" or "wgpu")`)
}
