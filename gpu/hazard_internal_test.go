package gpu

import (
	"context"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// TestConflictRule checks the rule of hazard.go on claims made by hand:
// reads never conflict with reads, writes conflict with overlapping reads
// and writes of another stream, disjoint ranges and a stream's own
// claims never do.
func TestConflictRule(t *testing.T) {
	a, b := &Stream{}, &Stream{}
	cases := []struct {
		name         string
		read, writ   bool // what a claimed on bytes 100 to 200
		lo, hi       int
		w            bool // whether b writes lo to hi
		ownStream    bool // b is a
		wantConflict bool
	}{
		{"read after read", true, false, 150, 250, false, false, false},
		{"read after write", false, true, 150, 250, false, false, true},
		{"write after read", true, false, 150, 250, true, false, true},
		{"write after write", false, true, 0, 101, true, false, true},
		{"disjoint write after write", false, true, 200, 300, true, false, false},
		{"disjoint write after read", true, false, 0, 100, true, false, false},
		{"own write after write", false, true, 100, 200, true, true, false},
		{"empty range", false, true, 150, 150, true, false, false},
	}
	for _, c := range cases {
		r := &bufferState{}
		r.root = r
		if c.read {
			r.claim(a, 100, 200, false)
		}
		if c.writ {
			r.claim(a, 100, 200, true)
		}
		s := b
		if c.ownStream {
			s = a
		}
		got := r.conflict(s, c.lo, c.hi, c.w)
		if (got != nil) != c.wantConflict || got != nil && got != a {
			t.Errorf("%s: conflict = %p, want conflict %v (with %p)", c.name, got, c.wantConflict, a)
		}
	}
}

// TestForget checks that a flushed stream's claims are gone from every
// allocation it claimed and that another's stay.
func TestForget(t *testing.T) {
	var h hazards
	a, b := &Stream{}, &Stream{}
	r1, r2 := &bufferState{}, &bufferState{}
	r1.claim(a, 0, 10, true)
	r2.claim(a, 0, 10, false)
	r1.claim(b, 20, 30, true)
	h.forget(a)
	if len(a.claimed) != 0 || len(r2.claims) != 0 || len(r1.claims) != 1 || r1.claims[0].s != b {
		t.Fatalf("after forget: a claims %d, r1 %v, r2 %v", len(a.claimed), r1.claims, r2.claims)
	}
	if r1.conflict(a, 0, 10, true) != nil || r1.conflict(a, 25, 26, false) != b {
		t.Fatal("b's claim changed")
	}
}

// TestOrderAllocs checks that claiming a launch's buffers, checking them
// against another stream's claims and forgetting them again allocates
// nothing once the claim lists have grown.
func TestOrderAllocs(t *testing.T) {
	k := &Kernel{}
	k.spec.Params = []schema.Param{
		{Name: "y", Kind: schema.ParamBuffer, Access: schema.AccessReadWrite},
		{Name: "x", Kind: schema.ParamBuffer, Access: schema.AccessRead},
	}
	y, x := &bufferState{bytes: 1024}, &bufferState{bytes: 1024}
	y.root, x.root = y, x
	b := &binding{states: []*bufferState{y, x}, spans: []span{{y, 0, 1024}, {x, 0, 1024}}}
	var h hazards
	a, o := &Stream{}, &Stream{}
	x.claim(o, 0, 1024, false) // another stream reads x: no conflict
	round := func() {
		if c := h.order(a, k, b); c != nil {
			t.Fatal("a conflict where there is none")
		}
		h.forget(a)
	}
	round()
	if n := testing.AllocsPerRun(100, round); n != 0 {
		t.Errorf("%v allocations a launch", n)
	}
}

// BenchmarkOrder measures the hazard check of one launch of two buffers
// with another stream's claim on one of them: order (check and claim)
// and, every 1,000 launches, the flush's forget.
func BenchmarkOrder(b *testing.B) {
	k := &Kernel{}
	k.spec.Params = []schema.Param{
		{Name: "y", Kind: schema.ParamBuffer, Access: schema.AccessReadWrite},
		{Name: "x", Kind: schema.ParamBuffer, Access: schema.AccessRead},
	}
	y, x := &bufferState{bytes: 1024}, &bufferState{bytes: 1024}
	y.root, x.root = y, x
	bd := &binding{states: []*bufferState{y, x}, spans: []span{{y, 0, 1024}, {x, 0, 1024}}}
	var h hazards
	a, o := &Stream{}, &Stream{}
	x.claim(o, 0, 1024, false)
	i := 0
	for b.Loop() {
		if h.order(a, k, bd) != nil {
			b.Fatal("a conflict where there is none")
		}
		if i++; i%1000 == 0 {
			h.forget(a)
		}
	}
}

// concurrentStub is a stub device whose queues model streams that run
// concurrently (CUDA's): a launch runs from when it is recorded until its
// queue's Sync, and a launch recorded while a conflicting one of another
// queue still runs is a missed hazard, which the model counts.
type concurrentStub struct {
	stubDevice
	m *streamModel
}

func (concurrentStub) ConcurrentQueues() {}

func (d concurrentStub) NewQueue() (driver.Queue, error) { return &modelQueue{m: d.m}, nil }

// streamModel is what runs on a concurrentStub: per queue, the launches
// (buffer written, buffer read) recorded since its last Sync.
type streamModel struct {
	mu      sync.Mutex
	running map[*modelQueue][][2]driver.Buffer
	missed  int
}

type modelQueue struct{ m *streamModel }

// Launch records a launch of stagedKernel: y (bufs[0]) written, x read.
func (q *modelQueue) Launch(_ context.Context, _ driver.Program, _ xpu.Dim3, bufs []driver.Buffer, _ []byte) error {
	m := q.m
	m.mu.Lock()
	defer m.mu.Unlock()
	y, x := bufs[0], bufs[1]
	for o, ls := range m.running {
		if o == q {
			continue
		}
		for _, l := range ls {
			if l[0] == y || l[0] == x || l[1] == y {
				m.missed++
			}
		}
	}
	m.running[q] = append(m.running[q], [2]driver.Buffer{y, x})
	return nil
}

func (*modelQueue) Flush(context.Context) error { return nil }

func (q *modelQueue) Sync(context.Context) error {
	q.m.mu.Lock()
	defer q.m.mu.Unlock()
	delete(q.m.running, q)
	return nil
}

func (*modelQueue) Release() {}

// TestConcurrentQueueHazards launches a random sequence of conflicting
// and independent launches on three streams of a device whose queues run
// concurrently, flushing streams at random: no launch starts while a
// conflicting one of another stream may still run (a flush there orders
// nothing; the runtime waits for the other stream instead).
func TestConcurrentQueueHazards(t *testing.T) {
	m := &streamModel{running: map[*modelQueue][][2]driver.Buffer{}}
	info := driver.Info{Backend: stubBackend, Limits: driver.Limits{MaxGroups: 1 << 16}}
	d, err := newDevice(stubBackend, concurrentStub{stubDevice{info, nil}, m})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	streams := []*Stream{d.Stream()}
	for range 2 {
		s, err := d.NewStream()
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, s)
	}
	var bufs []*Buffer[float32]
	for range 4 {
		b, err := NewBuffer[float32](d, 64)
		if err != nil {
			t.Fatal(err)
		}
		bufs = append(bufs, b)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		y := r.IntN(len(bufs))
		x := (y + 1 + r.IntN(len(bufs)-1)) % len(bufs)
		s := streams[r.IntN(len(streams))]
		if err := s.Launch(stagedKernel, xpu.Dim3{X: 1}, bufs[y], bufs[x], float32(1), uint32(64)); err != nil {
			t.Fatal(err)
		}
		if r.IntN(5) == 0 {
			if err := streams[r.IntN(len(streams))].Flush(); err != nil {
				t.Fatal(err)
			}
		}
	}
	if m.missed != 0 {
		t.Fatalf("%d launches started while a conflicting launch of another stream ran", m.missed)
	}
}

// TestReleasedClaims checks that releasing an allocation drops every
// stream's claim on it, so that a stream that launches on fresh buffers
// without flushing keeps no claims on released ones.
func TestReleasedClaims(t *testing.T) {
	var h hazards
	a, b := &Stream{}, &Stream{}
	r, keep := &bufferState{}, &bufferState{}
	r.claim(a, 0, 10, true)
	r.claim(b, 0, 10, false)
	keep.claim(a, 0, 10, true)
	h.released(r)
	if len(r.claims) != 0 || len(b.claimed) != 0 || len(a.claimed) != 1 || a.claimed[0] != keep {
		t.Fatalf("after release: r %v, a claims %v, b claims %v", r.claims, a.claimed, b.claimed)
	}
}
