package gpu_test

import (
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// TestTime times a chain of launches on each device: the launches have
// completed with the reference runner's results when Time returns, and a
// device timer reads no more than the host saw around the call.
func TestTime(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		timer := d.Timer()
		t.Logf("%s: %+v", d.Info().Name, timer)
		if timer.Device == (timer.Reason != "") {
			t.Errorf("timer %+v: a host timer must say why, a device timer must not", timer)
		}
		if timer.Device && (timer.Scale < 0.5 || timer.Scale > 1.05) {
			t.Errorf("device timer accepted with scale %v", timer.Scale)
		}
		r := newRand(t)
		const n, launches = 1 << 16, 20
		y, x := randU32s(r, n), randU32s(r, n)
		yb, xb := upload(t, d, y), upload(t, d, x)
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		s := d.Stream()
		t0 := time.Now()
		took, err := s.Time(func() error {
			for range launches {
				if err := s.Launch(iaxpyKernel, groups, yb, xb, uint32(3), uint32(n)); err != nil {
					return err
				}
			}
			return nil
		})
		host := time.Since(t0)
		if err != nil {
			t.Fatal(err)
		}
		for range launches {
			if err := xpu.Run(cfg, iaxpy, y, x, uint32(3), uint32(n)); err != nil {
				t.Fatal(err)
			}
		}
		checkU32(t, "after Time", download(t, yb), y)
		t.Logf("%d launches: %v (host around the call: %v)", launches, took, host)
		if took <= 0 || took > host {
			t.Errorf("Time read %v; the host saw %v around it", took, host)
		}
	})
}
