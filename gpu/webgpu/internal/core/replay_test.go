package core

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// TestReplayAhead replays a graph with a sync after each replay, its
// scalars patched every time (all equal in two replays, so that launches
// share a ring slot), a grid changed once and a buffer moved to another
// view once: every replay runs what the same launches run launched one by
// one (pipelines, groups, grids and uniform blocks, in order), from the
// third on from commands encoded ahead but where a grid or a buffer
// changed since the encoding, or scalars that were equal then differ now,
// and after a replay that moved a buffer or changed a grid (an unsteady
// graph is not encoded ahead); releasing the graph releases the commands
// it had encoded ahead.
func TestReplayAhead(t *testing.T) {
	ctx := context.Background()
	a, d, p, q := openFake(t)
	views := viewsOf(t, d, 3)
	const n = 7
	launches := make([]driver.Launch, n)
	for i := range launches {
		launches[i] = driver.Launch{Program: p, Groups: xpu.Dim3{X: uint32(1 + i%3), Y: 1, Z: 1},
			Buffers: []driver.Buffer{views[i%2]}, Uniforms: make([]byte, fakeKernel.UniformSize)}
	}
	g, err := q.(driver.Replayer).Prepare(launches)
	if err != nil {
		t.Fatal(err)
	}
	// direct returns what the graph's launches run launched one by one.
	direct := func() []ran {
		a.ran = a.ran[:0]
		for _, l := range launches {
			if err := q.Launch(ctx, l.Program, l.Groups, l.Buffers, l.Uniforms); err != nil {
				t.Fatal(err)
			}
		}
		if err := q.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		return slices.Clone(a.ran)
	}
	var want []int
	for rep := range 10 {
		for i := range launches {
			k := uint32(100*rep + i)
			if rep == 2 || rep == 3 {
				k = 7
			}
			binary.LittleEndian.PutUint32(launches[i].Uniforms, k)
		}
		switch rep {
		case 5:
			launches[2].Groups.X = 9
		case 6:
			launches[3].Buffers[0] = views[2]
		}
		if rep >= aheadAfter && !slices.Contains([]int{4, 5, 6, 7}, rep) {
			want = append(want, rep)
		}
		before := q.(*Queue).aheads
		ref := direct()
		a.ran = a.ran[:0]
		if err := g.Replay(ctx); err != nil {
			t.Fatal(err)
		}
		if err := q.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.ran, ref) {
			t.Errorf("replay %d ran %s, want %s", rep, describe(a.ran), describe(ref))
		}
		if q.(*Queue).aheads != before && !slices.Contains(want, rep) || q.(*Queue).aheads == before && slices.Contains(want, rep) {
			t.Errorf("replay %d: submitted encoded ahead: %v, want %v", rep, q.(*Queue).aheads != before, slices.Contains(want, rep))
		}
	}
	if got := q.(*Queue).aheads; got != uint64(len(want)) {
		t.Errorf("%d replays submitted encoded ahead, want %d (replays %v)", got, len(want), want)
	}
	if a.finished != 1 {
		t.Errorf("%d commands finished and not submitted after a sync, want the one encoded ahead", a.finished)
	}
	g.Release()
	if a.finished != 0 {
		t.Errorf("%d commands finished and neither submitted nor released after the graph's release, want 0", a.finished)
	}
}

func describe(rs []ran) string {
	s := ""
	for _, r := range rs {
		s += fmt.Sprintf("[%p %p %v %x]", r.pipeline, r.group, r.grid, r.block)
	}
	return s
}

// TestReplayMovingNotAhead replays a graph whose buffer moves to another
// view at every replay, as a decode step's cache rows do: it never takes
// commands encoded ahead, so none is encoded, which would cost each sync
// an encoding that the next replay drops.
func TestReplayMovingNotAhead(t *testing.T) {
	ctx := context.Background()
	a, d, p, q := openFake(t)
	views := viewsOf(t, d, 2)
	launches := []driver.Launch{{Program: p, Groups: xpu.Dim3{X: 1, Y: 1, Z: 1}, Buffers: []driver.Buffer{views[0]}, Uniforms: make([]byte, fakeKernel.UniformSize)}}
	g, err := q.(driver.Replayer).Prepare(launches)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Release()
	for rep := range 6 {
		launches[0].Buffers[0] = views[rep%2]
		if err := g.Replay(ctx); err != nil {
			t.Fatal(err)
		}
		if err := q.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if a.finished != 0 {
			t.Fatalf("replay %d: %d commands encoded ahead for a graph whose buffer moves at every replay", rep, a.finished)
		}
	}
}

// viewsOf returns n views of 256 bytes, one after another, of a buffer of
// d that t's end releases.
func viewsOf(t *testing.T, d *Device, n int) []*driver.View {
	t.Helper()
	buf, err := d.NewBuffer(256 * n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(buf.Release)
	views := make([]*driver.View, n)
	for i := range views {
		views[i] = &driver.View{Buffer: buf, Offset: 256 * i, Bytes: 256}
	}
	return views
}
