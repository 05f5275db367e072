package gpu

import "testing"

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
