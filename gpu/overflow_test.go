package gpu_test

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// TestBufferSizeOverflow asks for buffers whose size in bytes does not fit
// an int: the size must be refused with ErrSize, not wrap to a small
// buffer whose last element aliases its first.
func TestBufferSizeOverflow(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, n := range []int{1<<62 + 1, math.MaxInt/4 + 1, math.MaxInt} {
			b, err := gpu.NewBuffer[float32](d, n)
			if err == nil {
				t.Errorf("NewBuffer[float32](%d) made a buffer of %d elements", n, b.Len())
				b.Release()
				continue
			}
			wantRefusal(t, err, gpu.ErrSize, "NewBuffer", strconv.Itoa(n))
		}
		type pair struct{ A, B float32 }
		if _, err := gpu.NewBuffer[pair](d, math.MaxInt/8+1); err == nil {
			t.Error("NewBuffer of 8-byte elements whose bytes overflow made a buffer")
		}
	})
}

// TestBufferBeyondMemory asks for a buffer of more bytes than the
// machine's physical memory (on the cpu backend, whose buffers are host
// memory): it must be refused with ErrLimits, naming the device's limit,
// where Go would end the program on the allocation.
func TestBufferBeyondMemory(t *testing.T) {
	total := memTotal()
	if total == 0 {
		t.Skip("no /proc/meminfo")
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		if d.Backend() != "cpu" {
			t.Skip("device memory is not host memory")
		}
		if got := d.Info().Facts["memory"]; got == "" {
			t.Error("the cpu device reports no memory fact")
		}
		n := int((total + 1<<30) / 4)
		_, err := gpu.NewBuffer[float32](d, n)
		wantRefusal(t, err, gpu.ErrLimits, "NewBuffer", "allows")
	})
}

// memTotal returns /proc/meminfo's MemTotal in bytes; 0 without one.
func memTotal() uint64 {
	raw, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestGridOverflow launches grids whose group count does not fit the
// uint64 that counts it, and grids whose work-items' global index on an
// axis does not fit a uint32: each is refused with ErrGrid, on every
// backend, before a driver sees it (the cpu backend counted 2^64 groups
// as zero, and would repeat global indices).
func TestGridOverflow(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		y, x := newBuf[float32](t, d, 64), newBuf[float32](t, d, 64)
		for _, c := range []struct {
			name string
			grid xpu.Dim3
		}{
			{"groups", xpu.Dim3{X: 1 << 21, Y: 1 << 21, Z: 1 << 22}},
			{"global index", xpu.Dim3{X: 1<<26 + 1}}, // 64-wide blocks
		} {
			t.Run(c.name, func(t *testing.T) {
				err := d.Stream().Launch(saxpyKernel, c.grid, y, x, float32(1), uint32(64))
				wantRefusal(t, err, gpu.ErrGrid, saxpyKernel.Name())
			})
		}
	})
}
