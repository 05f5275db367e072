package gpu_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/schema"
)

// axpyStep is one launch of iaxpy in a sequence: y = a*y + x over the first
// n elements, on buffers named by index.
type axpyStep struct {
	y, x int
	a, n uint32
}

// runSteps runs steps on the reference runner over host copies.
func runSteps(t *testing.T, host [][]uint32, steps []axpyStep) {
	t.Helper()
	for _, st := range steps {
		cfg := xpu.Config{Groups: xpu.Dim3{X: xpu.GroupsFor(st.n, 64)}, Block: iaxpyKernel.Block()}
		if err := xpu.Run(cfg, iaxpy, host[st.y], host[st.x], st.a, st.n); err != nil {
			t.Fatal(err)
		}
	}
}

// launchSteps launches steps on s over bufs.
func launchSteps(s *gpu.Stream, bufs []*gpu.Buffer[uint32], steps []axpyStep) error {
	for _, st := range steps {
		if err := s.Launch(iaxpyKernel, xpu.Dim3{X: xpu.GroupsFor(st.n, 64)}, bufs[st.y], bufs[st.x], st.a, st.n); err != nil {
			return err
		}
	}
	return nil
}

// chain returns a random sequence of launches over nbuf buffers of n
// elements, each launch reading another buffer than it writes, so that
// every launch depends on ones before it.
func chain(r interface{ IntN(int) int }, launches, nbuf, n int) []axpyStep {
	steps := make([]axpyStep, launches)
	for i := range steps {
		y := r.IntN(nbuf)
		x := (y + 1 + r.IntN(nbuf-1)) % nbuf
		steps[i] = axpyStep{y: y, x: x, a: uint32(r.IntN(1<<20))*2 + 1, n: uint32(n/2 + r.IntN(n/2+1))}
	}
	return steps
}

// TestCaptureReplay captures a chain of dependent launches and replays
// it many times, with scalars and grids patched between replays, reading
// results back in between: the results are the reference runner's,
// launch for launch, on every backend, with replay on and off.
func TestCaptureReplay(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		for _, on := range []bool{true, false} {
			t.Run(fmt.Sprintf("replay=%v", on), func(t *testing.T) {
				d.SetReplay(on)
				defer d.SetReplay(true)
				r := newRand(t)
				const n, nbuf, launches, replays = 300, 4, 40, 12
				host := make([][]uint32, nbuf)
				bufs := make([]*gpu.Buffer[uint32], nbuf)
				for i := range host {
					host[i] = randU32s(r, n)
					bufs[i] = upload(t, d, host[i])
				}
				steps := chain(r, launches, nbuf, n)
				s, err := d.NewStream()
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				before := s.Counters()
				g, err := s.Capture(func() error { return launchSteps(s, bufs, steps) })
				if err != nil {
					t.Fatal(err)
				}
				if g.Len() != launches || g.Kernel(0) != iaxpyKernel {
					t.Fatalf("graph of %d launches of %v, want %d of %s", g.Len(), g.Kernel(0), launches, iaxpyKernel.Name())
				}
				// Nothing ran at capture.
				for i := range bufs {
					checkU32(t, fmt.Sprintf("buffer %d after capture", i), download(t, bufs[i]), host[i])
				}
				for rep := range replays {
					for j := range 3 {
						i := r.IntN(launches)
						steps[i].a = uint32(r.IntN(1<<20))*2 + 1
						if err := g.SetScalar(i, "a", steps[i].a); err != nil {
							t.Fatal(err)
						}
						if j == 0 {
							// A smaller grid leaves the tail alone, in the
							// reference too: n stays what the launch says.
							steps[i].n = uint32(n/4 + r.IntN(n/4))
							if err := g.SetScalar(i, "n", steps[i].n); err != nil {
								t.Fatal(err)
							}
							if err := g.SetGrid(i, xpu.Dim3{X: xpu.GroupsFor(steps[i].n, 64)}); err != nil {
								t.Fatal(err)
							}
						}
					}
					if err := g.Replay(); err != nil {
						t.Fatal(err)
					}
					runSteps(t, host, steps)
					if rep%4 == 3 {
						for i := range bufs {
							checkU32(t, fmt.Sprintf("buffer %d after replay %d", i, rep), download(t, bufs[i]), host[i])
						}
					}
				}
				if err := s.Sync(); err != nil {
					t.Fatal(err)
				}
				for i := range bufs {
					checkU32(t, fmt.Sprintf("buffer %d at the end", i), download(t, bufs[i]), host[i])
				}
				c := s.Counters()
				replayed := c.Replayed - before.Replayed
				direct := c.Direct - before.Direct
				want := uint64(launches * replays)
				switch {
				case on && (replayed != want || direct != 0):
					t.Errorf("replay on: %d replayed and %d direct launches, want %d and 0", replayed, direct, want)
				case !on && (replayed != 0 || direct != want):
					t.Errorf("replay off: %d replayed and %d direct launches, want 0 and %d", replayed, direct, want)
				case c.Graphs-before.Graphs != 1 || c.Patches == before.Patches || c.Flushes == before.Flushes:
					t.Errorf("counters %+v after %+v: want one graph more, and patches and flushes", c, before)
				}
				g.Release()
				if err := g.Replay(); !errors.Is(err, gpu.ErrReleased) {
					t.Errorf("replay of a released graph: %v, want ErrReleased", err)
				}
			})
		}
	})
}

// TestCaptureRefusals checks what a capture refuses, by name, and that a
// refusal leaves the stream and its buffers working.
func TestCaptureRefusals(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 128
		y, x, free := randU32s(r, n), randU32s(r, n), randU32s(r, n)
		yb, xb, fb := upload(t, d, y), upload(t, d, x), upload(t, d, free)
		s := d.Stream()
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		launch := func() error { return s.Launch(iaxpyKernel, groups, yb, xb, uint32(3), uint32(n)) }
		refused := func(what string, want error, f func() error) {
			t.Helper()
			_, err := s.Capture(func() error {
				if err := launch(); err != nil {
					return err
				}
				return f()
			})
			if !errors.Is(err, want) {
				t.Errorf("%s: %v, want an error wrapping %v", what, err, want)
			}
		}
		refused("Sync", gpu.ErrCapture, s.Sync)
		refused("Flush", gpu.ErrCapture, s.Flush)
		refused("Device.Sync", gpu.ErrCapture, d.Sync)
		refused("Read of a bound buffer", gpu.ErrCapture, func() error { return yb.Read(make([]uint32, n)) })
		refused("Write of a bound buffer", gpu.ErrCapture, func() error { return xb.Write(x) })
		refused("a capture in a capture", gpu.ErrCapture, func() error {
			_, err := s.Capture(func() error { return nil })
			return err
		})
		refused("a launch with a deadline", gpu.ErrCapture, func() error {
			return s.LaunchWith(gpu.LaunchOptions{Deadline: time.Now().Add(time.Hour)}, iaxpyKernel, groups, yb, xb, uint32(3), uint32(n))
		})
		refused("Time", gpu.ErrCapture, func() error {
			_, err := s.Time(func() error { return nil })
			return err
		})
		refused("a launch's own refusal", gpu.ErrArgs, func() error { return s.Launch(iaxpyKernel, groups, yb, xb, float32(3), uint32(n)) })
		if d.HostMemory() {
			refused("RunHost", gpu.ErrCapture, func() error { return s.RunHost(func([][]byte) error { return nil }, fb) })
		}
		// A buffer no captured launch binds is free.
		if _, err := s.Capture(func() error {
			if err := launch(); err != nil {
				return err
			}
			return fb.Read(make([]uint32, n))
		}); err != nil {
			t.Errorf("read of a buffer no captured launch binds: %v", err)
		}
		// Nothing captured ran, and the stream still works.
		checkU32(t, "after the refusals", download(t, yb), y)
		if err := launch(); err != nil {
			t.Fatal(err)
		}
		runSteps(t, [][]uint32{y, x}, []axpyStep{{0, 1, 3, n}})
		checkU32(t, "after a launch", download(t, yb), y)

		g, err := s.Capture(launch)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []struct {
			what string
			err  error
			want error
		}{
			{"SetScalar of a float32 to a uint32", g.SetScalar(0, "a", float32(1)), gpu.ErrArgs},
			{"SetScalar of no such parameter", g.SetScalar(0, "b", uint32(1)), gpu.ErrArgs},
			{"SetScalar of a buffer", g.SetScalar(0, "y", uint32(1)), gpu.ErrArgs},
			{"SetScalar of launch 1 of 1", g.SetScalar(1, "a", uint32(1)), gpu.ErrArgs},
			{"SetGrid of an empty grid", g.SetGrid(0, xpu.Dim3{}), gpu.ErrGrid},
			{"SetGrid of launch -1", g.SetGrid(-1, groups), gpu.ErrArgs},
		} {
			if !errors.Is(bad.err, bad.want) {
				t.Errorf("%s: %v, want an error wrapping %v", bad.what, bad.err, bad.want)
			}
		}
		// A release during the capture of a buffer it binds fails it.
		zb := upload(t, d, free)
		if _, err := s.Capture(func() error {
			if err := s.Launch(iaxpyKernel, groups, zb, xb, uint32(3), uint32(n)); err != nil {
				return err
			}
			zb.Release()
			return nil
		}); !errors.Is(err, gpu.ErrCapture) {
			t.Errorf("release of a bound buffer during capture: %v, want ErrCapture", err)
		}
		// A release after the capture refuses the replays.
		wb := upload(t, d, free)
		g2, err := s.Capture(func() error { return s.Launch(iaxpyKernel, groups, wb, xb, uint32(3), uint32(n)) })
		if err != nil {
			t.Fatal(err)
		}
		wb.Release()
		if err := g2.Replay(); !errors.Is(err, gpu.ErrReleased) {
			t.Errorf("replay of a graph whose buffer was released: %v, want ErrReleased", err)
		}
		if err := g.Replay(); err != nil {
			t.Fatal(err)
		}
		runSteps(t, [][]uint32{y, x}, []axpyStep{{0, 1, 3, n}})
		checkU32(t, "after a replay", download(t, yb), y)
	})
}

// TestAutoReplay runs a loop whose steps launch the same kernels on the
// same buffers with other scalars and grids, reading a result back each
// step, as a decode loop does: a stream that resolves graphs (WebGPU)
// replays the steps by itself after a few, and every result is the
// reference runner's, also across steps that break the pattern midway
// and a buffer released in the middle of a step. Each step also writes a
// row of a cache at its position, through a view made that step, which a
// replay moves.
func TestAutoReplay(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n, nbuf, launches, loops = 256, 3, 12, 24
		host := make([][]uint32, nbuf)
		bufs := make([]*gpu.Buffer[uint32], nbuf)
		for i := range host {
			host[i] = randU32s(r, n)
			bufs[i] = upload(t, d, host[i])
		}
		steps := chain(r, launches, nbuf, n)
		s, err := d.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		spare := randU32s(r, n)
		cache := randU32s(r, n*loops)
		cb := upload(t, d, cache)
		for loop := range loops {
			for i := range steps {
				steps[i].a = uint32(r.IntN(1<<20))*2 + 1
				if loop%2 == 1 {
					steps[i].n = uint32(n/2 + r.IntN(n/2+1))
				}
			}
			todo := steps
			switch loop {
			case 9: // stops midway
				todo = steps[:launches/2]
			case 13: // another kernel midway
				if err := launchSteps(s, bufs, steps[:launches/3]); err != nil {
					t.Fatal(err)
				}
				runSteps(t, host, steps[:launches/3])
				sp := upload(t, d, spare)
				if err := s.Launch(iaxpyKernel, xpu.Dim3{X: 4}, bufs[0], sp, uint32(5), uint32(n)); err != nil {
					t.Fatal(err)
				}
				runSteps(t, [][]uint32{host[0], spare}, []axpyStep{{0, 1, 5, n}})
				todo = steps[launches/3:]
			case 17: // a buffer released midway
				if err := launchSteps(s, bufs, steps[:launches/2]); err != nil {
					t.Fatal(err)
				}
				runSteps(t, host, steps[:launches/2])
				extra := upload(t, d, spare)
				extra.Release()
				todo = steps[launches/2:]
			}
			if err := launchSteps(s, bufs, todo); err != nil {
				t.Fatal(err)
			}
			runSteps(t, host, todo)
			row, err := cb.Slice(loop*n, (loop+1)*n)
			if err != nil {
				t.Fatal(err)
			}
			a := uint32(2*loop + 1)
			if err := s.Launch(iaxpyKernel, xpu.Dim3{X: n / 64}, row, bufs[1], a, uint32(n)); err != nil {
				t.Fatal(err)
			}
			runSteps(t, [][]uint32{cache[loop*n : (loop+1)*n], host[1]}, []axpyStep{{0, 1, a, n}})
			i := loop % nbuf
			checkU32(t, fmt.Sprintf("buffer %d after loop %d", i, loop), download(t, bufs[i]), host[i])
		}
		for i := range bufs {
			checkU32(t, fmt.Sprintf("buffer %d at the end", i), download(t, bufs[i]), host[i])
		}
		checkU32(t, "the cache at the end", download(t, cb), cache)
		c := s.Counters()
		if d.Backend() == schema.BackendWebGPU {
			// A graph is captured at the third segment in a row that
			// repeats: loops 3-8 replay, and after each break three
			// loops learn again (a break's rest is a segment of its own).
			if want := uint64(8 * (launches + 1)); c.Replayed < want || c.Graphs < 3 {
				t.Errorf("counters %+v: want at least %d launches replayed by at least 3 graphs", c, want)
			}
		} else if c.Replayed != 0 {
			t.Errorf("counters %+v: a stream of %s replayed by itself", c, d.Backend())
		}
		t.Logf("counters %+v", c)
	})
}

// TestLaunchAllocs checks that a launch on WebGPU allocates nothing once
// warm: through every stage while the stream notes its segment, and
// matched against the graph the stream captured by itself, replayed each
// time all of it has matched. (The CPU's run of a launch allocates its
// workers' state.)
func TestLaunchAllocs(t *testing.T) {
	if underRace {
		t.Skip("the race detector allocates")
	}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		if d.Backend() != schema.BackendWebGPU {
			t.Skipf("a launch on %s runs as it is recorded", d.Backend())
		}
		r := newRand(t)
		const n = 256
		yb, xb := upload(t, d, randU32s(r, n)), upload(t, d, randU32s(r, n))
		s, err := d.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		// Scalars boxed before, as a program's own variables would be
		// boxed where it makes them: a uint32 above 255 allocates as an
		// interface value.
		as := make([]any, 16)
		for i := range as {
			as[i] = uint32(1000 + 2*i)
		}
		var nn any = uint32(n)
		i := 0
		launch := func() {
			i++
			if err := s.Launch(iaxpyKernel, xpu.Dim3{X: n / 64}, yb, xb, as[i%len(as)], nn); err != nil {
				t.Fatal(err)
			}
		}
		// Segments of two launches and one: never the same twice in a
		// row, so the stream notes but never captures.
		for i := range 8 {
			launch()
			if i%2 == 0 {
				launch()
			}
			if err := s.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		// Dawn's binding calls the library through purego's SyscallN,
		// which allocates its arguments a call: a launch sets its bind
		// group and dispatches.
		want := 0.0
		if strings.Contains(d.Info().Software, "dawn") {
			want = 2
		}
		if got := testing.AllocsPerRun(200, launch); got > want {
			t.Errorf("a launch through every stage: %v allocations, want %v", got, want)
		}
		if err := s.Sync(); err != nil {
			t.Fatal(err)
		}
		// Segments of one launch: captured after three.
		for range 4 {
			launch()
			if err := s.Flush(); err != nil {
				t.Fatal(err)
			}
		}
		before := s.Counters()
		if got := testing.AllocsPerRun(200, launch); got > want {
			t.Errorf("a launch the stream replays: %v allocations, want %v", got, want)
		}
		if err := s.Sync(); err != nil {
			t.Fatal(err)
		}
		if c := s.Counters(); c.Replayed-before.Replayed < 200 {
			t.Errorf("counters %+v after %+v: want 200 launches more replayed", c, before)
		}
	})
}

// TestReplayHazards replays graphs, and sequences the streams capture by
// themselves, on three streams whose launches read and write overlapping
// views of the same allocations, flushing and syncing streams at random
// (a replay encoded ahead is submitted at the replay): a replay
// that skipped ordering behind another stream's unflushed launches gives
// other results than the reference runner's, launch for launch.
func TestReplayHazards(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n, allocs, rounds = 128, 3, 120
		streams := []*gpu.Stream{d.Stream()}
		for range 2 {
			s, err := d.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			streams = append(streams, s)
		}
		host := make([][]uint32, allocs)
		bufs := make([]*gpu.Buffer[uint32], allocs)
		for i := range host {
			host[i] = randU32s(r, 3*n)
			bufs[i] = upload(t, d, host[i])
		}
		type use struct {
			y, x   *gpu.Buffer[uint32]
			yh, xh []uint32
		}
		view := func(a, w int) (*gpu.Buffer[uint32], []uint32) {
			lo := w * n / 2
			v, err := bufs[a].Slice(lo, lo+n)
			if err != nil {
				t.Fatal(err)
			}
			return v, host[a][lo : lo+n]
		}
		// Each stream has a sequence of its own, over random views.
		seqs := make([][]use, len(streams))
		for i := range seqs {
			for range 4 {
				ya, xa := r.IntN(allocs), r.IntN(allocs-1)
				if xa >= ya {
					xa++
				}
				var u use
				u.y, u.yh = view(ya, r.IntN(5))
				u.x, u.xh = view(xa, r.IntN(5))
				seqs[i] = append(seqs[i], u)
			}
		}
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		graphs := make([]*gpu.Graph, len(streams))
		for i, s := range streams {
			g, err := s.Capture(func() error {
				for _, u := range seqs[i] {
					if err := s.Launch(iaxpyKernel, groups, u.y, u.x, uint32(1), uint32(n)); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			graphs[i] = g
		}
		for round := range rounds {
			i := r.IntN(len(streams))
			s, seq := streams[i], seqs[i]
			explicit := r.IntN(2) == 0
			for j := range seq {
				a := r.Uint32() | 1
				if explicit {
					if err := graphs[i].SetScalar(j, "a", a); err != nil {
						t.Fatal(err)
					}
				} else if err := s.Launch(iaxpyKernel, groups, seq[j].y, seq[j].x, a, uint32(n)); err != nil {
					t.Fatal(err)
				}
				if err := xpu.Run(cfg, iaxpy, seq[j].yh, seq[j].xh, a, uint32(n)); err != nil {
					t.Fatal(err)
				}
			}
			if explicit {
				if err := graphs[i].Replay(); err != nil {
					t.Fatal(err)
				}
			}
			switch r.IntN(6) {
			case 0, 1, 2:
				// A flush point of that stream alone: a segment of its
				// sequence, which it captures after a few.
				if err := s.Flush(); err != nil {
					t.Fatal(err)
				}
			case 3:
				if err := streams[r.IntN(len(streams))].Flush(); err != nil {
					t.Fatal(err)
				}
			case 4:
				a := r.IntN(allocs)
				checkU32(t, fmt.Sprintf("allocation %d after round %d", a, round), download(t, bufs[a]), host[a])
			case 5:
				// A sync of the stream, after which a WebGPU queue encodes
				// its graph's next replay ahead, submitted at once when
				// replayed.
				if err := s.Sync(); err != nil {
					t.Fatal(err)
				}
			}
		}
		for a := range bufs {
			checkU32(t, fmt.Sprintf("allocation %d at the end", a), download(t, bufs[a]), host[a])
		}
		var replayed uint64
		for _, s := range streams {
			replayed += s.Counters().Replayed
		}
		if replayed == 0 {
			t.Errorf("no launch was replayed")
		}
	})
}
