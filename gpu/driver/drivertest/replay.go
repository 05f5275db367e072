package drivertest

// This file holds the case of a prepared launch sequence, replayed.

import (
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// testReplay prepares a chain of dependent launches over windows of two
// buffers on a queue that is a driver.Replayer and replays it many times
// with a sync after each, as a decode loop does: its scalars patched
// every time (now and then all equal, then not), a grid changed now and
// then, a window moved to another of the same size now and then. After every replay both buffers hold what
// the launches as they stand give, launch by launch, and the bindings
// the graph held go with its release and the buffers'.
func testReplay(t *testing.T, c Config) {
	d := c.open(t)
	p, q := c.setup(t, d)
	r, ok := q.(driver.Replayer)
	if !ok {
		t.Skip("the driver's queues replay a sequence launch by launch")
	}
	align := max(4, int(d.Info().Limits.StorageOffsetAlignment))
	const n, launches, replays = 256, 9, 16
	// Three windows of n words in each buffer, align apart.
	stride := (4*n + align - 1) / align * align
	size := 3 * stride
	rng := rand.New(rand.NewPCG(rand.Uint64(), 3))
	before := c.bindings(d)
	bufs := []driver.Buffer{mustBuffer(t, d, size), mustBuffer(t, d, size)}
	unused := mustBuffer(t, d, 4)
	host := make([][]uint32, len(bufs))
	for i, b := range bufs {
		host[i] = make([]uint32, size/4)
		for j := range host[i] {
			host[i][j] = rng.Uint32()
		}
		if err := b.Write(0, u32Bytes(host[i])); err != nil {
			t.Fatal(err)
		}
	}
	// A window is (buffer, slot); launch i writes a window of one buffer
	// from a window of the other, so that each reads what one before it
	// wrote.
	type window struct{ buf, slot int }
	view := func(w window) *driver.View {
		return &driver.View{Buffer: bufs[w.buf], Offset: w.slot * stride, Bytes: 4 * n}
	}
	type step struct {
		out, in window
		groups  uint32
		k       uint32
	}
	steps := make([]step, launches)
	ls := make([]driver.Launch, launches)
	var views []*driver.View
	for i := range steps {
		steps[i] = step{out: window{i % 2, rng.IntN(3)}, in: window{1 - i%2, rng.IntN(3)}, groups: n / 64}
		out, in := view(steps[i].out), view(steps[i].in)
		views = append(views, out, in)
		ls[i] = driver.Launch{Program: p, Groups: xpu.Dim3{X: n / 64, Y: 1, Z: 1},
			Buffers: []driver.Buffer{out, in, unused}, Uniforms: uniforms(0)}
	}
	g, err := r.Prepare(ls)
	if err != nil {
		t.Fatal(err)
	}
	for rep := range replays {
		k := rng.Uint32()
		for i := range steps {
			if rep%4 != 1 {
				k = rng.Uint32()
			}
			steps[i].k = k
			copy(ls[i].Uniforms, uniforms(k))
		}
		switch rep % 8 {
		case 3:
			// A grid of fewer groups: the words past it keep their value.
			i := rng.IntN(launches)
			steps[i].groups = uint32(1 + rng.IntN(n/64))
			ls[i].Groups.X = steps[i].groups
		case 7:
			// A window moved: the runtime moves a launch's buffer only to
			// another view of the same size in the same allocation.
			i := rng.IntN(launches)
			steps[i].in.slot = (steps[i].in.slot + 1) % 3
			v := view(steps[i].in)
			views = append(views, v)
			ls[i].Buffers[1] = v
		}
		if err := g.Replay(bg); err != nil {
			t.Fatal(err)
		}
		if err := q.Sync(bg); err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			out := host[st.out.buf][st.out.slot*stride/4:][:n]
			in := host[st.in.buf][st.in.slot*stride/4:][:n]
			for j := range min(n, 64*int(st.groups)) {
				out[j] = in[j] + st.k
			}
		}
		for i, b := range bufs {
			got := readU32(t, b)
			for j := range got {
				if got[j] != host[i][j] {
					t.Fatalf("replay %d: buffer %d word %d = %#x, want %#x", rep, i, j, got[j], host[i][j])
				}
			}
		}
	}
	g.Release()
	for _, v := range views {
		v.Release()
	}
	for _, b := range append(bufs, unused) {
		b.Release()
	}
	if after := c.bindings(d); after != before {
		t.Errorf("%d bindings after the graph, its views and buffers were released, want %d as before", after, before)
	}
}
