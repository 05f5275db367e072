package gpu

import (
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// benchSaxpy is saxpy's signature: two buffers and two scalars.
var benchSaxpy = Register(&KernelSpec{
	Name:  "github.com/goxpu/xpu/gpu.benchSaxpy",
	Block: xpu.Dim3{X: 256},
	Params: []Param{
		{Name: "y", Kind: ParamBuffer, Type: "float32", Size: 4, Access: AccessReadWrite, Binding: 0, MinLen: "n"},
		{Name: "x", Kind: ParamBuffer, Type: "float32", Size: 4, Access: AccessRead, Binding: 1},
		{Name: "a", Kind: ParamScalar, Type: "float32", Size: 4, Binding: 0},
		{Name: "n", Kind: ParamScalar, Type: "uint32", Size: 4, Binding: 4},
	},
	UniformSize: 16,
})

// BenchmarkLaunchPath measures the runtime's cost of one launch of a
// saxpy-shaped kernel on a driver that runs nothing (stubDevice).
func BenchmarkLaunchPath(b *testing.B) {
	d, _, err := newStub(driver.Info{Backend: "stub", Limits: driver.Limits{MaxGroups: 1 << 16, StorageOffsetAlignment: 4}}, false)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	y, err := NewBuffer[float32](d, 256)
	if err != nil {
		b.Fatal(err)
	}
	x, err := NewBuffer[float32](d, 256)
	if err != nil {
		b.Fatal(err)
	}
	s := d.Stream()
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Launch(benchSaxpy, xpu.Dim3{X: 1}, y, x, float32(0.5), uint32(256)); err != nil {
			b.Fatal(err)
		}
	}
}
