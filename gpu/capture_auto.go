package gpu

// This file captures a stream's launches by itself. A stream whose queue
// resolves graphs (a driver.Replayer: WebGPU) notes the launches of each
// segment, the launches between two flush points. When autoRepeats
// segments in a row launch the same kernels on the same buffers as the
// segment before (grids and scalars may differ), it captures the last
// as a graph; from then on a launch that matches the graph's next one is
// checked against it alone, its grid and scalars patched in, and the
// graph is replayed once all of it has matched. A launch that does not
// match records the matched ones as they came and drops the graph; so
// does a flush point in the middle of it, and a release of a buffer.

import (
	"context"
	"fmt"
	"slices"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

const (
	// autoRepeats is the number of segments in a row that must repeat
	// the one before for a stream to capture it.
	autoRepeats = 2
	// autoLaunches bounds the launches of a segment a stream notes.
	autoLaunches = 4096
)

// auto is a stream's automatic capture, under the stream's mu.
type auto struct {
	seg, last segment // the launches since the last flush point, and those before it
	repeats   int     // flush points in a row whose segment repeated the one before
	broken    bool    // the segment cannot be captured: too long, or a replay in it

	g     *Graph // captured from a repeated segment; nil while learning
	arts  []*schema.Artifact
	pos   int    // the launches of g matched since its last replay, not yet recorded
	epoch uint64 // the device's releases when g's buffers were last seen live
}

// segment is the launches of a segment, flattened into slices a stream
// reuses, so that noting a launch allocates nothing once they have grown.
type segment struct {
	launches []noted
	args     []any
	states   []*bufferState
	bufs     []driver.Buffer
	uni      []byte
}

// noted is a launch of a segment; its arguments, buffer states, bound
// buffers and uniforms end at the offsets given in the segment's slices.
type noted struct {
	kernel                  *Kernel
	art                     *schema.Artifact
	prog                    driver.Program
	grid                    xpu.Dim3
	args, states, bufs, uni int
}

func (sg *segment) reset() {
	clear(sg.args)
	clear(sg.states)
	clear(sg.bufs)
	clear(sg.launches)
	sg.launches, sg.args, sg.states, sg.bufs, sg.uni = sg.launches[:0], sg.args[:0], sg.states[:0], sg.bufs[:0], sg.uni[:0]
}

// begins returns the offsets where launch i's data begins.
func (sg *segment) begins(i int) (args, states, bufs, uni int) {
	if i == 0 {
		return 0, 0, 0, 0
	}
	p := &sg.launches[i-1]
	return p.args, p.states, p.bufs, p.uni
}

// same reports whether sg launches the kernels of o on the same buffers,
// or on views of the same sizes in the same allocations.
func (sg *segment) same(o *segment) bool {
	if len(sg.launches) == 0 || len(sg.launches) != len(o.launches) || !slices.EqualFunc(sg.states, o.states, movable) {
		return false
	}
	for i := range sg.launches {
		if sg.launches[i].kernel != o.launches[i].kernel {
			return false
		}
	}
	return true
}

// movable reports whether a launch that binds b may replay one that
// bound a, with b patched in: the same buffer, or views of one
// allocation of the same elements and size (a cache's row at another
// position).
func movable(a, b *bufferState) bool {
	return a == b || a.root == b.root && a.elem == b.elem && a.bytes == b.bytes && a != a.root && b != b.root
}

// autoCaptures reports whether s captures sequences by itself now. The
// caller holds s.mu.
func (s *Stream) autoCaptures() bool {
	if s.capture != nil || s.timing || !s.dev.Replays() || s.dev.recorder.Load() != nil {
		return false
	}
	_, ok := s.q.(driver.Replayer)
	return ok
}

// note adds l, recorded through every stage, to s's segment. The caller
// holds s.mu.
func (l *launch) note(s *Stream, args []any) {
	a := &s.auto
	if a.broken || !s.autoCaptures() {
		return
	}
	if l.opts != (LaunchOptions{}) {
		a.broken = true // a replay would drop its options
		return
	}
	sg := &a.seg
	if len(sg.launches) == autoLaunches {
		a.broken = true
		return
	}
	b := l.bound
	sg.args = append(sg.args, args...)
	sg.states = append(sg.states, b.states...)
	sg.bufs = append(sg.bufs, b.bufs...)
	sg.uni = append(sg.uni, b.uni...)
	sg.launches = append(sg.launches, noted{
		kernel: l.kernel, art: l.art, prog: l.prog, grid: l.grid,
		args: len(sg.args), states: len(sg.states), bufs: len(sg.bufs), uni: len(sg.uni),
	})
}

// segmentEnd ends s's segment at a flush point: it records what matched
// of the automatic graph, dropping it, or, while learning, captures the
// segment when it repeated the one before often enough. The caller
// holds s.mu.
func (s *Stream) segmentEnd(ctx context.Context) error {
	a := &s.auto
	if a.g != nil {
		if a.pos > 0 {
			return s.unwind(ctx)
		}
		return nil
	}
	if len(a.seg.launches) == 0 && !a.broken {
		return nil // a flush point with nothing between it and the last
	}
	defer func() {
		a.seg, a.last = a.last, a.seg
		a.seg.reset()
		a.broken = false
	}()
	if a.broken || !a.seg.same(&a.last) {
		a.repeats = 0
		return nil
	}
	if a.repeats++; a.repeats < autoRepeats || !s.autoCaptures() {
		return nil
	}
	a.repeats = 0
	g := s.graphOf(&a.seg)
	if err := g.prepareLocked(); err != nil {
		// The graph is an optimization: a queue that cannot prepare it
		// goes on launch by launch.
		return nil
	}
	a.g, a.pos, a.epoch = g, 0, s.dev.releases.Load()
	s.dev.autoGraphs.Add(1)
	a.arts = a.arts[:0]
	for _, n := range a.seg.launches {
		a.arts = append(a.arts, n.art)
	}
	s.counters.Graphs++
	return nil
}

// graphOf makes a graph of the launches of sg.
func (s *Stream) graphOf(sg *segment) *Graph {
	g := &Graph{s: s}
	for i, n := range sg.launches {
		a0, s0, b0, u0 := sg.begins(i)
		g.add(n.kernel, n.art.Fault, sg.args[a0:n.args], n.grid, sg.states[s0:n.states],
			driver.Launch{Program: n.prog, Groups: n.grid, Buffers: sg.bufs[b0:n.bufs], Uniforms: sg.uni[u0:n.uni]})
	}
	return g
}

// match checks l against the automatic graph's next launch: the same
// kernel, no options, the same buffers, live, and a grid and scalars
// that pass a launch's checks, which it patches in. It reports whether l
// matched; when all of the graph has, it replays it. When l does not
// match, it records the launches that did, drops the graph, and leaves l
// to every stage. The caller holds s.mu and s.dev.life.
func (s *Stream) match(ctx context.Context, l *launch, args []any) (bool, error) {
	a := &s.auto
	g := a.g
	if g == nil {
		return false, nil
	}
	if ok, err := s.matches(l, args); !ok || err != nil {
		return false, s.unwind(ctx)
	}
	l.art, l.grid = a.arts[a.pos], g.nodes[a.pos].grid
	if a.pos++; a.pos < len(g.nodes) {
		return true, nil
	}
	a.pos = 0
	if err := s.replayAuto(ctx); err != nil {
		return true, err
	}
	return true, nil
}

// matches reports whether l matches the automatic graph's next launch,
// and patches its grid and scalars in when it does.
func (s *Stream) matches(l *launch, args []any) (bool, error) {
	a := &s.auto
	g, i := a.g, a.pos
	n, dl := &g.nodes[i], &g.drv[i]
	k := l.kernel
	if k != n.kernel || l.opts != (LaunchOptions{}) || len(args) != len(n.args) || !s.autoCaptures() {
		return false, nil
	}
	if r := s.dev.releases.Load(); r != a.epoch {
		// A buffer was released since: the graph's must all be live.
		g.rlock()
		err := g.live(len(g.nodes))
		g.runlock()
		if err != nil {
			return false, nil
		}
		a.epoch = r
	}
	// The buffers first: a mismatch leaves the graph as it was.
	moved := false
	for j, bj := 0, 0; j < len(k.spec.Params); j++ {
		p := &k.spec.Params[j]
		if p.Kind != schema.ParamBuffer {
			continue
		}
		b, ok := args[j].(bufferArg)
		if !ok {
			return false, nil
		}
		st, was := b.state(), n.states[bj]
		if st != was {
			if st == nil || !movable(was, st) || !s.movesTo(k, p, st) {
				return false, nil
			}
			moved = true
		}
		bj++
	}
	if moved && !s.moved(l, args) {
		return false, nil
	}
	var u [4]byte
	scalars := false
	for j := range k.spec.Params {
		p := &k.spec.Params[j]
		if p.Kind != schema.ParamScalar {
			continue
		}
		if putScalar(u[:], args[j], p) != nil {
			return false, nil
		}
		if w := dl.Uniforms[p.Binding : p.Binding+4]; [4]byte(w) != u {
			copy(w, u[:])
			n.args[j] = args[j]
			scalars = true
			s.counters.Patches++
		}
	}
	if scalars && checkLengths(k, n.elems, n.args) != nil {
		return false, nil
	}
	if grid := l.groups.Norm(); grid != n.grid {
		if _, err := checkGrid(k, l.groups, s.dev.info.Limits, s.dev.folds(k)); err != nil {
			return false, nil
		}
		n.grid, dl.Groups = grid, grid
		s.counters.Patches++
	}
	// Claimed now, for the other streams (hazard.go): a conflict with
	// one leaves the launch to every stage, which waits for it.
	if h := &s.dev.hz; h.streams.Load() != 0 && h.orderStates(s, k, n.states) != nil {
		return false, nil
	}
	return true, nil
}

// movesTo reports whether st, a view that is to replace another bound to
// p, can be bound: live, and aligned.
func (s *Stream) movesTo(k *Kernel, p *schema.Param, st *bufferState) bool {
	st.root.mu.RLock()
	defer st.root.mu.RUnlock()
	return st.live() == nil && checkAlignment(k, p, st, s.dev.info.Limits) == nil
}

// moved patches the automatic graph's next launch to bind the buffers of
// args, which movesTo passed, unless they then alias in a way a launch
// cannot bind.
func (s *Stream) moved(l *launch, args []any) bool {
	a := &s.auto
	n, dl := &a.g.nodes[a.pos], &a.g.drv[a.pos]
	k := l.kernel
	var spans [8]span
	sp := spans[:0]
	for j, bj := 0, 0; j < len(k.spec.Params); j++ {
		p := &k.spec.Params[j]
		if p.Kind != schema.ParamBuffer {
			continue
		}
		st := args[j].(bufferArg).state()
		x := span{root: st.root, lo: st.offset, hi: st.offset + st.bytes}
		if checkAliasing(k, sp, p, x) != nil {
			return false
		}
		sp = append(sp, x)
		bj++
	}
	for j, bj := 0, 0; j < len(k.spec.Params); j++ {
		if k.spec.Params[j].Kind != schema.ParamBuffer {
			continue
		}
		st := args[j].(bufferArg).state()
		if st != n.states[bj] {
			n.states[bj], n.args[j], dl.Buffers[bj] = st, args[j], st.bound
			s.counters.Patches++
		}
		bj++
	}
	return true
}

// replayAuto replays the automatic graph, all of which matched.
func (s *Stream) replayAuto(ctx context.Context) error {
	g := s.auto.g
	g.rlock()
	defer g.runlock()
	// A buffer released since its launch matched (by another goroutine:
	// a release records what matched first) refuses the replay.
	if err := g.live(len(g.nodes)); err != nil {
		return fmt.Errorf("gpu: %s: replay: %w", s.dev.backend, err)
	}
	if err := s.replayed(ctx, g.dg, g.drv); err != nil {
		return err
	}
	for _, k := range g.fault {
		s.launchedFault(k)
	}
	return nil
}

// unwind records the launches of the automatic graph matched so far,
// one by one, as they came, and drops the graph. The caller holds s.mu.
func (s *Stream) unwind(ctx context.Context) error {
	a := &s.auto
	g, pos := a.g, a.pos
	s.releaseAuto()
	if pos == 0 {
		return nil
	}
	g.rlock()
	defer g.runlock()
	if err := g.live(pos); err != nil {
		return fmt.Errorf("gpu: %s: record: %w", s.dev.backend, err)
	}
	for i, l := range g.drv[:pos] {
		if err := s.q.Launch(ctx, l.Program, l.Groups, l.Buffers, l.Uniforms); err != nil {
			return err
		}
		if a.arts[i].Fault {
			s.launchedFault(g.nodes[i].kernel)
		}
	}
	s.pending = true
	s.counters.Queued += uint64(pos)
	s.counters.Direct += uint64(pos)
	return nil
}

// commitAuto records what matched of the automatic graph, before a flush
// point, a replay of another graph, or a buffer's release. The caller
// holds s.mu.
func (s *Stream) commitAuto(ctx context.Context) error {
	if s.auto.g == nil || s.auto.pos == 0 {
		return nil
	}
	return s.unwind(ctx)
}

// commitAuto records, on each of d's streams, what matched of its
// automatic graph: launches the caller has made, which see a buffer it
// then releases.
func (d *Device) commitAuto() {
	if d.autoGraphs.Load() == 0 {
		return
	}
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return
	}
	ctx, cancel := d.bound(context.Background())
	defer cancel()
	for _, s := range d.streamList() {
		s.mu.Lock()
		if err := s.commitAuto(ctx); err != nil && !s.closed && s.late == nil {
			s.late = err // for the stream's next flush point
		}
		s.mu.Unlock()
	}
}

// releaseAuto drops the automatic graph and learning starts again. The
// caller holds s.mu.
func (s *Stream) releaseAuto() {
	a := &s.auto
	if a.g != nil {
		a.g.releaseLocked()
		a.g, a.pos = nil, 0
		s.dev.autoGraphs.Add(-1)
	}
	a.repeats = 0
}
