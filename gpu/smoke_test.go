package gpu_test

import (
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

func TestSmoke(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		t.Logf("%+v", d.Info())
		x := []float32{1, 2, 3, 4}
		y := []float32{10, 20, 30, 40}
		yb, err := gpu.Upload(d, y)
		if err != nil {
			t.Fatal(err)
		}
		xb, err := gpu.Upload(d, x)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, yb, xb, float32(2), uint32(4)); err != nil {
			t.Fatal(err)
		}
		got, err := yb.Download()
		t.Log(got, err)
	})
}
