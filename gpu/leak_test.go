package gpu_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// TestCyclesLeaveMemoryFlat runs 10,000 alloc/launch/free cycles and
// checks that the Go heap and the process's resident memory end where
// they stood after a warm-up (on webgpu over lavapipe and on the CPU,
// device memory is host memory, so RSS counts it).
func TestCyclesLeaveMemoryFlat(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		const warm, cycles, n = 1000, 10000, 64
		cycle := func(i int) error {
			y, err := gpu.NewBuffer[float32](d, n)
			if err != nil {
				return err
			}
			x, err := gpu.NewBuffer[float32](d, n)
			if err != nil {
				return err
			}
			err = d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(2), uint32(n))
			y.Release()
			x.Release()
			if err == nil && i%250 == 249 {
				err = d.Sync()
			}
			return err
		}
		for i := range warm {
			if err := cycle(i); err != nil {
				t.Fatal(err)
			}
		}
		heap0, rss0 := memory(t, d)
		for i := range cycles {
			if err := cycle(i); err != nil {
				t.Fatal(err)
			}
		}
		heap1, rss1 := memory(t, d)
		t.Logf("Go heap %d -> %d bytes, RSS %d -> %d bytes", heap0, heap1, rss0, rss1)
		const heapSlack, rssSlack = 4 << 20, 32 << 20
		if heap1 > heap0+heapSlack {
			t.Errorf("Go heap grew by %d bytes over %d cycles", heap1-heap0, cycles)
		}
		if rss0 != 0 && rss1 > rss0+rssSlack {
			t.Errorf("RSS grew by %d bytes over %d cycles", rss1-rss0, cycles)
		}
	})
}

// memory syncs d, collects garbage and returns the live Go heap and the
// resident set size (0 where /proc cannot tell).
func memory(t *testing.T, d *gpu.Device) (heap, rss uint64) {
	t.Helper()
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, residentBytes()
}

// residentBytes reads the process's RSS from /proc/self/statm; 0 when it
// cannot.
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// TestConcurrentLaunchAllocFree launches, allocates, frees, asks for
// availability and provokes refusals from many goroutines on one device
// (run it with -race); every launch's result is checked against the
// reference runner.
func TestConcurrentLaunchAllocFree(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		const goroutines, rounds, n = 16, 25, 64
		groups := xpu.Dim3{X: 1}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		var wg sync.WaitGroup
		errs := make(chan error, goroutines)
		for g := range goroutines {
			wg.Go(func() {
				errs <- churn(d, uint32(g), groups, cfg, rounds, n)
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

// churn is one goroutine of TestConcurrentLaunchAllocFree.
func churn(d *gpu.Device, g uint32, groups xpu.Dim3, cfg xpu.Config, rounds, n int) error {
	for r := range rounds {
		y := make([]uint32, n)
		x := make([]uint32, n)
		for i := range y {
			y[i], x[i] = g*1000+uint32(r), uint32(i)*g
		}
		yb, err := gpu.Upload(d, y)
		if err != nil {
			return err
		}
		xb, err := gpu.Upload(d, x)
		if err != nil {
			yb.Release()
			return err
		}
		if err := d.Stream().Launch(iaxpyKernel, groups, yb, xb, g|1, uint32(n)); err != nil {
			return err
		}
		if ok, err := d.KernelAvailable(iaxpyKernel); !ok {
			return err
		}
		if err := d.Stream().LaunchWith(gpu.LaunchOptions{Block: xpu.Dim3{X: 3}}, iaxpyKernel, groups, yb, xb, g|1, uint32(n)); err == nil {
			return fmt.Errorf("goroutine %d: a launch with a foreign block ran", g)
		}
		got, err := yb.Download()
		if err != nil {
			return err
		}
		yb.Release()
		xb.Release()
		if err := xpu.Run(cfg, iaxpy, y, x, g|1, uint32(n)); err != nil {
			return err
		}
		for i := range got {
			if got[i] != y[i] {
				return fmt.Errorf("goroutine %d, round %d: y[%d] = %#x, reference %#x", g, r, i, got[i], y[i])
			}
		}
	}
	return nil
}

// TestLaunchesWithoutSyncRSS launches XPU_RSS_LAUNCHES times (unset: the
// test is skipped; it takes long) with no flush between, and logs the
// resident memory before, after the launches and after a sync: what a
// stream holds for launches it has not submitted.
func TestLaunchesWithoutSyncRSS(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("XPU_RSS_LAUNCHES"))
	if n <= 0 {
		t.Skip("XPU_RSS_LAUNCHES is not set")
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, x := newBuf[float32](t, d, 64), newBuf[float32](t, d, 64)
		launch := func() {
			if err := d.Stream().Launch(saxpyKernel, xpu.Dim3{X: 1}, y, x, float32(2), uint32(64)); err != nil {
				t.Fatal(err)
			}
		}
		for range 1000 {
			launch()
		}
		_, rss0 := memory(t, d)
		t0 := time.Now()
		for range n {
			launch()
		}
		rss1, t1 := residentBytes(), time.Now()
		_, rss2 := memory(t, d)
		t.Logf("%s: RSS %d MiB before, %d MiB after %d launches (%v), %d MiB after a sync (%v)",
			d.Info().Name, rss0>>20, rss1>>20, n, t1.Sub(t0).Round(time.Millisecond), rss2>>20, time.Since(t1).Round(time.Millisecond))
	})
}
