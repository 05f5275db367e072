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
	"github.com/goxpu/xpu/schema"
)

// spinKernel steps a linear congruential generator rounds*inner times in
// one invocation and writes its state and the rounds it ran: work whose
// length the uniforms set and whose result says it ran to the end.
var spinKernel = &driver.Kernel{
	Name:  "drivertest.spin",
	Block: xpu.Dim3{X: 1, Y: 1, Z: 1},
	Params: []schema.Param{
		{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
		{Name: "rounds", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 0},
		{Name: "inner", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 4},
	},
	UniformSize: 16,
	Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL}, Code: `
struct Uniforms { rounds: u32, inner: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> u: Uniforms;

@compute @workgroup_size(1)
fn main() {
	var x: u32 = 12345u;
	var i: u32 = 0u;
	for (; i < u.rounds; i++) {
		for (var j: u32 = 0u; j < u.inner; j++) {
			x = x * 1664525u + 1013904223u;
		}
	}
	out[0] = x;
	out[1] = i;
}
`},
	},
}

// spinInner is the inner loop's length: rounds of it are the unit of
// work that calibration counts.
const spinInner = 1 << 16

// spinWant returns what spinKernel writes after rounds rounds: the
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

// spin is a device with spinKernel compiled, a queue, and the kernel's
// output buffer.
type spin struct {
	d   driver.Device
	p   driver.Program
	q   driver.Queue
	out driver.Buffer
}

// newSpin opens a device with spinKernel ready; the caller closes it.
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
	if s.p, err = d.Compile(spinKernel); err == nil {
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
	if err := s.out.Write(0, u32Bytes([]uint32{0xDEADBEEF, 0xDEADBEEF})); err != nil {
		t.Fatal(err)
	}
	if err := s.q.Launch(bg, s.p, xpu.Dim3{X: 1, Y: 1, Z: 1}, []driver.Buffer{s.out}, u32Bytes([]uint32{rounds, spinInner, 0, 0})); err != nil {
		t.Fatal(err)
	}
}

// calibrate returns the rounds that keep the device busy for about
// target, measured by runs that each wait for their end, after one that
// warms the pipeline up.
func (s *spin) calibrate(t *testing.T, target time.Duration) uint32 {
	t.Helper()
	for rounds := uint32(1); ; rounds *= 2 {
		s.launch(t, rounds)
		t0 := time.Now()
		if err := s.q.Sync(bg); err != nil {
			t.Fatal(err)
		}
		took := time.Since(t0)
		if (rounds > 1 && took >= 200*time.Millisecond) || rounds >= 1<<20 {
			return scale(t, rounds, took, target)
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
// second, has the complete result.
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
// the work still running fails it.
func (s *spin) waitedRun(t *testing.T, rounds uint32) time.Duration {
	t.Helper()
	s.launch(t, rounds)
	t0 := time.Now()
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

// testRunawayKernel waits on work that runs far longer than the wait's
// context allows, by Sync and by Read: the wait ends promptly with an
// error wrapping ErrTimeout and ErrLost, every later call on the device
// fails with ErrLost, and Close returns at once.
func testRunawayKernel(t *testing.T, c Config) {
	for _, by := range []string{"sync", "read"} {
		t.Run(by, func(t *testing.T) {
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
			ctx, cancel := context.WithTimeout(bg, 300*time.Millisecond)
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
			if took > 2*time.Second {
				t.Errorf("%s under a 300ms context returned after %v", by, took)
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
			_, err = s.d.Compile(addKernel)
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
		})
	}
}
