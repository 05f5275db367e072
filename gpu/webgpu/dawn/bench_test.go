//go:build (linux || darwin) && (amd64 || arm64)

package dawn_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu/webgpu/dawn"
	"github.com/goxpu/xpu/gpu/webgpu/internal/handbench"
)

// BenchmarkWebGPUDrivers puts the generated kernels, launched through the
// runtime on Dawn, beside the same kernels written by hand and driven by
// raw webgpu.h calls through the package's bindings (package handbench).
func BenchmarkWebGPUDrivers(b *testing.B) {
	r, err := dawn.OpenRaw()
	if err != nil {
		b.Skip(err)
	}
	defer r.Close()
	handbench.Run(b, "dawn", raw{r})
}

// raw is a RawDevice as the benchmark drives it.
type raw struct{ *dawn.RawDevice }

func (r raw) Kernel(wgsl string, bufs [][]float32, uniforms []byte, dynamic bool) (handbench.Kernel, error) {
	k, err := r.RawDevice.Kernel(wgsl, bufs, uniforms, dynamic)
	if err != nil {
		return nil, err
	}
	return k, nil
}
