package gpu

import (
	"context"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// nullDevice is a driver that runs nothing, so that a benchmark of
// launches on it measures the runtime's own cost of a launch: its checks,
// its binding and its hand-off to the queue.
type nullDevice struct{}

type nullQueue struct{}

type nullProgram struct{}

type nullBuffer struct{ size int }

func (nullDevice) Info() driver.Info {
	return driver.Info{Backend: "null", Limits: driver.Limits{MaxGroups: 1 << 16, StorageOffsetAlignment: 4}}
}
func (nullDevice) Compile(*driver.Kernel) (driver.Program, error) { return nullProgram{}, nil }
func (nullDevice) NewBuffer(size int) (driver.Buffer, error)      { return &nullBuffer{size}, nil }
func (nullDevice) NewQueue() (driver.Queue, error)                { return nullQueue{}, nil }
func (nullDevice) Close() error                                   { return nil }

func (nullProgram) Release() {}

func (b *nullBuffer) Size() int                                     { return b.size }
func (*nullBuffer) Write(int, []byte) error                         { return nil }
func (*nullBuffer) Read(_ context.Context, _ int, dst []byte) error { clear(dst); return nil }
func (*nullBuffer) Release()                                        {}

func (nullQueue) Launch(context.Context, driver.Program, xpu.Dim3, []driver.Buffer, []byte) error {
	return nil
}
func (nullQueue) Flush(context.Context) error { return nil }
func (nullQueue) Sync(context.Context) error  { return nil }
func (nullQueue) Release()                    {}

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
// saxpy-shaped kernel on a driver that runs nothing.
func BenchmarkLaunchPath(b *testing.B) {
	d, err := newDevice("null", nullDevice{})
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
