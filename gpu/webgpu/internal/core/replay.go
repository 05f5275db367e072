package core

// This file implements driver.Replayer: a captured launch sequence whose
// pipelines and bind groups are resolved once, so that a replay records
// its dispatches without a bind group's key or the cache's lookup; and,
// for a graph replayed again and again, its next replay encoded ahead
// while the queue waits for the device, so that the replay itself only
// writes the uniforms and submits.

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/goxpu/xpu"
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

	// Under q.mu: the next replay encoded ahead, or nil; the replays so
	// far; whether one came since the last encoding ahead; whether the
	// last bound the buffers over the grids of the one before it (no
	// buffer moved, no replay encoded ahead dropped for a change), which
	// a graph whose buffers move at every replay never does.
	ahead   *ahead
	replays int
	stale   bool
	steady  bool
}

// ahead is a replay of a graph encoded ahead into commands of their own,
// its launches' uniform blocks in ring slots from the ring's start, so
// that a replay whose launches bind the same groups over the same grids
// submits them with the uniforms it writes. A launch whose block was
// equal to the one before it shares that one's slot, as launch by launch
// (Queue.dispatch); a replay whose blocks are no longer equal there takes
// the commands as long as nothing else than the scalars changed.
type ahead struct {
	cmds  Commands
	held  []*bindGroup // what the commands hold, as an open pass would
	grids []xpu.Dim3   // each launch's grid, as dispatched
	offs  []int        // each launch's ring offset; -1: no block
	used  int          // the ring bytes of the blocks
}

// aheadAfter is the replays of a graph before its next is encoded ahead:
// a graph replayed once may never be again.
const aheadAfter = 2

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
	q.graphs = append(q.graphs, g)
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

// Replay submits the graph's replay encoded ahead where it takes the
// launches as they are now; else it records the graph's dispatches in
// q's open pass, submitting where the ring or the pass is full, as Launch
// would one by one.
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
	g.replays++
	g.stale, g.steady = true, true
	if a := g.ahead; a != nil {
		g.ahead = nil
		if took, err := g.submitAhead(ctx, a); took || err != nil {
			return err
		}
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
			g.steady = false
			if err := g.rebind(i); err != nil {
				return err
			}
		}
		q.dispatch(p, g.groups[i].g, l.Groups, l.Buffers, l.Uniforms)
	}
	return nil
}

// matches reports whether a, encoded ahead of g, is the replay of g's
// launches as they are now: the same groups over the same grids, and no
// timer on the queue, which stamps its passes. The caller holds q.mu.
func (g *graph) matches(a *ahead) bool {
	q := g.q
	if q.timer.on {
		return false
	}
	for i := range g.launches {
		l := &g.launches[i]
		if phys, _ := q.fold(g.progs[i], l.Groups); phys != a.grids[i] || !slices.Equal(l.Buffers, g.bound[i]) {
			return false
		}
	}
	return true
}

// submitAhead submits the pass open on q, then a, encoded ahead of g,
// with the launches' uniform blocks written at their slots, and reports
// that it did; where a does not match g's launches as they are now, it
// drops a instead. The caller holds q.mu.
func (g *graph) submitAhead(ctx context.Context, a *ahead) (took bool, err error) {
	q, d := g.q, g.q.d
	if !g.matches(a) {
		g.drop(a)
		g.steady = false
		return false, nil
	}
	if err := q.submit(ctx); err != nil {
		g.drop(a)
		return true, err
	}
	last := -1
	for i := range g.launches {
		l, p := &g.launches[i], g.progs[i]
		if p.block == 0 {
			continue
		}
		_, folded := q.fold(p, l.Groups)
		blk := q.blockOf(p, l.Groups, folded, l.Buffers, l.Uniforms)
		switch off := a.offs[i]; {
		case off != last:
			copy(q.slab[off:], blk)
			last = off
		case !bytes.Equal(q.slab[off:off+len(blk)], blk):
			g.drop(a) // blocks that shared a slot differ now
			return false, nil
		}
	}
	err = a.cmds.Submit(q.ring, q.slab[:a.used])
	d.groups.unhold(a.held)
	if err != nil {
		return true, fmt.Errorf("%s: submit: %w", d.name, err)
	}
	q.aheads++
	return true, q.submitted(ctx)
}

// drop releases a, encoded ahead of g, unsubmitted. The caller holds
// q.mu.
func (g *graph) drop(a *ahead) {
	a.cmds.Release()
	g.q.d.groups.unhold(a.held)
}

// dropAhead drops g's replay encoded ahead, if any. The caller holds
// q.mu.
func (g *graph) dropAhead() {
	if a := g.ahead; a != nil {
		g.ahead = nil
		g.drop(a)
	}
}

// encodeAhead encodes the next replay of each graph of q that fits one
// pass, was replayed at least aheadAfter times, and once since its last
// encoding, steadily (graph.steady). An encoding that fails leaves the
// graph to replay as it would without: the failure, if it is the
// device's, comes back from that replay. The caller holds q.mu, with no
// pass open.
func (q *Queue) encodeAhead() {
	if q.timer.on {
		return
	}
	for _, g := range q.graphs {
		if g.stale && g.steady && g.ahead == nil && g.replays >= aheadAfter && g.fits() {
			g.stale = false
			g.ahead = g.encode()
		}
	}
}

// fits reports whether g's launches fit one pass, each with a ring slot
// of its own at most.
func (g *graph) fits() bool {
	if len(g.launches) > PassLaunches {
		return false
	}
	n := 0
	for _, p := range g.progs {
		n += g.q.d.slot(p)
	}
	return n <= len(g.q.slab)
}

// encode records g's launches as they are now in a pass of their own and
// finishes it; nil where that fails, or where a buffer the graph binds
// was released. The caller holds q.mu, with no pass open.
func (g *graph) encode() *ahead {
	q, d := g.q, g.q.d
	// Commands encoded ahead hold their groups and buffers as an open
	// pass does, from a time when every buffer is live: a buffer released
	// before has been let go of already.
	d.groups.mu.Lock()
	for _, bg := range g.distinct {
		for _, r := range bg.ranges {
			if r.b.released {
				d.groups.mu.Unlock()
				return nil
			}
		}
	}
	if err := q.begin(); err != nil {
		d.groups.mu.Unlock()
		return nil
	}
	for _, bg := range g.distinct {
		d.groups.holdLocked(q, bg)
	}
	d.groups.mu.Unlock()
	a := &ahead{grids: make([]xpu.Dim3, len(g.launches)), offs: make([]int, len(g.launches))}
	for i := range g.launches {
		l, p := &g.launches[i], g.progs[i]
		a.grids[i], _ = q.fold(p, l.Groups)
		q.dispatch(p, g.groups[i].g, l.Groups, g.bound[i], l.Uniforms)
		a.offs[i] = -1
		if p.block > 0 {
			a.offs[i] = q.lastUsed
		}
	}
	a.used = q.used
	p := q.pass
	q.pass, q.last, q.launches = nil, nil, 0
	q.used, q.lastUsed, q.lastGroup = 0, -1, nil
	a.held = slices.Clone(q.held)
	clear(q.held)
	q.held = q.held[:0]
	cmds, err := p.Finish()
	if err != nil {
		d.groups.unhold(a.held)
		return nil
	}
	a.cmds = cmds
	return a
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
	g.dropAhead()
	g.q.graphs = slices.DeleteFunc(g.q.graphs, func(o *graph) bool { return o == g })
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
