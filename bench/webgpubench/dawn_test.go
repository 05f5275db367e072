//go:build (linux || darwin) && (amd64 || arm64)

package webgpubench

// This file holds Dawn's raw calls: webgpu.h through the dawn package's
// purego bindings (dawn.RawDevice).

import (
	"testing"

	"github.com/goxpu/xpu/gpu/webgpu/dawn"
)

func init() {
	rawDrivers["dawn"] = func(b *testing.B) rawDriver {
		r, err := dawn.OpenRaw()
		if err != nil {
			b.Skip(err)
		}
		b.Cleanup(func() { r.Close() })
		return dawnRaw{r}
	}
}

// dawnRaw is a RawDevice as the benchmark drives it.
type dawnRaw struct{ *dawn.RawDevice }

func (r dawnRaw) Kernel(wgsl string, bufs [][]float32, uniforms []byte, dynamic bool) (rawKernel, error) {
	k, err := r.RawDevice.Kernel(wgsl, bufs, uniforms, dynamic)
	if err != nil {
		return nil, err
	}
	return k, nil
}
