package gpu_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/gpu/trace"
)

// log is a sink that keeps what it is given.
type log struct {
	mu sync.Mutex
	es []trace.Event
}

func (l *log) Record(e trace.Event) {
	l.mu.Lock()
	l.es = append(l.es, e)
	l.mu.Unlock()
}

func (l *log) events() []trace.Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.es)
}

// TestTrace checks that a device's sink sees every launch of each of its
// streams with its kernel, grid, block and tier, a refused launch with
// its rule, the flushes and waits, and host code on the CPU; that the
// results are the untraced ones; and that no event comes once the sink
// is removed.
func TestTrace(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		sink := &log{}
		d.SetTrace(sink)
		if d.Trace() != sink {
			t.Fatal("Trace does not return the sink SetTrace set")
		}
		r := newRand(t)
		const n = 300
		s2, err := d.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		y, x := randU32s(r, n), randU32s(r, n)
		yb, xb := upload(t, d, y), upload(t, d, x)
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		if err := d.Stream().Launch(iaxpyKernel, groups, yb, xb, uint32(3), uint32(n)); err != nil {
			t.Fatal(err)
		}
		if err := d.Stream().Sync(); err != nil { // s2's launch reads what this one wrote
			t.Fatal(err)
		}
		if err := s2.Launch(iaxpyKernel, groups, yb, xb, uint32(5), uint32(n)); err != nil {
			t.Fatal(err)
		}
		if err := s2.Flush(); err != nil {
			t.Fatal(err)
		}
		refused := d.Stream().Launch(iaxpyKernel, groups, yb, xb, uint32(3)) // a scalar short
		if refused == nil {
			t.Fatal("a launch without its last argument ran")
		}
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		_ = xpu.Run(cfg, iaxpy, y, x, uint32(3), uint32(n))
		_ = xpu.Run(cfg, iaxpy, y, x, uint32(5), uint32(n))
		if d.HostMemory() {
			if err := d.Stream().RunHost(func([][]byte) error { return nil }, yb); err != nil {
				t.Fatal(err)
			}
		}
		es := sink.events()
		d.SetTrace(nil)
		if err := d.Stream().Launch(iaxpyKernel, groups, yb, xb, uint32(7), uint32(n)); err != nil {
			t.Fatal(err)
		}
		_ = xpu.Run(cfg, iaxpy, y, x, uint32(7), uint32(n))
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
		checkU32(t, "traced", download(t, yb), y)
		if got := sink.events(); len(got) != len(es) {
			t.Errorf("%d events came after the sink was removed: %v", len(got)-len(es), got[len(es):])
		}

		var launches []trace.Event
		kinds := map[trace.Kind]int{}
		for _, e := range es {
			kinds[e.Kind]++
			if e.Device != d.TraceName() {
				t.Errorf("%v names the device %q, not %q", e.Kind, e.Device, d.TraceName())
			}
			if e.Start.IsZero() || e.Dur < 0 {
				t.Errorf("%v %s: start %v, duration %v", e.Kind, e.Name, e.Start, e.Dur)
			}
			if e.Kind == trace.Launch {
				launches = append(launches, e)
			}
		}
		if len(launches) != 2 {
			t.Fatalf("%d launches traced, want 2: %v", len(launches), es)
		}
		for i, want := range []int{0, s2.ID()} {
			e := launches[i]
			if e.Name != iaxpyKernel.Name() || e.Stream != want || e.Grid != [3]uint32{groups.X, 1, 1} || e.Block != [3]uint32{64, 1, 1} || e.Tier == "" {
				t.Errorf("launch %d: %+v; want %s on stream %d over %v groups of 64, with its tier", i, e, iaxpyKernel.Name(), want, groups)
			}
		}
		if s2.ID() != 1 {
			t.Errorf("the first new stream is number %d, want 1", s2.ID())
		}
		var refusal *trace.Event
		for i := range es {
			if es[i].Kind == trace.Refusal {
				refusal = &es[i]
			}
		}
		if refusal == nil || refusal.Name != iaxpyKernel.Name() || refusal.Detail != refused.Error() {
			t.Errorf("the refusal traced: %+v; want %s with %q", refusal, iaxpyKernel.Name(), refused)
		}
		if kinds[trace.Wait] < 2 {
			t.Errorf("%d waits traced; two syncs were made", kinds[trace.Wait])
		}
		if d.HostMemory() != (kinds[trace.Host] == 1) {
			t.Errorf("%d host calls traced on %s", kinds[trace.Host], d.Backend())
		}
		for _, e := range es {
			if e.Kind == trace.Host && e.Name != "github.com/goxpu/xpu/gpu_test.TestTrace" {
				t.Errorf("the host call is named %q, not by the function it is in", e.Name)
			}
		}
		if kinds[trace.Compile] != 1 {
			t.Errorf("%d compiles traced; the kernel was compiled once", kinds[trace.Compile])
		}
		if kinds[trace.Transfer] != 2 {
			t.Errorf("%d transfers traced; two uploads were made", kinds[trace.Transfer])
		}
		if kinds[trace.Flush] != 1 {
			t.Errorf("%d flushes traced, one was made: %v", kinds[trace.Flush], es)
		}
	})
}

// TestTraceHazard: a launch that reads what another stream's launch
// wrote waits for that stream, and the wait is traced on the waiting
// stream, named for the other.
func TestTraceHazard(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		r := newRand(t)
		const n = 300
		s2, err := d.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		defer s2.Close()
		y, x, z := randU32s(r, n), randU32s(r, n), randU32s(r, n)
		yb, xb, zb := upload(t, d, y), upload(t, d, x), upload(t, d, z)
		sink := &log{}
		d.SetTrace(sink)
		defer d.SetTrace(nil)
		groups := xpu.Dim3{X: xpu.GroupsFor(n, 64)}
		if err := d.Stream().Launch(iaxpyKernel, groups, yb, xb, uint32(3), uint32(n)); err != nil {
			t.Fatal(err)
		}
		if err := s2.Launch(iaxpyKernel, groups, zb, yb, uint32(5), uint32(n)); err != nil { // reads y
			t.Fatal(err)
		}
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
		cfg := xpu.Config{Groups: groups, Block: iaxpyKernel.Block()}
		_ = xpu.Run(cfg, iaxpy, y, x, uint32(3), uint32(n))
		_ = xpu.Run(cfg, iaxpy, z, y, uint32(5), uint32(n))
		checkU32(t, "z", download(t, zb), z)
		var waits []trace.Event
		for _, e := range sink.events() {
			if e.Kind == trace.Wait && strings.HasPrefix(e.Name, "hazard") {
				waits = append(waits, e)
			}
		}
		if len(waits) != 1 || waits[0].Stream != s2.ID() || waits[0].Name != "hazard: stream 0" {
			t.Errorf("hazard waits traced: %+v; want one on stream %d named for stream 0", waits, s2.ID())
		}
	})
}

// TestTraceChrome writes a traced run as Chrome JSON and reads it back.
func TestTraceChrome(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		var b strings.Builder
		c := trace.NewChrome(&b)
		d.SetTrace(c)
		defer d.SetTrace(nil)
		r := newRand(t)
		yb, xb := upload(t, d, randU32s(r, 64)), upload(t, d, randU32s(r, 64))
		for range 3 {
			if err := d.Stream().Launch(iaxpyKernel, xpu.Dim3{X: 1}, yb, xb, uint32(2), uint32(64)); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Sync(); err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		es, err := trace.Read(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range es {
			if e.Kind == trace.Launch && e.Name == iaxpyKernel.Name() && e.Device == d.TraceName() {
				n++
			}
		}
		if n != 3 {
			t.Errorf("%d launches read back, want 3:\n%s", n, b.String())
		}
	})
}
