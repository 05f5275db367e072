package core

// This file implements driver.Replayer: a captured launch sequence whose
// pipelines and bind groups are resolved once, so that a replay records
// its dispatches without a bind group's key or the cache's lookup.

import (
	"context"
	"fmt"
	"slices"

	"github.com/goxpu/xpu/gpu/driver"
)

var _ driver.Replayer = (*Queue)(nil)

// graph is a launch sequence prepared on a queue. It pins its bind
// groups, which the cache then keeps until the graph is released even
// when a buffer or program they bind goes.
type graph struct {
	q        *Queue
	launches []driver.Launch // the runtime's, patched between replays
	progs    []*program
	groups   []*bindGroup      // per launch
	bound    [][]driver.Buffer // per launch: the buffers its group binds
	distinct []*bindGroup      // each once, for a pass to hold
	released bool              // under q.mu
}

// Prepare resolves launches for replay on q: each launch's program, its
// buffers' bind group with q's uniform ring, created where the cache has
// none.
func (q *Queue) Prepare(launches []driver.Launch) (driver.Graph, error) {
	d := q.d
	if err := d.loss(); err != nil {
		return nil, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ring == nil {
		return nil, fmt.Errorf("%s: prepare on a released queue", d.name)
	}
	g := &graph{q: q, launches: launches, progs: make([]*program, len(launches)),
		groups: make([]*bindGroup, len(launches)), bound: make([][]driver.Buffer, len(launches))}
	for i, l := range launches {
		p, ok := l.Program.(*program)
		if !ok || p.d != d {
			g.unpin()
			return nil, fmt.Errorf("%s: launch %d: a program of another device or driver (%T)", d.name, i, l.Program)
		}
		if len(l.Buffers) != p.buffers || len(l.Uniforms) != p.uniforms {
			g.unpin()
			return nil, fmt.Errorf("%s: launch %d: kernel %s takes %d buffers and %d uniform bytes, got %d and %d",
				d.name, i, p.name, p.buffers, p.uniforms, len(l.Buffers), len(l.Uniforms))
		}
		if d.slot(p) > len(q.slab) {
			g.unpin()
			return nil, fmt.Errorf("%s: launch %d: kernel %s: %d uniform bytes exceed the %d-byte ring", d.name, i, p.name, p.block, len(q.slab))
		}
		bg, err := q.pin(p, l.Buffers)
		if err != nil {
			g.unpin()
			return nil, fmt.Errorf("%s: launch %d: kernel %s: %w", d.name, i, p.name, err)
		}
		g.progs[i], g.groups[i], g.bound[i] = p, bg, slices.Clone(l.Buffers)
		if !slices.Contains(g.distinct, bg) {
			g.distinct = append(g.distinct, bg)
		}
	}
	return g, nil
}

// pin returns the bind group of p with bufs, pinned. The caller holds
// q.mu.
func (q *Queue) pin(p *program, bufs []driver.Buffer) (*bindGroup, error) {
	q.bufs = q.bufs[:0]
	defer func() { clear(q.bufs) }()
	for i, db := range bufs {
		b, ok := bindingOf(db)
		if !ok || b.b.d != q.d {
			return nil, fmt.Errorf("buffer %d is not a live buffer of this device", i)
		}
		q.bufs = append(q.bufs, b)
	}
	c := &q.d.groups
	c.mu.Lock()
	defer c.mu.Unlock()
	bg, dead, err := c.findLocked(q, p, q.bufs)
	switch {
	case dead >= 0:
		return nil, fmt.Errorf("buffer %d is not a live buffer of this device", dead)
	case err != nil:
		return nil, fmt.Errorf("bind group: %w", err)
	}
	bg.pins++
	return bg, nil
}

// Replay records the graph's dispatches in q's open pass, submitting
// where the ring or the pass is full, as Launch would one by one.
func (g *graph) Replay(ctx context.Context) error {
	q := g.q
	d := q.d
	if err := d.loss(); err != nil {
		return err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case g.released:
		return fmt.Errorf("%s: replay of a released graph", d.name)
	case q.ring == nil:
		return fmt.Errorf("%s: replay on a released queue", d.name)
	}
	held := false // whether the open pass holds the graph's groups
	for i := range g.launches {
		l, p := &g.launches[i], g.progs[i]
		if q.used+d.slot(p) > len(q.slab) || q.launches >= PassLaunches {
			if err := q.submit(ctx); err != nil {
				return err
			}
			held = false
		}
		if q.pass == nil {
			if err := q.begin(); err != nil {
				return err
			}
		}
		if !held {
			// The pass holds every group of the graph, once, under one
			// lock: what a replay saves over launch by launch.
			d.groups.mu.Lock()
			for _, bg := range g.distinct {
				d.groups.holdLocked(q, bg)
			}
			d.groups.mu.Unlock()
			held = true
		}
		if !slices.Equal(l.Buffers, g.bound[i]) {
			if err := g.rebind(i); err != nil {
				return err
			}
		}
		q.dispatch(p, g.groups[i].g, l.Groups, l.Buffers, l.Uniforms)
	}
	return nil
}

// rebind pins the group of launch i's buffers, which the runtime moved
// to other views of the same allocations since the last replay, in place
// of the one it pinned, and has the open pass hold it. The caller holds
// q.mu.
func (g *graph) rebind(i int) error {
	q, l := g.q, &g.launches[i]
	bg, err := q.pin(g.progs[i], l.Buffers)
	if err != nil {
		return fmt.Errorf("%s: launch %d: kernel %s: %w", q.d.name, i, g.progs[i].name, err)
	}
	c := &q.d.groups
	c.mu.Lock()
	c.holdLocked(q, bg)
	old := g.groups[i]
	c.unpinLocked(old)
	c.mu.Unlock()
	g.groups[i], g.bound[i] = bg, append(g.bound[i][:0], l.Buffers...)
	if !slices.Contains(g.distinct, bg) {
		g.distinct = append(g.distinct, bg)
	}
	if !slices.Contains(g.groups, old) {
		g.distinct = slices.DeleteFunc(g.distinct, func(o *bindGroup) bool { return o == old })
	}
	return nil
}

// Release unpins the graph's bind groups; those the cache evicted
// meanwhile go with the last pass that holds them.
func (g *graph) Release() {
	g.q.mu.Lock()
	defer g.q.mu.Unlock()
	if g.released {
		return
	}
	g.released = true
	g.unpin()
}

// unpin drops the pins of the groups resolved so far.
func (g *graph) unpin() {
	c := &g.q.d.groups
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, bg := range g.groups {
		if bg != nil {
			c.unpinLocked(bg)
		}
	}
	clear(g.groups)
}

// unpinLocked drops a pin of bg, releasing it when the cache evicted it
// and nothing else holds it. The caller holds c.mu.
func (c *bindGroups) unpinLocked(bg *bindGroup) {
	if bg.pins--; bg.evicted && bg.pins == 0 && bg.holds == 0 {
		c.releaseGroup(bg)
	}
}
