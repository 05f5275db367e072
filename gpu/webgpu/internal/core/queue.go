package core

// This file implements driver.Queue: launches batched into one compute
// pass, their scalars in a uniform ring.

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// RingBytes is the size of a queue's uniform ring: the launches' scalars
// between two submits, each at an aligned offset (1024 launches at the
// usual 256-byte alignment).
const RingBytes = 256 << 10

// PassLaunches bounds the launches of one pass: a queue submits its open
// pass before recording more, so that what a binding holds for recorded
// commands (some hundred bytes a dispatch) stays bounded however long a
// program launches without a flush. It is the uniform ring's capacity at
// the usual alignment, so that launches with scalars and without submit
// as often.
const PassLaunches = 1024

// PassesInFlight bounds the passes a queue submits without waiting: the
// submit that reaches it waits for the device, so that a program that
// records faster than the device runs (and never syncs) does not pile up
// submitted work in the binding.
const PassesInFlight = 64

// Queue records launches into one command encoder and one compute pass,
// and submits them at Flush, at Sync, when the uniform ring is full, or
// when the pass holds PassLaunches launches.
type Queue struct {
	d *Device

	mu     sync.Mutex // held across the wait of Sync
	ring   Buffer     // device uniform buffer, bound at dynamic offsets; nil once released
	ringID uint64
	slab   []byte // host image of the ring, written before each submit
	used   int

	pass     Pass         // the open pass, or nil
	serial   uint64       // serial number of the open pass
	launches int          // dispatches recorded in the open pass
	inflight int          // passes submitted since the last wait
	held     []*bindGroup // bind groups the open pass set
	last     *program     // pipeline set last in the open pass
	key      []byte       // scratch for bind group keys
	bufs     []binding    // scratch for Launch
	offs     [1]uint32    // scratch for the dynamic offset
	block    []byte       // scratch for a launch's uniform block

	// In the open pass: the ring offset of the last launch's scalars,
	// of lastLen bytes (-1 when none), and the group bound last, at
	// ring offset lastOff.
	lastUsed, lastLen int
	lastGroup         BindGroup
	lastOff           int
	graphs            []*graph // prepared on q and not released (replay.go)
	aheads            uint64   // replays submitted as encoded ahead

	timer passTimer
}

var _ driver.Queue = (*Queue)(nil)

func (d *Device) newQueue() (*Queue, error) {
	if err := d.loss(); err != nil {
		return nil, err
	}
	ring, err := d.api.CreateBuffer(UsageUniform|UsageCopyDst, RingBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: uniform ring: %w", d.name, err)
	}
	return &Queue{d: d, ring: ring, ringID: d.nextID.Add(1), slab: make([]byte, RingBytes), lastUsed: -1}, nil
}

// Launch records a dispatch of p over groups in the open pass; ctx
// bounds the wait of a submit it makes (submit).
func (q *Queue) Launch(ctx context.Context, dp driver.Program, groups xpu.Dim3, bufs []driver.Buffer, uniforms []byte) error {
	d := q.d
	if err := d.loss(); err != nil {
		return err
	}
	p, ok := dp.(*program)
	if !ok || p.d != d {
		return fmt.Errorf("%s: launch of a program of another device or driver (%T)", d.name, dp)
	}
	if len(bufs) != p.buffers || len(uniforms) != p.uniforms {
		return fmt.Errorf("%s: kernel %s takes %d buffers and %d uniform bytes, got %d and %d",
			d.name, p.name, p.buffers, p.uniforms, len(bufs), len(uniforms))
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ring == nil {
		return fmt.Errorf("%s: launch on a released queue", d.name)
	}
	q.bufs = q.bufs[:0]
	for i, db := range bufs {
		b, ok := bindingOf(db)
		if !ok || b.b.d != d {
			clear(q.bufs)
			return fmt.Errorf("%s: kernel %s: buffer %d is not a live buffer of this device", d.name, p.name, i)
		}
		q.bufs = append(q.bufs, b)
	}
	slot := d.slot(p)
	if slot > len(q.slab) {
		clear(q.bufs)
		return fmt.Errorf("%s: kernel %s: %d uniform bytes exceed the %d-byte ring", d.name, p.name, p.block, len(q.slab))
	}
	if q.used+slot > len(q.slab) || q.launches >= PassLaunches {
		if err := q.submit(ctx); err != nil {
			clear(q.bufs)
			return err
		}
	}
	if q.pass == nil {
		if err := q.begin(); err != nil {
			clear(q.bufs)
			return err
		}
	}
	g, dead, err := d.groups.hold(q, p, q.bufs)
	clear(q.bufs)
	if dead >= 0 {
		return fmt.Errorf("%s: kernel %s: buffer %d is not a live buffer of this device", d.name, p.name, dead)
	}
	if err != nil {
		return fmt.Errorf("%s: kernel %s: bind group: %w", d.name, p.name, err)
	}
	q.dispatch(p, g, groups, bufs, uniforms)
	return nil
}

// dispatch records a dispatch of p with group g over groups in the open
// pass, which holds g, its uniform block in the ring, which has room for
// it: the scalars, then the launch words of groups and of bufs, the
// launch's buffers. The caller holds q.mu. A grid that neither fits the
// device nor folds is dispatched as it is, for the device to refuse (the
// runtime's launch check refuses it first).
func (q *Queue) dispatch(p *program, g BindGroup, groups xpu.Dim3, bufs []driver.Buffer, uniforms []byte) {
	if q.last != p {
		q.pass.SetPipeline(p.pipeline)
		q.last, q.lastGroup = p, nil
	}
	phys, folded := q.fold(p, groups)
	if p.block > 0 {
		blk := q.blockOf(p, groups, folded, bufs, uniforms)
		// A block equal to the last launch's shares its ring slot.
		if q.lastUsed < 0 || !bytes.Equal(q.slab[q.lastUsed:q.lastUsed+q.lastLen], blk) {
			q.lastUsed, q.lastLen = q.used, len(blk)
			copy(q.slab[q.used:], blk)
			q.used += q.d.slot(p)
		}
	}
	// A group bound at the offset already bound is not bound again: a
	// dynamic offset set again costs a driver as much as a new one.
	if g != q.lastGroup || q.lastUsed != q.lastOff {
		q.lastGroup, q.lastOff = g, q.lastUsed
		if p.block > 0 {
			q.offs[0] = uint32(q.lastUsed)
			q.pass.SetBindGroup(g, q.offs[:])
		} else {
			q.pass.SetBindGroup(g, nil)
		}
	}
	q.pass.Dispatch(phys.X, phys.Y, phys.Z)
	q.launches++
}

// blockOf returns the uniform block of a launch of p, in q's scratch:
// its scalars, then the launch words of groups and of bufs.
func (q *Queue) blockOf(p *program, groups xpu.Dim3, folded bool, bufs []driver.Buffer, uniforms []byte) []byte {
	if len(q.block) < p.block {
		q.block = make([]byte, p.block)
	}
	blk := q.block[:p.block]
	copy(blk, uniforms)
	p.putWords(blk[p.uniforms:], groups.Norm(), folded, bufs)
	return blk
}

// fold returns the physical grid of a dispatch of p over groups and
// whether it folds them (driver.Fold), for code that reads the grid
// words; other code, and a grid that cannot fold, is dispatched as it is.
func (q *Queue) fold(p *program, groups xpu.Dim3) (xpu.Dim3, bool) {
	if p.folds {
		if phys, folded, ok := driver.Fold(groups, q.d.info.Limits.MaxGroups); ok {
			return phys, folded
		}
	}
	return groups.Norm(), false
}

// putWords writes p's launch words into dst (little endian): the grid
// of the launch, whether its dispatch is folded, the lengths of bufs.
func (p *program) putWords(dst []byte, groups xpu.Dim3, folded bool, bufs []driver.Buffer) {
	for i, w := range p.words {
		var v uint32
		switch w.Kind {
		case schema.WordGroupsX:
			v = groups.X
		case schema.WordGroupsY:
			v = groups.Y
		case schema.WordGroupsZ:
			v = groups.Z
		case schema.WordFolded:
			if folded {
				v = 1
			}
		case schema.WordLen:
			if l := p.lens[i]; l.buffer < len(bufs) && l.elem > 0 {
				v = uint32(bufs[l.buffer].Size() / l.elem)
			}
		}
		binary.LittleEndian.PutUint32(dst[4*i:], v)
	}
}

// slot returns the ring bytes of a launch of p: its scalars at the
// device's uniform offset alignment.
func (d *Device) slot(p *program) int {
	return (p.block + d.uniformAlign - 1) / d.uniformAlign * d.uniformAlign
}

// begin opens an encoder and a compute pass, stamped at its boundaries
// when the queue is timing. The caller holds q.mu.
func (q *Queue) begin() error {
	var (
		p   Pass
		err error
	)
	if q.timer.on {
		p, err = q.timer.begin(q.d)
	} else {
		p, err = q.d.api.BeginPass()
	}
	if err != nil {
		return fmt.Errorf("%s: command encoder: %w", q.d.name, err)
	}
	q.pass = p
	q.serial++
	return nil
}

// submit ends the open pass, writes the ring and submits; after
// PassesInFlight passes it waits for the device, no longer than ctx
// allows. The caller holds q.mu.
func (q *Queue) submit(ctx context.Context) error {
	if q.pass == nil {
		return nil
	}
	p := q.pass
	q.pass, q.last, q.launches = nil, nil, 0
	var uniforms []byte
	if q.used > 0 {
		uniforms = q.slab[:q.used]
	}
	cmds, err := p.Finish()
	if err == nil {
		err = cmds.Submit(q.ring, uniforms)
	}
	q.used, q.lastUsed, q.lastGroup = 0, -1, nil
	q.d.groups.unhold(q.held)
	clear(q.held)
	q.held = q.held[:0]
	if err != nil {
		return fmt.Errorf("%s: submit: %w", q.d.name, err)
	}
	return q.submitted(ctx)
}

// submitted counts a pass submitted; after PassesInFlight of them it
// waits for the device, no longer than ctx allows. The caller holds
// q.mu.
func (q *Queue) submitted(ctx context.Context) error {
	if q.inflight++; q.inflight >= PassesInFlight {
		q.inflight = 0
		if err := q.d.wait(ctx, q.d.api.Wait); err != nil {
			return fmt.Errorf("%s: wait for submitted passes: %w", q.d.name, err)
		}
	}
	return nil
}

// Flush submits what was recorded and returns the errors the device
// reported since the last check; it waits for the device only as submit
// does, no longer than ctx allows.
func (q *Queue) Flush(ctx context.Context) error {
	if err := q.d.loss(); err != nil {
		return err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return errors.Join(q.submit(ctx), q.d.api.Errors())
}

// Sync submits what was recorded and waits for the device to finish it,
// or until ctx is done, which loses the device (Device.wait); before the
// wait it encodes ahead the next replay of the graphs replayed since
// their last (replay.go).
func (q *Queue) Sync(ctx context.Context) error {
	if err := q.d.loss(); err != nil {
		return err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if err := q.submit(ctx); err != nil {
		return err
	}
	// While the device runs what was submitted, the graphs replayed
	// since encode their next replay (replay.go).
	q.encodeAhead()
	q.inflight = 0
	return q.d.wait(ctx, q.d.api.Wait)
}

// Release submits what is left and frees the ring and the timer; on a
// lost device it submits nothing.
func (q *Queue) Release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ring == nil {
		return
	}
	if q.d.loss() == nil {
		_ = q.submit(context.Background())
	}
	for _, g := range q.graphs {
		g.dropAhead()
	}
	q.d.groups.evict(q.ringID)
	q.ring.Release()
	q.ring = nil
	q.timer.release()
}
