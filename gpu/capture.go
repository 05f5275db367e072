package gpu

// This file captures a stream's launches into a Graph and replays it:
// the launches pass the check and bind stages once, at capture, and a
// replay hands the bound sequence to the queue again, with the grids and
// scalars patched since. A queue that is a driver.Replayer (WebGPU)
// resolves the sequence's pipelines and bind groups once too.

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/trace"
	"github.com/goxpu/xpu/schema"
)

// A Graph is a launch sequence captured from a stream ([Stream.Capture]),
// checked and bound once, which [Graph.Replay] records on the stream
// again, as the same launches would be, for less host work a launch. Its
// launches' grids and scalars may be changed between replays
// ([Graph.SetGrid], [Graph.SetScalar]); its kernels and buffers may not.
// A Graph is safe for concurrent use; it is released with its stream.
type Graph struct {
	s     *Stream
	nodes []node
	drv   []driver.Launch // per node: what the queue records, patched in place
	dg    driver.Graph    // the queue's prepared graph; nil where it has none
	roots []*bufferState  // the allocations bound, once each, to lock at replay
	fault []*Kernel       // the kernels that can fault, once each

	spoiled  error // a release during the capture of a buffer it binds, under s.mu
	released bool  // under s.mu
}

// node is one captured launch.
type node struct {
	kernel *Kernel
	args   []any // its arguments, patched: for a launch through every stage
	grid   xpu.Dim3
	states []*bufferState // the buffers bound, per buffer parameter
}

// budgeted reports whether a budget bounds what g binds: the device's or
// a pool's.
func (g *Graph) budgeted() bool {
	return g.s.dev.adm.budget.budget.Load() != 0 || slices.ContainsFunc(g.roots, func(r *bufferState) bool { return r.pool != nil })
}

// rlock read-locks the allocations g binds, so that none is released
// while a replay records them; runlock undoes it.
func (g *Graph) rlock() {
	for _, r := range g.roots {
		r.mu.RLock()
	}
}

func (g *Graph) runlock() {
	for _, r := range g.roots {
		r.mu.RUnlock()
	}
}

// roots returns the allocations n binds, each once.
func (n *node) roots() []*bufferState {
	var rs []*bufferState
	for _, st := range n.states {
		if !slices.Contains(rs, st.root) {
			rs = append(rs, st.root)
		}
	}
	return rs
}

// elems returns the length of n's j-th buffer.
func (n *node) elems(j int) int { return n.states[j].bytes / n.states[j].elem.size }

// add adds a launch of k over grid to g, with its arguments, the states
// of its buffers, and what the driver records.
func (g *Graph) add(k *Kernel, fault bool, args []any, grid xpu.Dim3, states []*bufferState, dl driver.Launch) {
	g.nodes = append(g.nodes, node{kernel: k, args: slices.Clone(args), grid: grid, states: slices.Clone(states)})
	dl.Buffers, dl.Uniforms = slices.Clone(dl.Buffers), slices.Clone(dl.Uniforms)
	g.drv = append(g.drv, dl)
	for _, st := range states {
		if !slices.Contains(g.roots, st.root) {
			g.roots = append(g.roots, st.root)
		}
	}
	if fault && !slices.Contains(g.fault, k) {
		g.fault = append(g.fault, k)
	}
}

// live returns an ErrReleased error naming the kernel when a buffer one
// of g's first upto launches binds has been released. The caller holds
// the roots' locks.
func (g *Graph) live(upto int) error {
	for _, n := range g.nodes[:upto] {
		for _, st := range n.states {
			if err := st.live(); err != nil {
				return fmt.Errorf("%w (bound by a launch of %s)", err, n.kernel.spec.Name)
			}
		}
	}
	return nil
}

// Capture runs fn and captures the launches it records on s into a
// Graph, instead of running them; fn's error, or the first refusal of a
// launch, ends the capture with no graph. Each launch is checked and
// bound as [Stream.Launch] does, and refused with the same errors. While
// s captures, its Flush, Sync, Time and Close are refused, and so are
// Read, Write, Download and Release of a buffer a captured launch binds
// (errors wrapping [ErrCapture]); other streams and buffers are free.
func (s *Stream) Capture(fn func() error) (*Graph, error) {
	if err := s.usable("Stream.Capture"); err != nil {
		return nil, err
	}
	if fn == nil {
		return nil, fmt.Errorf("gpu: Stream.Capture of a nil func: %w", ErrArgs)
	}
	g := &Graph{s: s}
	if err := s.beginCapture(g); err != nil {
		return nil, err
	}
	err := func() error {
		defer s.endCapture(g) // also when fn panics
		return fn()
	}()
	if err == nil {
		s.mu.Lock()
		err = g.spoiled
		s.mu.Unlock()
	}
	if err == nil {
		err = g.prepare()
	}
	if err != nil {
		return nil, err
	}
	return g, nil
}

func (s *Stream) beginCapture(g *Graph) error {
	d := s.dev
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return s.errClosed()
	case s.capture != nil:
		return fmt.Errorf("gpu: Stream.Capture: stream %d is already capturing: %w", s.id, ErrCapture)
	case s.timing:
		return fmt.Errorf("gpu: Stream.Capture: stream %d is being timed: %w", s.id, ErrCapture)
	}
	s.capture = g
	d.mu.Lock()
	d.captures = append(d.captures, g)
	d.capturing.Store(int32(len(d.captures)))
	d.mu.Unlock()
	return nil
}

func (s *Stream) endCapture(g *Graph) {
	d := s.dev
	s.mu.Lock()
	s.capture = nil
	s.mu.Unlock()
	d.mu.Lock()
	d.captures = slices.DeleteFunc(d.captures, func(o *Graph) bool { return o == g })
	d.capturing.Store(int32(len(d.captures)))
	d.mu.Unlock()
}

// capture adds l, checked and bound, to g instead of recording it. The
// caller holds s.mu, where g is s's capture.
func (l *launch) capture(g *Graph, args []any) error {
	k, b := l.kernel, l.bound
	if !l.opts.Deadline.IsZero() {
		return fmt.Errorf("gpu: kernel %s: a launch with a deadline cannot be captured (a replay runs it at another time): %w", k.spec.Name, ErrCapture)
	}
	g.add(k, l.art.Fault, args, l.grid, b.states, driver.Launch{Program: l.prog, Groups: l.grid, Buffers: b.bufs, Uniforms: b.uni})
	l.captured = true
	return nil
}

// prepare has the queue resolve the captured sequence, where it can and
// replay is on.
func (g *Graph) prepare() error {
	s := g.s
	d := s.dev
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.errClosed()
	}
	s.graphs = append(s.graphs, g)
	s.counters.Graphs++
	if !d.Replays() {
		return nil // prepared at its first replay with replay on
	}
	return g.prepareLocked()
}

// prepareLocked has a queue that is a driver.Replayer prepare g, once.
// The caller holds s.mu.
func (g *Graph) prepareLocked() error {
	r, ok := g.s.q.(driver.Replayer)
	if !ok || g.dg != nil || len(g.drv) == 0 {
		return nil
	}
	dg, err := r.Prepare(g.drv)
	if err != nil {
		return fmt.Errorf("gpu: %s: prepare a graph of %d launches: %w", g.s.dev.backend, len(g.drv), err)
	}
	g.dg = dg
	return nil
}

// captured returns an ErrCapture error when st is bound by a launch
// captured so far on one of d's streams; call names the refused call.
func (d *Device) captured(st *bufferState, call string) error {
	d.mu.Lock()
	gs := slices.Clone(d.captures)
	d.mu.Unlock()
	for _, g := range gs {
		g.s.mu.Lock()
		bound := slices.Contains(g.roots, st.root)
		g.s.mu.Unlock()
		if bound {
			return fmt.Errorf("gpu: %s of a Buffer[%s] that a launch captured on stream %d binds: %w", call, st.elem.name, g.s.id, ErrCapture)
		}
	}
	return nil
}

// spoil fails every capture that binds st with err: st was released.
func (d *Device) spoil(st *bufferState, err error) {
	d.mu.Lock()
	gs := slices.Clone(d.captures)
	d.mu.Unlock()
	for _, g := range gs {
		g.s.mu.Lock()
		if g.spoiled == nil && slices.Contains(g.roots, st.root) {
			g.spoiled = err
		}
		g.s.mu.Unlock()
	}
}

// SetReplay turns the replay of graphs on (the default, unless the
// environment sets XPU_REPLAY=off) or off, for a measurement of what it
// saves: off, [Graph.Replay] launches each of a graph's launches through
// every stage, and a stream captures no sequence by itself.
func (d *Device) SetReplay(on bool) {
	if d != nil {
		d.noReplay.Store(!on)
	}
}

// Replays reports whether replay is on (SetReplay).
func (d *Device) Replays() bool { return d != nil && !d.noReplay.Load() }

// Len returns the number of launches in g.
func (g *Graph) Len() int {
	if g == nil {
		return 0
	}
	return len(g.nodes)
}

// Kernel returns the kernel of g's i-th launch; nil when there is none.
func (g *Graph) Kernel(i int) *Kernel {
	if g == nil || i < 0 || i >= len(g.nodes) {
		return nil
	}
	return g.nodes[i].kernel
}

// SetGrid sets the grid of g's i-th launch for the replays that follow,
// checked as a launch's grid is ([ErrGrid]).
func (g *Graph) SetGrid(i int, groups xpu.Dim3) error {
	s, err := g.at("Graph.SetGrid", i)
	if err != nil {
		return err
	}
	n := &g.nodes[i]
	grid, err := checkGrid(n.kernel, groups, s.dev.info.Limits, s.dev.folds(n.kernel))
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if grid != n.grid {
		n.grid, g.drv[i].Groups = grid, grid
		s.counters.Patches++
	}
	return nil
}

// SetScalar sets the scalar parameter name of g's i-th launch for the
// replays that follow; v must be of the parameter's Go type exactly, as
// for a launch ([ErrArgs]).
func (g *Graph) SetScalar(i int, name string, v any) error {
	s, err := g.at("Graph.SetScalar", i)
	if err != nil {
		return err
	}
	n := &g.nodes[i]
	k := n.kernel
	j := slices.IndexFunc(k.spec.Params, func(p schema.Param) bool { return p.Name == name })
	if j < 0 || k.spec.Params[j].Kind != schema.ParamScalar {
		return fmt.Errorf("gpu: Graph.SetScalar: kernel %s has no scalar parameter %q: %w", k.spec.Name, name, ErrArgs)
	}
	p := &k.spec.Params[j]
	s.mu.Lock()
	defer s.mu.Unlock()
	u := g.drv[i].Uniforms[p.Binding : p.Binding+4]
	was, old := [4]byte(u), n.args[j]
	if err := putScalar(u, v, p); err != nil {
		return fmt.Errorf("gpu: Graph.SetScalar: kernel %s: parameter %s: %w", k.spec.Name, p.Name, err)
	}
	n.args[j] = v
	// A buffer's declared length may name the scalar.
	if err := checkLengths(k, n.elems, n.args); err != nil {
		copy(u, was[:])
		n.args[j] = old
		return err
	}
	if [4]byte(u) != was {
		s.counters.Patches++
	}
	return nil
}

// at returns g's stream when g is usable and has an i-th launch.
func (g *Graph) at(call string, i int) (*Stream, error) {
	if g == nil || g.s == nil {
		return nil, fmt.Errorf("gpu: %s on a nil *gpu.Graph (capture one with Stream.Capture): %w", call, ErrArgs)
	}
	if i < 0 || i >= len(g.nodes) {
		return nil, fmt.Errorf("gpu: %s: launch %d of a graph of %d: %w", call, i, len(g.nodes), ErrArgs)
	}
	return g.s, nil
}

// Replay records g's launches on its stream, in order, as the launches
// captured would be recorded, with the grids and scalars set since; like
// them, they run by the stream's next flush point. It refuses a released
// graph, and a graph a launch of which binds a buffer released since it
// was captured ([ErrReleased], naming the kernel). With replay off
// ([Device.SetReplay]), a device timer running ([Stream.Time]) or
// launches being recorded ([Device.SetRecord]), each launch takes every
// stage of [Stream.Launch] again, so that a timing, an A/B measurement or
// a recording sees launches as a program would make them.
func (g *Graph) Replay() error { return g.ReplayContext(context.Background()) }

// ReplayContext is Replay whose waits for the device (a queue bounding
// the work it has submitted, the CPU's runs) end when ctx is done, as
// [Stream.LaunchContext]'s do.
func (g *Graph) ReplayContext(ctx context.Context) error {
	if g == nil || g.s == nil {
		return fmt.Errorf("gpu: Graph.Replay on a nil *gpu.Graph (capture one with Stream.Capture): %w", ErrArgs)
	}
	if err := usableContext("Graph.ReplayContext", ctx); err != nil {
		return err
	}
	s := g.s
	d := s.dev
	start := time.Now()
	direct, err := g.replay(ctx)
	if direct {
		return g.launchEach(ctx)
	}
	if d.Trace() != nil {
		e := trace.Event{Kind: trace.Launch, Name: "replay", Start: start, Dur: time.Since(start), Detail: fmt.Sprintf("%d launches", len(g.nodes))}
		if err != nil {
			e.Kind, e.Detail = trace.Refusal, err.Error()
		}
		s.Report(e)
	}
	return err
}

// replay records g through the queue's prepared graph, or the prepared
// launches one by one where there is none; it reports direct, and does
// nothing, when each launch must take every stage instead.
func (g *Graph) replay(ctx context.Context) (direct bool, err error) {
	s := g.s
	d := s.dev
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return false, d.errClosed()
	}
	ctx, cancel := d.bound(ctx)
	defer cancel()
	if len(g.nodes) > 0 {
		// A replay is a best-effort submission (admission.go).
		l := &launch{kernel: g.nodes[0].kernel}
		if err := d.admit(ctx, l); err != nil {
			return false, err
		}
		defer d.leave(l)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		switch {
		case s.closed:
			return false, s.errClosed()
		case g.released:
			return false, fmt.Errorf("gpu: Graph.Replay: a released graph of %d launches: %w", len(g.nodes), ErrReleased)
		case s.capture != nil:
			return false, fmt.Errorf("gpu: Graph.Replay on stream %d, which is capturing: %w", s.id, ErrCapture)
		case s.timing || !d.Replays() || d.recorder.Load() != nil:
			return true, nil
		}
		waited, err := s.orderGraph(g)
		if err != nil {
			return false, err
		}
		if !waited {
			break
		}
	}
	if err := g.prepareLocked(); err != nil {
		return false, err
	}
	if err := s.commitAuto(ctx); err != nil {
		return false, err
	}
	g.rlock()
	defer g.runlock()
	if err := g.live(len(g.nodes)); err != nil {
		return false, fmt.Errorf("gpu: Graph.Replay: %w", err)
	}
	if g.budgeted() {
		for _, n := range g.nodes {
			if err := d.adm.checkBudget(n.kernel, n.roots()); err != nil {
				return false, fmt.Errorf("gpu: Graph.Replay: %w", err)
			}
		}
	}
	if err := s.replayed(ctx, g.dg, g.drv); err != nil {
		return false, fmt.Errorf("gpu: Graph.Replay on %s: %w", d.backend, err)
	}
	for _, k := range g.fault {
		s.launchedFault(k)
	}
	return false, nil
}

// replayed records launches, which dg prepared when it is not nil, on
// s's queue and counts them. The caller holds s.mu and the buffers'
// locks.
func (s *Stream) replayed(ctx context.Context, dg driver.Graph, launches []driver.Launch) error {
	if dg != nil {
		if err := dg.Replay(ctx); err != nil {
			return err
		}
	} else {
		for _, l := range launches {
			if err := s.q.Launch(ctx, l.Program, l.Groups, l.Buffers, l.Uniforms); err != nil {
				return err
			}
		}
	}
	s.pending = true
	s.counters.Queued += uint64(len(launches))
	s.counters.Replayed += uint64(len(launches))
	return nil
}

// launchEach launches each of g's launches through every stage.
func (g *Graph) launchEach(ctx context.Context) error {
	s := g.s
	s.mu.Lock()
	nodes := make([]node, len(g.nodes))
	for i, n := range g.nodes {
		nodes[i] = node{kernel: n.kernel, args: slices.Clone(n.args), grid: n.grid}
	}
	s.mu.Unlock()
	for _, n := range nodes {
		if err := s.launch(ctx, &launch{kernel: n.kernel, groups: n.grid}, n.args); err != nil {
			return err
		}
	}
	return nil
}

// Release releases what the queue prepared for g; later replays are
// refused. Release is idempotent.
func (g *Graph) Release() {
	if g == nil || g.s == nil {
		return
	}
	s := g.s
	s.mu.Lock()
	defer s.mu.Unlock()
	g.releaseLocked()
	s.graphs = slices.DeleteFunc(s.graphs, func(o *Graph) bool { return o == g })
}

// releaseLocked releases g; the caller holds s.mu.
func (g *Graph) releaseLocked() {
	if g.released {
		return
	}
	g.released = true
	if g.dg != nil {
		g.dg.Release()
		g.dg = nil
	}
}
