package drivertest

// This file holds the cases of waiting: a wait lasts as long as the work
// it waits for, however long, and no longer than its context allows.

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// spinInner is the inner loop's length: rounds of it are the unit of
// work that calibration counts.
const spinInner = 1 << 16

// spinWant returns what the Spin kernel writes after rounds rounds: the
// generator's state, by squaring its affine step, and rounds.
func spinWant(rounds uint32) [2]uint32 {
	a, c := uint32(1664525), uint32(1013904223) // x -> a*x + c
	ra, rc := uint32(1), uint32(0)              // the steps taken so far
	for n := uint64(rounds) * spinInner; n > 0; n >>= 1 {
		if n&1 == 1 {
			ra, rc = a*ra, a*rc+c
		}
		a, c = a*a, a*c+c
	}
	return [2]uint32{ra*12345 + rc, rounds}
}

// spin is a device with the Spin kernel compiled, a queue, and the kernel's
// output buffer.
type spin struct {
	d   driver.Device
	p   driver.Program
	q   driver.Queue
	out driver.Buffer
}

// newSpin opens a device with the Spin kernel ready; the caller closes it.
func (c Config) newSpin(t *testing.T) *spin {
	t.Helper()
	d, err := c.Open()
	if errors.Is(err, driver.ErrUnavailable) && !c.Required {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	s := &spin{d: d}
	if s.p, err = d.Compile(c.spinKernel); err == nil {
		if s.q, err = d.NewQueue(); err == nil {
			s.out, err = d.NewBuffer(8)
		}
	}
	if err != nil {
		d.Close()
		t.Fatal(err)
	}
	return s
}

// launch records a run of rounds rounds into an output poisoned first.
func (s *spin) launch(t *testing.T, rounds uint32) {
	t.Helper()
	if err := s.launchUnder(bg, rounds); err != nil {
		t.Fatal(err)
	}
}

// launchUnder records a run of rounds rounds under ctx into an output
// poisoned first.
func (s *spin) launchUnder(ctx context.Context, rounds uint32) error {
	if err := s.out.Write(0, u32Bytes([]uint32{0xDEADBEEF, 0xDEADBEEF})); err != nil {
		return err
	}
	return s.q.Launch(ctx, s.p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{s.out}, u32Bytes([]uint32{rounds, spinInner, 0, 0}))
}

// calibrate returns the rounds that keep the device busy for about
// target, measured by runs from their launch to the end of their Sync
// (a driver that runs a launch as it records it spends the time in
// Launch), after one that warms the pipeline up.
func (s *spin) calibrate(t *testing.T, target time.Duration) uint32 {
	t.Helper()
	run := func(rounds uint32) time.Duration {
		t0 := time.Now()
		s.launch(t, rounds)
		if err := s.q.Sync(bg); err != nil {
			t.Fatal(err)
		}
		return time.Since(t0)
	}
	long := func(rounds uint32, took time.Duration) bool {
		return (rounds > 1 && took >= 200*time.Millisecond) || rounds >= 1<<20
	}
	for rounds := uint32(1); ; rounds *= 2 {
		// A stall of the host (the process descheduled on a loaded
		// machine) can make a short run look long, and the target's
		// rounds then take milliseconds: a run counts as long only when
		// a second one is too, and the faster of the two scales.
		if took := run(rounds); long(rounds, took) {
			if again := min(took, run(rounds)); long(rounds, again) {
				return scale(t, rounds, again, target)
			}
		}
	}
}

// scale returns the rounds that would take target if rounds took took.
func scale(t *testing.T, rounds uint32, took, target time.Duration) uint32 {
	n := float64(rounds) * float64(target) / float64(took)
	t.Logf("%d rounds took %v: %.0f rounds for %v", rounds, took, n, target)
	return uint32(min(max(n, 1), 1<<31))
}

// testSyncWaitsForWork runs work longer than c.LongWork (beyond the five
// seconds after which wgpu 0.19's blocking poll gives up) and checks that
// Sync returned after all of it: a read right after, that may wait one
// second, has the complete result. On a driver that runs a launch as it
// records it, Launch is the wait.
func testSyncWaitsForWork(t *testing.T, c Config) {
	if c.LongWork == 0 {
		t.Skip("the driver's suite runs no long work (Config.LongWork)")
	}
	s := c.newSpin(t)
	defer func() {
		s.out.Release()
		s.q.Release()
		s.p.Release()
		if err := s.d.Close(); err != nil {
			t.Error(err)
		}
	}()
	// The device's speed varies with the host's load: a run shorter than
	// wanted is run again, longer.
	rounds := s.calibrate(t, c.LongWork)
	for try := 0; ; try++ {
		took := s.waitedRun(t, rounds)
		if took >= c.LongWork*3/4 {
			t.Logf("Sync waited %v for %d rounds", took, rounds)
			return
		}
		if try == 3 {
			t.Fatalf("the work took %v, not the %v the case needs", took, c.LongWork*3/4)
		}
		rounds = scale(t, rounds, took, c.LongWork)
	}
}

// waitedRun runs rounds rounds, waits for them with Sync, and checks the
// result with a read that may wait one second: a Sync that returned with
// the work still running fails it. It returns the time from the launch
// to the end of Sync.
func (s *spin) waitedRun(t *testing.T, rounds uint32) time.Duration {
	t.Helper()
	t0 := time.Now()
	s.launch(t, rounds)
	if err := s.q.Sync(bg); err != nil {
		t.Fatal(err)
	}
	took := time.Since(t0)
	ctx, cancel := context.WithTimeout(bg, time.Second)
	defer cancel()
	raw := make([]byte, 8)
	err := s.out.Read(ctx, 0, raw)
	if errors.Is(err, driver.ErrTimeout) {
		t.Fatalf("Sync returned after %v with the work still running: a read a second later timed out: %v", took, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	got := [2]uint32{binary.LittleEndian.Uint32(raw), binary.LittleEndian.Uint32(raw[4:])}
	if want := spinWant(rounds); got != want {
		t.Fatalf("after Sync (%v): state %#x after %d rounds, want %#x after %d", took, got[0], got[1], want[0], want[1])
	}
	return took
}

// testRunawayKernel runs work far longer than its wait's context allows.
// On a driver that defers launches, it waits by Sync and by Read: the
// wait ends promptly with an error wrapping ErrTimeout and ErrLost, every
// later call on the device fails with ErrLost, and Close returns at once.
// On a driver that runs a launch as it records it, the launch's context
// bounds the run: Launch ends promptly with ErrTimeout, the kernel has
// stopped early, and the device goes on working.
func testRunawayKernel(t *testing.T, c Config) {
	if c.RunsOnRecord {
		if c.CannotStop != "" {
			t.Skip(c.CannotStop)
		}
		testRunawayLaunch(t, c)
		return
	}
	for _, by := range []string{"sync", "read"} {
		t.Run(by, func(t *testing.T) { testRunawayWait(t, c, by) })
	}
}

// runawayLimit is the context of a wait on runaway work, and
// runawayReturn how late the wait may return.
const runawayLimit, runawayReturn = 300 * time.Millisecond, 2 * time.Second

func testRunawayLaunch(t *testing.T, c Config) {
	s := c.newSpin(t)
	defer func() {
		s.out.Release()
		s.q.Release()
		s.p.Release()
		if err := s.d.Close(); err != nil {
			t.Error(err)
		}
	}()
	rounds := s.calibrate(t, 4*time.Second)
	ctx, cancel := context.WithTimeout(bg, runawayLimit)
	defer cancel()
	t0 := time.Now()
	err := s.launchUnder(ctx, rounds)
	took := time.Since(t0)
	if !errors.Is(err, driver.ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, driver.ErrLost) {
		t.Fatalf("a launch that outlives its context: %v, want ErrTimeout and the deadline, not ErrLost", err)
	}
	if took > runawayReturn {
		t.Errorf("a launch under a %v context returned after %v", runawayLimit, took)
	}
	t.Logf("launch: %v after %v", err, took)
	if got := readU32(t, s.out); got[1] != 0xDEADBEEF && got[1] >= rounds {
		t.Errorf("the stopped kernel wrote that it ran all %d rounds", rounds)
	}
	// The device goes on working.
	s.launch(t, 3)
	if err := s.q.Sync(bg); err != nil {
		t.Fatal(err)
	}
	if got, want := readU32(t, s.out), spinWant(3); got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("after a stopped launch: %#x, want %#x", got, want)
	}
}

func testRunawayWait(t *testing.T, c Config, by string) {
	s := c.newSpin(t)
	closed := false
	defer func() {
		if !closed {
			s.d.Close()
		}
	}()
	rounds := s.calibrate(t, 4*time.Second)
	s.launch(t, rounds)
	if err := s.q.Flush(bg); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bg, runawayLimit)
	defer cancel()
	t0 := time.Now()
	var err error
	if by == "sync" {
		err = s.q.Sync(ctx)
	} else {
		err = s.out.Read(ctx, 0, make([]byte, 8))
	}
	took := time.Since(t0)
	if !errors.Is(err, driver.ErrTimeout) || !errors.Is(err, driver.ErrLost) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%s of work that outlives its context: %v, want ErrTimeout, ErrLost and the deadline", by, err)
	}
	if took > runawayReturn {
		t.Errorf("%s under a %v context returned after %v", by, runawayLimit, took)
	}
	t.Logf("%s: %v after %v", by, err, took)
	lost := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, driver.ErrLost) {
			t.Errorf("%s on a lost device: %v, want ErrLost", what, err)
		}
	}
	lost("Launch", s.q.Launch(bg, s.p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{s.out}, make([]byte, 16)))
	lost("Flush", s.q.Flush(bg))
	lost("Sync", s.q.Sync(bg))
	lost("Read", s.out.Read(bg, 0, make([]byte, 8)))
	lost("Write", s.out.Write(0, make([]byte, 8)))
	_, err = s.d.NewBuffer(4)
	lost("NewBuffer", err)
	_, err = s.d.NewQueue()
	lost("NewQueue", err)
	_, err = s.d.Compile(c.addKernel)
	lost("Compile", err)
	t0 = time.Now()
	s.out.Release()
	s.q.Release()
	s.p.Release()
	closed = true
	if err := s.d.Close(); err != nil {
		t.Errorf("Close of a lost device: %v", err)
	}
	if took := time.Since(t0); took > time.Second {
		t.Errorf("releasing and closing a lost device took %v", took)
	}
}
