package gpu_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

// TestMemoryBudget allocates up to a device's memory budget and past it:
// what fits is allocated and launches as it should, what does not is
// refused with ErrBudget naming the sizes, releases give their bytes
// back, views add none, and a launch whose buffers hold more than a
// lowered budget is refused and does not run.
func TestMemoryBudget(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		defer d.SetMemoryBudget(0)
		const n = 256
		const bytes = 4 * n
		base := d.MemoryInUse()
		d.SetMemoryBudget(base + 2*bytes + bytes/2)
		r := newRand(t)
		y, x := randU32s(r, n), randU32s(r, n)
		yb, xb := upload(t, d, y), upload(t, d, x)
		if got := d.MemoryInUse() - base; got != 2*bytes {
			t.Fatalf("MemoryInUse after two buffers of %d bytes: %d more", bytes, got)
		}
		_, err := gpu.NewBuffer[uint32](d, n)
		wantBudget(t, "NewBuffer over the budget", err, fmt.Sprintf("of %d bytes: %d bytes in use, of a memory budget of %d", bytes, base+2*bytes, base+2*bytes+bytes/2))
		_, err = gpu.Upload(d, x)
		wantBudget(t, "Upload over the budget", err, "NewBuffer[uint32]")
		small, err := gpu.NewBuffer[uint32](d, n/4)
		if err != nil {
			t.Fatalf("a buffer within the budget: %v", err)
		}
		small.Release()
		if v, err := yb.Slice(0, n/2); err != nil || d.MemoryInUse()-base != 2*bytes {
			t.Fatalf("a view: %v, %v; MemoryInUse %d more", v, err, d.MemoryInUse()-base)
		}

		// Within the budget, a launch runs.
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		if err := d.Stream().Launch(iaxpyKernel, groups, yb, xb, uint32(3), uint32(n)); err != nil {
			t.Fatal(err)
		}
		_ = xpu.Run(cfg, iaxpy, y, x, uint32(3), uint32(n))
		checkU32(t, "within the budget", download(t, yb), y)

		// Over a lowered one, it is refused and does not run.
		d.SetMemoryBudget(base + 3*bytes)
		out := upload(t, d, fill(n, poisonU32))
		d.SetMemoryBudget(bytes + bytes/2)
		err = d.Stream().Launch(xorToKernel, groups, out, xb, uint32(1), uint32(n))
		wantBudget(t, "a launch over the budget", err, fmt.Sprintf("XorTo: its buffers' allocations hold %d bytes, over the memory budget of %d", 2*bytes, bytes+bytes/2))
		checkU32(t, "after the refused launch", download(t, out), fill(n, poisonU32))

		// Released buffers give their bytes back.
		d.SetMemoryBudget(base + 3*bytes)
		xb.Release()
		if got := d.MemoryInUse() - base; got != 2*bytes {
			t.Fatalf("MemoryInUse after a release: %d more, want %d", got, 2*bytes)
		}
		if b, err := gpu.NewBuffer[uint32](d, n); err != nil {
			t.Fatalf("after a release: %v", err)
		} else {
			b.Release()
		}
	})
}

func wantBudget(t *testing.T, what string, err error, detail string) {
	t.Helper()
	if !errors.Is(err, gpu.ErrBudget) {
		t.Fatalf("%s: %v, want an error wrapping ErrBudget", what, err)
	}
	if !strings.Contains(err.Error(), detail) {
		t.Fatalf("%s: %q does not say %q", what, err, detail)
	}
}

// TestBestEffortWaits holds a protected launch in flight: a launch
// without a deadline waits at admission (it has not run while the
// protected one is held), one with a deadline runs at once, and the
// waiting one runs when the protected one is submitted, with the
// reference runner's result.
func TestBestEffortWaits(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 256
		x := randU32s(r, n)
		xb := upload(t, d, x)
		early, late := upload(t, d, fill(n, poisonU32)), upload(t, d, fill(n, poisonU32))
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		release := gpu.HoldProtected(d)
		done := make(chan error, 1)
		go func() { done <- d.Stream().Launch(xorToKernel, groups, late, xb, uint32(5), uint32(n)) }()
		if err := d.Stream().LaunchBy(time.Now().Add(time.Minute), xorToKernel, groups, early, xb, uint32(7), uint32(n)); err != nil {
			t.Fatalf("a protected launch while another is held: %v", err)
		}
		select {
		case err := <-done:
			release()
			t.Fatalf("a best-effort launch ran while a protected one was in flight (%v)", err)
		case <-time.After(100 * time.Millisecond):
		}
		checkU32(t, "best effort, held", download(t, late), fill(n, poisonU32))
		release()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		cfg := xpu.Config{Groups: groups, Block: xorToKernel.Block()}
		want := make([]uint32, n)
		_ = xpu.Run(cfg, xorTo, want, x, uint32(7), uint32(n))
		checkU32(t, "protected", download(t, early), want)
		_ = xpu.Run(cfg, xorTo, want, x, uint32(5), uint32(n))
		checkU32(t, "best effort, released", download(t, late), want)
	})
}

// TestBestEffortGivesUp holds a protected launch in flight while
// best-effort launches wait past their context and past the device's
// wait limit: each is refused with ErrTimeout and its context's error,
// and does not run.
func TestBestEffortGivesUp(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		const n = 64
		out, in := upload(t, d, fill(n, poisonU32)), newBuf[uint32](t, d, n)
		groups := xpu.Dim3{X: 1}
		release := gpu.HoldProtected(d)
		defer release()
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		err := d.Stream().LaunchContext(ctx, xorToKernel, groups, out, in, uint32(1), uint32(n))
		if !errors.Is(err, gpu.ErrTimeout) || !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled while held: %v, want ErrTimeout and context.Canceled", err)
		}
		d.SetWaitLimit(20 * time.Millisecond)
		err = d.Stream().Launch(xorToKernel, groups, out, in, uint32(1), uint32(n))
		d.SetWaitLimit(0)
		if !errors.Is(err, gpu.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("past the wait limit while held: %v, want ErrTimeout and context.DeadlineExceeded", err)
		}
		checkU32(t, "after the refusals", download(t, out), fill(n, poisonU32))
	})
}

// TestPoolBudget allocates from a pool up to its budget and past it, and
// from the device beside it: what fits is allocated, what does not is
// refused with ErrBudget naming the pool, the device's budget bounds the
// pool's buffers too, releases give their bytes back to both, and a
// launch whose buffers from the pool hold more than its lowered budget is
// refused and does not run.
func TestPoolBudget(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		defer d.SetMemoryBudget(0)
		const n = 256
		const bytes = 4 * n
		p, err := d.NewPool("cache", 2*bytes)
		if err != nil {
			t.Fatal(err)
		}
		r := newRand(t)
		y, x := randU32s(r, n), randU32s(r, n)
		yb, err := gpu.UploadIn(p, y)
		if err != nil {
			t.Fatal(err)
		}
		defer yb.Release()
		xb, err := gpu.UploadIn(p, x)
		if err != nil {
			t.Fatal(err)
		}
		if p.InUse() != 2*bytes {
			t.Fatalf("InUse after two buffers of %d bytes: %d", bytes, p.InUse())
		}
		_, err = gpu.NewBufferIn[uint32](p, n)
		wantBudget(t, "NewBufferIn over the pool's budget", err, fmt.Sprintf(`%d bytes in use, of pool "cache"'s budget of %d`, 2*bytes, 2*bytes))
		// The device's buffers are not the pool's.
		other := upload(t, d, x)
		// The device's budget bounds the pool's buffers too.
		p.SetBudget(4 * bytes)
		d.SetMemoryBudget(d.MemoryInUse() + bytes/2)
		_, err = gpu.NewBufferIn[uint32](p, n)
		wantBudget(t, "NewBufferIn over the device's budget", err, "of a memory budget of")
		if p.InUse() != 2*bytes {
			t.Fatalf("InUse after a refusal: %d, want %d", p.InUse(), 2*bytes)
		}
		d.SetMemoryBudget(0)

		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		if err := d.Stream().Launch(iaxpyKernel, groups, yb, xb, uint32(3), uint32(n)); err != nil {
			t.Fatal(err)
		}
		_ = xpu.Run(cfg, iaxpy, y, x, uint32(3), uint32(n))
		checkU32(t, "within the budget", download(t, yb), y)
		// One buffer of the pool fits a lowered budget, two do not.
		p.SetBudget(bytes)
		if err := d.Stream().Launch(iaxpyKernel, groups, yb, other, uint32(5), uint32(n)); err != nil {
			t.Fatalf("a launch with one buffer of the pool: %v", err)
		}
		_ = xpu.Run(cfg, iaxpy, y, x, uint32(5), uint32(n))
		err = d.Stream().Launch(iaxpyKernel, groups, yb, xb, uint32(7), uint32(n))
		wantBudget(t, "a launch over the pool's budget", err, fmt.Sprintf(`in pool "cache" hold %d bytes, over its budget of %d`, 2*bytes, bytes))
		checkU32(t, "after the refused launch", download(t, yb), y)
		// So is the replay of a graph captured within it.
		p.SetBudget(2 * bytes)
		s := d.Stream()
		g, err := s.Capture(func() error { return s.Launch(iaxpyKernel, groups, yb, xb, uint32(9), uint32(n)) })
		if err != nil {
			t.Fatal(err)
		}
		p.SetBudget(bytes)
		wantBudget(t, "a replay over the pool's budget", g.Replay(), `in pool "cache"`)
		g.Release()
		checkU32(t, "after the refused replay", download(t, yb), y)

		xb.Release()
		if p.InUse() != bytes {
			t.Fatalf("InUse after a release: %d, want %d", p.InUse(), bytes)
		}
		if _, err := gpu.NewBufferIn[uint32](nil, n); !errors.Is(err, gpu.ErrArgs) {
			t.Errorf("NewBufferIn of a nil pool: %v, want ErrArgs", err)
		}
	})
}
