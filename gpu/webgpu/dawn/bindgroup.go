//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"encoding/binary"
	"runtime"
	"slices"
	"sync"
)

// bindGroups caches one bind group per (program, buffers, uniform ring).
// A pass resolves the bind groups it sets only when it ends, so a group
// evicted while an open pass holds it is released when that pass ends.
// Every method is called with the device's mu held.
type bindGroups struct {
	mu    sync.Mutex
	byKey map[string]*bindGroup
	byID  map[uint64][]*bindGroup // every group that holds an object, by its id
}

type bindGroup struct {
	g       uintptr
	key     string
	ids     []uint64
	holds   int  // open passes that set it
	evicted bool // out of the cache; released when holds drops to 0
	// The last pass that holds it, so that a pass holds it once.
	holder *queue
	pass   uint64
}

func (c *bindGroups) init() {
	c.byKey = make(map[string]*bindGroup)
	c.byID = make(map[uint64][]*bindGroup)
}

// hold returns the bind group of p with bufs and the uniform ring of q,
// creating it on first use, and records that q's open pass holds it.
func (c *bindGroups) hold(q *queue, p *program, bufs []*buffer) (uintptr, error) {
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
			return 0, err
		}
	}
	if bg.holder != q || bg.pass != q.pass {
		bg.holder, bg.pass = q, q.pass
		bg.holds++
		q.held = append(q.held, bg)
	}
	return bg.g, nil
}

// create makes a bind group and caches it. The caller holds c.mu and
// the device's mu.
func (c *bindGroups) create(q *queue, p *program, bufs []*buffer, key string) (*bindGroup, error) {
	entries := make([]bindGroupEntry, 0, len(bufs)+1)
	ids := []uint64{p.id, q.ringID}
	for i, b := range bufs {
		entries = append(entries, bindGroupEntry{binding: uint32(i), buffer: b.b, size: wholeSize})
		ids = append(ids, b.id)
	}
	if p.uniforms > 0 {
		entries = append(entries, bindGroupEntry{binding: uint32(len(bufs)), buffer: q.ring, size: uint64(p.uniforms)})
	}
	desc := bindGroupDescriptor{layout: p.bgl, entryCount: uintptr(len(entries))}
	if len(entries) > 0 {
		desc.entries = &entries[0]
	}
	g, err := p.d.scoped(func() uintptr { return wgpu.deviceCreateBindGroup(p.d.dev, &desc) })
	runtime.KeepAlive(entries)
	if err != nil {
		if g != 0 {
			wgpu.bindGroupRelease(g)
		}
		return nil, err
	}
	bg := &bindGroup{g: g, key: key, ids: ids}
	c.byKey[key] = bg
	for _, id := range ids {
		c.byID[id] = append(c.byID[id], bg)
	}
	return bg, nil
}

// unhold records that an open pass that held gs has ended, releasing the
// evicted groups no pass holds any more.
func (c *bindGroups) unhold(gs []*bindGroup) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, bg := range gs {
		bg.holds--
		if bg.evicted && bg.holds == 0 {
			wgpu.bindGroupRelease(bg.g)
		}
	}
}

// evict drops every bind group that holds the object with id: a buffer,
// a program or a uniform ring that is being released.
func (c *bindGroups) evict(id uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, bg := range c.byID[id] {
		if bg.evicted {
			continue
		}
		bg.evicted = true
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
		if bg.holds == 0 {
			wgpu.bindGroupRelease(bg.g)
		}
	}
	delete(c.byID, id)
}

// releaseAll releases every cached group; no pass is open.
func (c *bindGroups) releaseAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, bg := range c.byKey {
		wgpu.bindGroupRelease(bg.g)
	}
	c.init()
}
