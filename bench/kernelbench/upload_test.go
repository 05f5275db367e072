package kernelbench_test

import (
	"testing"

	"github.com/goxpu/xpu/gpu"
)

// upload copies v to a new buffer on d, released when b ends, or fails
// the benchmark.
func upload[T any](b *testing.B, d *gpu.Device, v []T) *gpu.Buffer[T] {
	b.Helper()
	x, err := gpu.Upload(d, v)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(x.Release)
	return x
}
