package conformance_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestStreamHazards records a random sequence of UintArith launches on
// three streams, each writing a view of one allocation from a view of
// another, with flushes of random streams between them, and checks both
// allocations against the reference runner run in recording order: the
// runtime's ordering of conflicting launches across streams, on a
// generated kernel, at every tier a device runs (on the CPU, the host
// tier where the machine has one).
func TestStreamHazards(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		seed := uint64(time.Now().UnixNano())
		t.Logf("seed %d (tier %q)", seed, d.Info().Native)
		r := rand.New(rand.NewPCG(seed, 1))
		const n, launches = 64, 200
		const out = 5 // UintArith's outputs per element
		streams := []*gpu.Stream{d.Stream()}
		for range 2 {
			s, err := d.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			streams = append(streams, s)
		}
		// Two allocations written and read, of 2*out*n elements each, and
		// the divisors, never zero, read only.
		host := [][]uint32{poisoned(2 * out * n), random(r, 2*out*n, false)}
		bufs := make([]*gpu.Buffer[uint32], len(host))
		for i, h := range host {
			bufs[i] = mustUpload(t, d, h)
		}
		div := random(r, n, true)
		divb := mustUpload(t, d, div)
		view := func(a, lo, size int) (*gpu.Buffer[uint32], []uint32) {
			v, err := bufs[a].Slice(lo, lo+size)
			if err != nil {
				t.Fatal(err)
			}
			return v, host[a][lo : lo+size]
		}
		groups := xpu.Dim3{X: 1}
		cfg := xpu.Config{Groups: groups, Block: conformance.UintArithKernel.Block()}
		for i := range launches {
			o := r.IntN(2)
			ob, oh := view(o, r.IntN(out+1)*n, out*n)
			ab, ah := view(1-o, r.IntN(2*out)*n, n)
			if err := conformance.LaunchUintArith(streams[r.IntN(3)], groups, ob, ab, divb, n); err != nil {
				t.Fatal(err)
			}
			if err := xpu.Run(cfg, conformance.UintArith, oh, ah, div, uint32(n)); err != nil {
				t.Fatal(err)
			}
			if r.IntN(4) == 0 {
				if err := streams[r.IntN(3)].Flush(); err != nil {
					t.Fatal(err)
				}
			}
			if i%50 == 49 {
				check(t, fmt.Sprintf("after launch %d", i), bufs[o], host[o])
			}
		}
		for a := range bufs {
			check(t, fmt.Sprintf("allocation %d at the end", a), bufs[a], host[a])
		}
	})
}

func poisoned(n int) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = 0xDEADBEEF
	}
	return s
}

func random(r *rand.Rand, n int, nonzero bool) []uint32 {
	s := make([]uint32, n)
	for i := range s {
		s[i] = r.Uint32()
		if nonzero {
			s[i] |= 1
		}
	}
	return s
}

func mustUpload(t *testing.T, d *gpu.Device, h []uint32) *gpu.Buffer[uint32] {
	t.Helper()
	b, err := gpu.Upload(d, h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}

func check(t *testing.T, when string, b *gpu.Buffer[uint32], want []uint32) {
	t.Helper()
	got, err := b.Download()
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: element %d = %#x, reference %#x", when, i, got[i], want[i])
		}
	}
}
