package gpu_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// TestBatching runs a chain of dependent launches, more than a uniform
// ring holds between submits, reading results back in between and at the
// end, and also writing an input mid-chain: the results are those of the
// reference runner launch for launch.
func TestBatching(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n, launches = 300, 2500
		y, x := randU32s(r, n), randU32s(r, n)
		yb, xb := upload(t, d, y), upload(t, d, x)
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		s := d.Stream()
		for i := range launches {
			a := r.Uint32() | 1
			if err := s.Launch(iaxpyKernel, groups, yb, xb, a, uint32(n)); err != nil {
				t.Fatal(err)
			}
			if err := xpu.Run(cfg, iaxpy, y, x, a, uint32(n)); err != nil {
				t.Fatal(err)
			}
			switch {
			case i%701 == 0:
				checkU32(t, fmt.Sprintf("after launch %d", i), download(t, yb), y)
			case i%997 == 0:
				x = randU32s(r, n)
				if err := xb.Write(x); err != nil {
					t.Fatal(err)
				}
			}
		}
		checkU32(t, "at the end", download(t, yb), y)
	})
}

// TestStreams launches on two streams and joins them with Device.Sync.
func TestStreams(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 200
		s2, err := d.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		y1, y2, x := randU32s(r, n), randU32s(r, n), randU32s(r, n)
		b1, b2, xb := upload(t, d, y1), upload(t, d, y2), upload(t, d, x)
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		for range 50 {
			if err := d.Stream().Launch(iaxpyKernel, groups, b1, xb, uint32(3), uint32(n)); err != nil {
				t.Fatal(err)
			}
			if err := s2.Launch(iaxpyKernel, groups, b2, xb, uint32(5), uint32(n)); err != nil {
				t.Fatal(err)
			}
			cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
			_ = xpu.Run(cfg, iaxpy, y1, x, uint32(3), uint32(n))
			_ = xpu.Run(cfg, iaxpy, y2, x, uint32(5), uint32(n))
		}
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
		checkU32(t, "stream 1", download(t, b1), y1)
		checkU32(t, "stream 2", download(t, b2), y2)
	})
}

// TestConcurrentLaunches launches from many goroutines on one device, on
// the default stream and on streams of their own.
func TestConcurrentLaunches(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const goroutines, launches, n = 8, 40, 128
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		var wg sync.WaitGroup
		errs := make(chan error, goroutines)
		for g := range goroutines {
			y, x := randU32s(r, n), randU32s(r, n)
			a := uint32(2*g + 1)
			wg.Go(func() {
				errs <- concurrentWork(d, g%2 == 1, groups, cfg, y, x, a, launches)
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
	})
}

func concurrentWork(d *gpu.Device, own bool, groups xpu.Dim3, cfg xpu.Config, y, x []uint32, a uint32, launches int) error {
	s := d.Stream()
	if own {
		var err error
		if s, err = d.NewStream(); err != nil {
			return err
		}
		defer s.Close()
	}
	yb, err := gpu.Upload(d, y)
	if err != nil {
		return err
	}
	defer yb.Release()
	xb, err := gpu.Upload(d, x)
	if err != nil {
		return err
	}
	defer xb.Release()
	for i := range launches {
		if err := s.Launch(iaxpyKernel, groups, yb, xb, a, uint32(len(y))); err != nil {
			return err
		}
		if err := xpu.Run(cfg, iaxpy, y, x, a, uint32(len(y))); err != nil {
			return err
		}
		if i%10 == 9 {
			got, err := yb.Download()
			if err != nil {
				return err
			}
			for j := range got {
				if got[j] != y[j] {
					return fmt.Errorf("a=%d, launch %d: y[%d] = %#x, reference %#x", a, i, j, got[j], y[j])
				}
			}
		}
	}
	return s.Sync()
}

// TestReleaseWhilePending releases a buffer that a recorded, not yet
// submitted launch uses: the launch still runs correctly.
func TestReleaseWhilePending(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 256
		y, x := randU32s(r, n), randU32s(r, n)
		yb := upload(t, d, y)
		xb, err := gpu.Upload(d, x)
		if err != nil {
			t.Fatal(err)
		}
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		if err := d.Stream().Launch(iaxpyKernel, groups, yb, xb, uint32(7), uint32(n)); err != nil {
			t.Fatal(err)
		}
		xb.Release()
		_ = xpu.Run(xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}, iaxpy, y, x, uint32(7), uint32(n))
		checkU32(t, "after release", download(t, yb), y)
	})
}

func checkU32(t *testing.T, when string, got, want []uint32) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: y[%d] = %#x, reference %#x", when, i, got[i], want[i])
		}
	}
}

// TestConcurrentRelease releases a buffer while other goroutines launch
// with it and read it: each call succeeds or reports ErrReleased, and none
// deadlocks.
func TestConcurrentRelease(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		const n = 128
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		for range 20 {
			y := newBuf[uint32](t, d, n)
			x := newBuf[uint32](t, d, n)
			var wg sync.WaitGroup
			errs := make(chan error, 3)
			wg.Go(func() {
				for range 30 {
					if err := d.Stream().Launch(iaxpyKernel, groups, y, x, uint32(3), uint32(n)); err != nil && !errors.Is(err, gpu.ErrReleased) {
						errs <- err
						return
					}
				}
			})
			wg.Go(func() {
				for range 10 {
					if _, err := x.Download(); err != nil && !errors.Is(err, gpu.ErrReleased) {
						errs <- err
						return
					}
				}
			})
			wg.Go(x.Release)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
		}
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
	})
}
