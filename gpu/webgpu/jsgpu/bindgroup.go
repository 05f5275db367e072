//go:build js

package jsgpu

import (
	"encoding/binary"
	"slices"
	"sync"
	"syscall/js"
)

// bindGroups caches one bind group per (program, buffers, uniform ring),
// and counts, for each buffer, the open passes whose bind groups hold it:
// a released buffer is destroyed only once no open pass holds it, since
// the browser refuses to submit a pass that uses a destroyed buffer.
type bindGroups struct {
	mu    sync.Mutex // never held across a wait
	byKey map[string]*bindGroup
	byID  map[uint64][]*bindGroup // every group that holds an object, by its id
}

type bindGroup struct {
	g    js.Value
	key  string
	ids  []uint64
	bufs []*buffer
	// The last pass that holds it, so that a pass holds it once.
	holder *queue
	pass   uint64
}

func (c *bindGroups) init() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byKey = make(map[string]*bindGroup)
	c.byID = make(map[uint64][]*bindGroup)
}

// hold returns the bind group of p with bufs and the uniform ring of q,
// creating it on first use, and records that q's open pass holds it.
func (c *bindGroups) hold(q *queue, p *program, bufs []*buffer) (js.Value, error) {
	key := binary.LittleEndian.AppendUint64(q.key[:0], p.id)
	for _, b := range bufs {
		key = binary.LittleEndian.AppendUint64(key, b.id)
	}
	key = binary.LittleEndian.AppendUint64(key, q.ringID)
	q.key = key

	c.mu.Lock()
	defer c.mu.Unlock()
	bg := c.byKey[string(key)]
	if bg == nil {
		var err error
		if bg, err = c.create(q, p, bufs, string(key)); err != nil {
			return js.Value{}, err
		}
	}
	if bg.holder != q || bg.pass != q.pass {
		bg.holder, bg.pass = q, q.pass
		for _, b := range bg.bufs {
			b.holds++
		}
		q.held = append(q.held, bg)
	}
	return bg.g, nil
}

// create makes a bind group and caches it. The caller holds c.mu.
func (c *bindGroups) create(q *queue, p *program, bufs []*buffer, key string) (*bindGroup, error) {
	entries := make([]any, 0, len(bufs)+1)
	ids := []uint64{p.id, q.ringID}
	for i, b := range bufs {
		entries = append(entries, map[string]any{"binding": i, "resource": map[string]any{"buffer": b.b}})
		ids = append(ids, b.id)
	}
	if p.uniforms > 0 {
		entries = append(entries, map[string]any{
			"binding":  len(bufs),
			"resource": map[string]any{"buffer": q.ring, "size": p.uniforms},
		})
	}
	p.d.scope()
	g, err := call(p.d.dev, "createBindGroup", map[string]any{"layout": p.bgl, "entries": entries})
	p.d.unscope()
	if err != nil {
		return nil, err
	}
	bg := &bindGroup{g: g, key: key, ids: ids, bufs: slices.Clone(bufs)}
	c.byKey[key] = bg
	for _, id := range ids {
		c.byID[id] = append(c.byID[id], bg)
	}
	return bg, nil
}

// unhold records that the pass that held gs has been submitted, and
// destroys the released buffers no open pass holds any more.
func (c *bindGroups) unhold(gs []*bindGroup) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, bg := range gs {
		for _, b := range bg.bufs {
			b.holds--
			if b.released && b.holds == 0 {
				b.destroy()
			}
		}
	}
}

// release drops b's bind groups and destroys it, or leaves that to the
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
		b.destroy()
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
		delete(c.byKey, bg.key)
		for _, other := range bg.ids {
			if other == id {
				continue
			}
			c.byID[other] = slices.DeleteFunc(c.byID[other], func(g *bindGroup) bool { return g == bg })
			if len(c.byID[other]) == 0 {
				delete(c.byID, other)
			}
		}
	}
	delete(c.byID, id)
}

// size returns the number of cached bind groups.
func (c *bindGroups) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
}
