package drivertest

// This file holds the case of memory that allocations, launches and
// releases leave behind.

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// testNoLeaks allocates, launches and frees many times: the driver's
// bindings go with the buffers, and the process does not grow by the
// buffers it freed (on a software adapter or the CPU device memory is
// host memory).
func testNoLeaks(t *testing.T, c Config) {
	if c.LeakCycles == 0 {
		t.Skip("no leak cycles asked for")
	}
	d := c.open(t)
	p, q := c.setup(t, d)
	const size = 1 << 20
	cycle := func(i int) {
		a, b, u := mustBuffer(t, d, size), mustBuffer(t, d, size), mustBuffer(t, d, 4)
		for j := range 3 {
			if err := q.Launch(bg, p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{b, a, u}, uniforms(uint32(i+j))); err != nil {
				t.Fatal(err)
			}
		}
		if i%3 == 0 {
			if err := b.Read(bg, 0, make([]byte, 64)); err != nil {
				t.Fatal(err)
			}
		}
		a.Release()
		b.Release()
		u.Release()
		if i%2 == 0 {
			if err := q.Flush(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range 20 {
		cycle(i)
	}
	if err := q.Sync(bg); err != nil {
		t.Fatal(err)
	}
	before := settledResidentBytes()
	cycles := c.LeakCycles
	for i := range cycles {
		cycle(i)
	}
	if err := q.Sync(bg); err != nil {
		t.Fatal(err)
	}
	after := settledResidentBytes()
	if n := c.bindings(d); n != 0 {
		t.Errorf("%d bindings held after every buffer was released", n)
	}
	// A leak of the buffers alone would be 2*size*cycles.
	if before > 0 && after-before > 64<<20 {
		t.Errorf("resident memory grew by %d MiB over %d cycles of %d MiB", (after-before)>>20, cycles, 2*size>>20)
	}
	t.Logf("resident memory: %d MiB before, %d MiB after %d cycles", before>>20, after>>20, cycles)
}

// settledResidentBytes returns residentBytes once Go's heap has given
// back what it holds unreachable: a driver whose buffers are Go memory
// (the CPU's) frees them only when the collector runs, and the collector
// returns pages to the system when it likes, which on a loaded machine
// reads as growth that is no leak.
func settledResidentBytes() int64 {
	runtime.GC()
	debug.FreeOSMemory()
	return residentBytes()
}

// residentBytes returns the resident set size of the process, or 0 where
// the system does not say.
func residentBytes() int64 {
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
