package gpu

import (
	"errors"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/cpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// strictCPU is the CPU device claiming a storage offset alignment of 16
// bytes: the CPU backend itself binds views at any element, so its
// ErrMisaligned refusal is reachable only through a device that asks.
type strictCPU struct{ driver.Device }

func (d strictCPU) Info() driver.Info {
	info := d.Device.Info()
	info.Limits.StorageOffsetAlignment = 16
	return info
}

var viewKernel = register(&driver.Kernel{
	Name:   "github.com/goxpu/xpu/gpu.viewTest",
	Block:  xpu.Dim3{X: 4},
	Params: []schema.Param{{Name: "y", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "float32"}, Size: 4, Access: schema.AccessWrite}},
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: "@group(0) @binding(0) var<storage, read_write> y: array<f32>;\n@compute @workgroup_size(4) fn main() { y[0] = 1.0; }"},
		{Manifest: schema.Manifest{Backend: schema.BackendCPU, Target: schema.TargetGo}, Entry: func(b *driver.CPUBlock) {
			y := driver.CPUView[float32](b.Buffers[0])
			for i := range y {
				y[i] = float32(i)
			}
		}},
	},
})

func TestViewMisalignedStrictCPU(t *testing.T) {
	drv, err := cpu.Open()
	if err != nil {
		t.Fatal(err)
	}
	d, err := newDevice("cpu", strictCPU{drv})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	b, err := NewBuffer[float32](d, 16)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lo   int
		want error
	}{{1, ErrMisaligned}, {2, ErrMisaligned}, {3, ErrMisaligned}, {4, nil}, {8, nil}} {
		lo, want := c.lo, c.want
		v, err := b.Slice(lo, lo+8)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Stream().Launch(viewKernel, xpu.Dim3{X: 1}, v); !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("a view at element %d: %v, want %v", lo, err, want)
		}
	}
	got, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		if w := float32(max(0, i-8)); i >= 8 && g != w || i >= 4 && i < 8 && g != float32(i-4) {
			t.Fatalf("y[%d] = %v after views at 4 and 8", i, g)
		}
	}
}

// viewCounter is the CPU device whose buffers count the views released
// to them (driver.ViewReleaser), as the WebGPU driver's drop their bind
// groups.
type viewCounter struct {
	driver.Device
	released *[]driver.View
}

type countingBuffer struct {
	driver.Buffer
	released *[]driver.View
}

func (d viewCounter) NewBuffer(size int) (driver.Buffer, error) {
	b, err := d.Device.NewBuffer(size)
	return countingBuffer{b, d.released}, err
}

func (b countingBuffer) ReleaseView(offset, bytes int) {
	*b.released = append(*b.released, driver.View{Offset: offset, Bytes: bytes})
}

// TestReleasedViewReachesDriver releases views and checks that the
// driver hears of each view's range once (so that the WebGPU driver drops
// the bind groups it cached for it) and of no view that is the whole
// buffer (which is the buffer itself).
func TestReleasedViewReachesDriver(t *testing.T) {
	drv, err := cpu.Open()
	if err != nil {
		t.Fatal(err)
	}
	var released []driver.View
	d, err := newDevice("cpu", viewCounter{drv, &released})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	b, err := NewBuffer[float32](d, 16)
	if err != nil {
		t.Fatal(err)
	}
	var want []driver.View
	for i := range 4 {
		v, err := b.Slice(i, i+2)
		if err != nil {
			t.Fatal(err)
		}
		v.Release()
		v.Release() // idempotent
		want = append(want, driver.View{Offset: 4 * i, Bytes: 8})
	}
	whole, err := b.Slice(0, 16)
	if err != nil {
		t.Fatal(err)
	}
	whole.Release()
	if len(released) != len(want) {
		t.Fatalf("the driver heard of %d released views %v, want %v", len(released), released, want)
	}
	for i := range want {
		if released[i] != want[i] {
			t.Errorf("released view %d: %+v, want %+v", i, released[i], want[i])
		}
	}
	if err := b.Write(make([]float32, 16)); err != nil {
		t.Errorf("the buffer after its views were released: %v", err)
	}
}
