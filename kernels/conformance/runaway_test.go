package conformance_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
)

// The runaway tests launch Spin for far longer than a wait allows: on the
// CPU, 2^32-1 rounds per work-item (minutes); on WebGPU, whose work cannot
// be stopped, about runawayWork, so that the abandoned work ends soon
// after the test.
const (
	runawayItems = 64 * 64
	runawayWait  = 300 * time.Millisecond
	runawayWork  = 4 * time.Second
)

// TestRunawayKernel: a launch whose work outlives its context ends the
// wait promptly with ErrTimeout. On the CPU, LaunchContext stops the
// kernel inside its loop and the device still works (checked against the
// reference runner); on WebGPU, SyncContext returns and the device is
// lost: later calls fail with ErrLost and Close returns at once.
func TestRunawayKernel(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRunaway(t, d)
		ctx, cancel := context.WithTimeout(context.Background(), runawayWait)
		defer cancel()
		t0 := time.Now()
		err := d.Stream().LaunchContext(ctx, conformance.SpinKernel, xpu.Dim3{X: runawayItems / 64}, r.out, r.seed, r.rounds, uint32(runawayItems))
		if err == nil {
			err = d.Stream().SyncContext(ctx)
		}
		r.check(t, err, time.Since(t0))
	})
}

// TestWaitLimit: a device's wait limit bounds the waits that have no
// context of their own as a context would (the launch on the CPU, the
// read on WebGPU).
func TestWaitLimit(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRunaway(t, d)
		d.SetWaitLimit(runawayWait)
		t0 := time.Now()
		err := conformance.LaunchSpin(d.Stream(), xpu.Dim3{X: runawayItems / 64}, r.out, r.seed, r.rounds, uint32(runawayItems))
		if err == nil {
			err = r.out.Read(make([]uint32, runawayItems))
		}
		r.check(t, err, time.Since(t0))
	})
}

// runaway is a device with Spin's buffers and the rounds of a runaway.
type runaway struct {
	d         *gpu.Device
	r         *rand.Rand
	out, seed *gpu.Buffer[uint32]
	rounds    uint32
}

func newRunaway(t *testing.T, d *gpu.Device) *runaway {
	t.Helper()
	r := &runaway{d: d, r: rand.New(rand.NewPCG(rand.Uint64(), 7))}
	var err error
	if r.seed, err = gpu.Upload(d, r.seeds(runawayItems)); err == nil {
		r.out, err = gpu.NewBuffer[uint32](d, runawayItems)
	}
	if err != nil {
		t.Fatal(err)
	}
	r.rounds = 1<<32 - 1
	if d.Backend() != "cpu" {
		r.rounds = r.calibrate(t)
	}
	return r
}

func (r *runaway) seeds(n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = r.r.Uint32()
	}
	return s
}

// calibrate returns the rounds that keep the device busy for about
// runawayWork, measured by runs that wait for their end, after one that
// warms the kernel up.
func (r *runaway) calibrate(t *testing.T) uint32 {
	t.Helper()
	for rounds := uint32(1 << 10); ; rounds *= 2 {
		t0 := time.Now()
		err := conformance.LaunchSpin(r.d.Stream(), xpu.Dim3{X: runawayItems / 64}, r.out, r.seed, rounds, uint32(runawayItems))
		if err == nil {
			err = r.d.Sync()
		}
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(t0); (rounds > 1<<10 && took >= 100*time.Millisecond) || rounds >= 1<<30 {
			n := float64(rounds) * float64(runawayWork) / float64(took)
			t.Logf("%d rounds took %v: %.0f rounds for %v", rounds, took, n, runawayWork)
			return uint32(min(n, 1<<32-1))
		}
	}
}

// check checks the error of a wait on the runaway and the device's state
// after it.
func (r *runaway) check(t *testing.T, err error, took time.Duration) {
	t.Helper()
	t.Logf("after %v: %v", took, err)
	if !errors.Is(err, gpu.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a wait on work that outlives it: %v, want ErrTimeout and the deadline", err)
	}
	if took > runawayWait+2*time.Second {
		t.Errorf("a wait of %v returned after %v", runawayWait, took)
	}
	d := r.d
	d.SetWaitLimit(0)
	if !errors.Is(err, gpu.ErrLost) {
		// The device stopped the kernel and works on.
		r.works(t)
		return
	}
	if d.Backend() == "cpu" {
		t.Errorf("the CPU device is lost: %v", err)
	}
	lost := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, gpu.ErrLost) {
			t.Errorf("%s on a lost device: %v, want ErrLost", what, err)
		}
	}
	lost("Launch", conformance.LaunchSpin(d.Stream(), xpu.Dim3{X: 1}, r.out, r.seed, 1, 64))
	lost("Sync", d.Sync())
	lost("Read", r.out.Read(make([]uint32, runawayItems)))
	_, err = gpu.NewBuffer[uint32](d, 4)
	lost("NewBuffer", err)
	t0 := time.Now()
	if err := d.Close(); err != nil {
		t.Errorf("Close of a lost device: %v", err)
	}
	if took := time.Since(t0); took > time.Second {
		t.Errorf("Close of a lost device took %v", took)
	}
	if err := d.Sync(); !errors.Is(err, gpu.ErrClosed) {
		t.Errorf("Sync after Close: %v, want ErrClosed", err)
	}
}

// works runs Spin on fresh inputs into a poisoned output and compares it
// with the reference runner, bit for bit.
func (r *runaway) works(t *testing.T) {
	t.Helper()
	const n = 1000
	seed := r.seeds(n)
	rounds := r.r.Uint32N(500)
	poison := slices.Repeat([]uint32{0xDEADBEEF}, n)
	out, err := gpu.Upload(r.d, poison)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	in, err := gpu.Upload(r.d, seed)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
	if err := conformance.LaunchSpin(r.d.Stream(), groups, out, in, rounds, n); err != nil {
		t.Fatalf("launch after the timeout: %v", err)
	}
	got, err := out.Download()
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(poison)
	if err := xpu.Run(xpu.Config{Groups: groups, Block: xpu.Dim3{X: 64}}, conformance.Spin, want, seed, rounds, uint32(n)); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("after the timeout: out[%d] = %#x, want %#x (reference, exact)", i, got[i], want[i])
		}
	}
}
