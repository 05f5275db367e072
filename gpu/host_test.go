package gpu_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/schema"
)

// TestRunHost checks that host code gets a CPU device's buffers, a view's
// range alone, reads what was written before and writes what is read
// after; and that another device, another device's buffer and a released
// buffer are refused.
func TestRunHost(t *testing.T) {
	d, err := gpu.OpenBackend(schema.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if !d.HostMemory() {
		t.Fatal("the CPU backend's buffers are not host memory")
	}
	a, _ := gpu.Upload(d, []float32{1, 2, 3, 4})
	defer a.Release()
	w, _ := gpu.Upload(d, []uint32{10, 20, 30, 40, 50, 60, 70, 80})
	defer w.Release()
	v, err := w.Slice(2, 6)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Stream()
	err = s.RunHost(func(mem [][]byte) error {
		x, u := gpu.HostSlice[float32](mem[0]), gpu.HostSlice[uint32](mem[1])
		if !slices.Equal(x, []float32{1, 2, 3, 4}) || !slices.Equal(u, []uint32{30, 40, 50, 60}) {
			t.Errorf("host code sees %v and %v", x, u)
		}
		for i := range x {
			x[i] *= 2
		}
		u[0] = 7
		return nil
	}, a, v)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Download(); !slices.Equal(got, []float32{2, 4, 6, 8}) {
		t.Errorf("after: %v", got)
	}
	if got, _ := w.Download(); !slices.Equal(got, []uint32{10, 20, 7, 40, 50, 60, 70, 80}) {
		t.Errorf("after, the view's buffer: %v", got)
	}
	boom := errors.New("boom")
	if err := s.RunHost(func([][]byte) error { return boom }, a); !errors.Is(err, boom) {
		t.Errorf("f's error: %v", err)
	}
	other, err := gpu.OpenBackend(schema.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ob, _ := gpu.NewBuffer[float32](other, 4)
	defer ob.Release()
	if err := s.RunHost(func([][]byte) error { return nil }, ob); !errors.Is(err, gpu.ErrForeignBuffer) {
		t.Errorf("another device's buffer: %v", err)
	}
	r, _ := gpu.NewBuffer[float32](d, 4)
	r.Release()
	if err := s.RunHost(func([][]byte) error { return nil }, r); !errors.Is(err, gpu.ErrReleased) {
		t.Errorf("a released buffer: %v", err)
	}
	for _, dev := range gputest.Devices(t) {
		if dev.Backend() == schema.BackendCPU {
			continue
		}
		if dev.HostMemory() {
			t.Errorf("%s says its buffers are host memory", dev.Backend())
		}
		b, _ := gpu.NewBuffer[float32](dev, 4)
		if err := dev.Stream().RunHost(func([][]byte) error { return nil }, b); !errors.Is(err, gpu.ErrUnavailable) {
			t.Errorf("%s: %v, want gpu.ErrUnavailable", dev.Backend(), err)
		}
		b.Release()
	}
}
