package gpu

import (
	"testing"

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
