package gputest

import (
	"math"
	"reflect"
	"testing"
)

func TestULPDistance(t *testing.T) {
	next := math.Nextafter32
	for _, c := range []struct {
		a, b float32
		want uint64
	}{
		{1, 1, 0},
		{1, next(1, 2), 1},
		{0, float32(math.Copysign(0, -1)), 0},
		{math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 2},
		{-1, next(next(-1, -2), -2), 2},
	} {
		if got := ULPDistance(c.a, c.b); got != c.want {
			t.Errorf("ULPDistance(%g, %g) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func TestToleranceWithin(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, c := range []struct {
		tol       Tolerance
		want, got float32
		ok        bool
	}{
		{Exact, 1, 1, true},
		{Exact, 1, math.Nextafter32(1, 2), false},
		{Exact, nan, nan, true},
		{Exact, nan, 1, false},
		{Tolerance{ULP: 1000}, inf, math.MaxFloat32, false},
		{Tolerance{ULP: 1}, 1, math.Nextafter32(1, 2), true},
		{Tolerance{Abs: 0.01}, 1, 1.005, true},
		{Tolerance{Rel: 0.01}, 100, 100.9, true},
		{Tolerance{Rel: 0.01}, 100, 102, false},
	} {
		if ok := c.tol.Within(c.want, c.got); ok != c.ok {
			t.Errorf("%v.Within(%g, %g) = %v, want %v", c.tol, c.want, c.got, ok, c.ok)
		}
	}
}

func TestCompareWords(t *testing.T) {
	ks := []reflect.Kind{reflect.Float32, reflect.Uint32}
	want := []uint32{math.Float32bits(1), 7, poisonFloat, poisonInt}
	got := []uint32{math.Float32bits(math.Nextafter32(1, 2)), 7, 0x7fc00000, 8}
	ms := compareWords(want, got, ks, Tolerance{ULP: 1}, false)
	if len(ms) != 1 || ms[0].Word != 3 || ms[0].Kind != reflect.Uint32 {
		t.Errorf("mismatches = %+v, want one at word 3 (uint32)", ms)
	}
}

// particle is a buffer element of float32 and uint32 leaves.
type particle struct {
	X, Y, Z float32
	Hits    uint32
}

func TestPoisonedLeaves(t *testing.T) {
	s := Poisoned[particle](2).init
	for i, p := range s {
		if p.X == p.X || p.Hits != poisonInt {
			t.Errorf("element %d not poisoned: %+v", i, p)
		}
	}
	if _, err := leaves[struct{ A float64 }](); err == nil {
		t.Error("a float64 leaf was accepted")
	}
}
