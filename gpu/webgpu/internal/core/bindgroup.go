package core

// This file implements the bind group cache and the deferred release of
// what an open pass holds.

import (
	"encoding/binary"
	"slices"
	"sync"
)

// bindGroups caches one bind group per (program, buffer ranges, uniform
// ring): a buffer range is (buffer, offset, size), so that views of one
// buffer have groups of their own.
// It counts the open passes that hold each group and each buffer: a pass
// resolves what it uses only when it is submitted (and a browser refuses
// to submit a pass that uses a destroyed buffer), so a group evicted or a
// buffer released while an open pass holds it is released when the last
// such pass is submitted.
type bindGroups struct {
	mu    sync.Mutex // never held across a wait
	byKey map[string]*bindGroup
	byID  map[uint64][]*bindGroup // every group that holds an object, by its id
	made  int                     // groups made and not yet released
}

type bindGroup struct {
	g       BindGroup
	key     string
	ids     []uint64
	ranges  []binding // the ranges bound, in order
	holds   int       // open passes that set it
	pins    int       // prepared graphs that bind it (replay.go)
	evicted bool      // out of the cache; released when holds and pins drop to 0
	// The last pass that holds it, so that a pass holds it once.
	holder *Queue
	pass   uint64
}

func (c *bindGroups) init() {
	c.byKey = make(map[string]*bindGroup)
	c.byID = make(map[uint64][]*bindGroup)
}

// hold returns the bind group of p with bufs and the uniform ring of q,
// creating it on first use, and records that q's open pass holds it. When
// bufs[dead] has been released, it returns dead >= 0 and holds nothing.
func (c *bindGroups) hold(q *Queue, p *program, bufs []binding) (g BindGroup, dead int, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	bg, dead, err := c.findLocked(q, p, bufs)
	if bg == nil {
		return nil, dead, err
	}
	c.holdLocked(q, bg)
	return bg.g, -1, nil
}

// findLocked returns the bind group of p with bufs and the uniform ring
// of q, creating it on first use; when bufs[dead] has been released, it
// returns dead >= 0 and no group. The caller holds c.mu.
func (c *bindGroups) findLocked(q *Queue, p *program, bufs []binding) (bg *bindGroup, dead int, err error) {
	key := binary.LittleEndian.AppendUint64(q.key[:0], p.id)
	for _, b := range bufs {
		key = binary.LittleEndian.AppendUint64(key, b.b.id)
		key = binary.LittleEndian.AppendUint64(key, uint64(b.offset)<<32|uint64(b.size))
	}
	key = binary.LittleEndian.AppendUint64(key, q.ringID)
	q.key = key
	for i, b := range bufs {
		if b.b.released {
			return nil, i, nil
		}
	}
	bg = c.byKey[string(key)]
	if bg == nil {
		if bg, err = c.create(q, p, bufs, string(key)); err != nil {
			return nil, -1, err
		}
	}
	return bg, -1, nil
}

// holdLocked records that q's open pass holds bg, once a pass. The
// caller holds c.mu.
func (c *bindGroups) holdLocked(q *Queue, bg *bindGroup) {
	if bg.holder != q || bg.pass != q.serial {
		bg.holder, bg.pass = q, q.serial
		bg.holds++
		for _, r := range bg.ranges {
			r.b.holds++
		}
		q.held = append(q.held, bg)
	}
}

// create makes a bind group and caches it. The caller holds c.mu.
func (c *bindGroups) create(q *Queue, p *program, bufs []binding, key string) (*bindGroup, error) {
	entries := make([]Entry, 0, len(bufs)+1)
	ids := []uint64{p.id, q.ringID}
	for i, b := range bufs {
		if i == p.params && p.block > 0 {
			// The uniform block sits between the parameters' buffers
			// and the fault word.
			entries = append(entries, Entry{Buffer: q.ring, Size: p.block})
		}
		entries = append(entries, Entry{Buffer: b.b.b, Offset: b.offset, Size: b.size})
		ids = append(ids, b.b.id)
	}
	if len(bufs) == p.params && p.block > 0 {
		entries = append(entries, Entry{Buffer: q.ring, Size: p.block})
	}
	g, err := p.d.api.CreateBindGroup(p.pipeline, entries)
	if err != nil {
		return nil, err
	}
	bg := &bindGroup{g: g, key: key, ids: ids, ranges: slices.Clone(bufs)}
	c.made++
	c.byKey[key] = bg
	for _, id := range ids {
		c.byID[id] = append(c.byID[id], bg)
	}
	return bg, nil
}

// unhold records that a pass that held gs has been submitted, releasing
// the evicted groups and the released buffers no open pass holds any
// more.
func (c *bindGroups) unhold(gs []*bindGroup) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, bg := range gs {
		bg.holds--
		if bg.evicted && bg.holds == 0 && bg.pins == 0 {
			c.releaseGroup(bg)
		}
		for _, r := range bg.ranges {
			if r.b.holds--; r.b.released && r.b.holds == 0 {
				r.b.b.Release()
			}
		}
	}
}

// live reports whether b has not been released.
func (c *bindGroups) live(b *buffer) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !b.released
}

// release drops b's bind groups and releases it, or leaves that to the
// submit of the last open pass that holds it.
func (c *bindGroups) release(b *buffer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b.released {
		return
	}
	b.released = true
	c.evictLocked(b.id)
	if b.holds == 0 {
		b.b.Release()
	}
}

// evict drops every bind group that holds the object with id: a program
// or a uniform ring that is being released.
func (c *bindGroups) evict(id uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.evictLocked(id)
}

func (c *bindGroups) evictLocked(id uint64) {
	for _, bg := range c.byID[id] {
		c.evictGroup(bg, id)
	}
	delete(c.byID, id)
}

// releaseRange drops every bind group that binds offset and size bytes
// of b: a view of it that was released.
func (c *bindGroups) releaseRange(b *buffer, offset, size int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, bg := range slices.Clone(c.byID[b.id]) {
		if slices.ContainsFunc(bg.ranges, func(r binding) bool { return r.b == b && r.offset == offset && r.size == size }) {
			c.evictGroup(bg, 0)
		}
	}
}

// evictGroup takes bg out of the cache and out of the index of every
// object it holds but skip (whose entry the caller drops), releasing it
// unless an open pass holds it. The caller holds c.mu.
func (c *bindGroups) evictGroup(bg *bindGroup, skip uint64) {
	if bg.evicted {
		return
	}
	bg.evicted = true
	delete(c.byKey, bg.key)
	for _, other := range bg.ids {
		if other == skip {
			continue
		}
		c.byID[other] = slices.DeleteFunc(c.byID[other], func(g *bindGroup) bool { return g == bg })
		if len(c.byID[other]) == 0 {
			delete(c.byID, other)
		}
	}
	if bg.holds == 0 && bg.pins == 0 {
		c.releaseGroup(bg)
	}
}

// releaseGroup releases bg's group. The caller holds c.mu.
func (c *bindGroups) releaseGroup(bg *bindGroup) {
	bg.g.Release()
	c.made--
}

// releaseAll releases every cached group; no pass is open.
func (c *bindGroups) releaseAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, bg := range c.byKey {
		bg.g.Release()
	}
	c.init()
	c.made = 0
}

// size returns the number of bind groups made and not yet released:
// those cached and those evicted that an open pass still holds.
func (c *bindGroups) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.made
}
