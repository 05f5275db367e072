package gpu

// This file orders the launches of different streams that touch the same
// memory. A launch's read set and write set are what its manifest says
// of each buffer parameter (read; write, read-write and atomic count as
// written) bound to the byte ranges the bind stage bound. Each stream
// claims, per allocation, the hull of the ranges its launches read and
// of those they wrote since its last flush. A launch that would conflict
// with another stream's claim (it writes what that stream read or wrote,
// or reads what it wrote, in overlapping bytes of one allocation) first
// settles that stream: on WebGPU it flushes it, so that its work reaches
// the device queue first; on the CPU its launch running now ends first (a
// stream's lock is held while its launch runs); where queues run
// concurrently (CUDA, HIP: driver.ConcurrentQueues) it waits for that
// stream's work, and a claim lasts until then. Launches that do not
// conflict are not ordered: on the CPU they run at once.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/goxpu/xpu/gpu/trace"
	"github.com/goxpu/xpu/schema"
)

// hazards is a device's record of the streams' claims. Claims are
// tracked only while the device has a stream besides its default one:
// with one stream, recording order is submission order.
type hazards struct {
	streams atomic.Int32 // live streams besides the default
	mu      sync.Mutex   // guards every claim: bufferState.claims, Stream.claimed

	// concurrent: the device's queues run concurrently
	// (driver.ConcurrentQueues), so a flush orders nothing and a claim
	// lasts until its stream's work has completed.
	concurrent bool
}

// claim is what one stream's launches since its last flush did to one
// allocation: the hulls of the bytes they read and of those they wrote.
type claim struct {
	s    *Stream
	r, w extent
}

// extent is a byte range of an allocation; empty when hi <= lo.
type extent struct{ lo, hi int }

func (e extent) overlaps(lo, hi int) bool { return lo < hi && e.lo < hi && lo < e.hi }

func (e *extent) add(lo, hi int) {
	switch {
	case hi <= lo:
	case e.hi <= e.lo:
		*e = extent{lo, hi}
	default:
		e.lo, e.hi = min(e.lo, lo), max(e.hi, hi)
	}
}

// order claims the buffers b binds for k's launch on s, and returns nil;
// or, when one conflicts with another stream's claim, claims nothing and
// returns that stream, which the caller flushes before it binds again.
// The caller holds s.mu and has seen h.streams above 0.
func (h *hazards) order(s *Stream, k *Kernel, b *binding) *Stream {
	return h.orderStates(s, k, b.states)
}

// orderStates is order for a launch of k that binds states, one per
// buffer parameter: a bound launch's, or a captured one's (capture.go).
func (h *hazards) orderStates(s *Stream, k *Kernel, states []*bufferState) *Stream {
	h.mu.Lock()
	defer h.mu.Unlock()
	j := 0
	for i := range k.spec.Params {
		p := &k.spec.Params[i]
		if p.Kind != schema.ParamBuffer {
			continue
		}
		st := states[j]
		j++
		if t := st.root.conflict(s, st.offset, st.offset+st.bytes, written(p)); t != nil {
			return t
		}
	}
	j = 0
	for i := range k.spec.Params {
		p := &k.spec.Params[i]
		if p.Kind != schema.ParamBuffer {
			continue
		}
		st := states[j]
		j++
		st.root.claim(s, st.offset, st.offset+st.bytes, written(p))
	}
	return nil
}

// orderGraph orders g's launches on s after the conflicting ones of
// other streams, as bind does a launch's, claiming their buffers; it
// reports whether it settled another stream, releasing s.mu meanwhile,
// after which the caller checks again what it checked. The caller holds
// s.mu and s.dev.life, and no buffer's lock.
func (s *Stream) orderGraph(g *Graph) (waited bool, err error) {
	h := &s.dev.hz
	if h.streams.Load() == 0 {
		return false, nil
	}
	for _, n := range g.nodes {
		if t := h.orderStates(s, n.kernel, n.states); t != nil {
			return true, s.awaitStream(t, &binding{})
		}
	}
	return false, nil
}

// orderHost orders host code about to run on s with bufs after the
// conflicting launches of other streams, as bind does a launch's: it
// claims every buffer as written, since host code may write any of them,
// flushing (releasing s.mu meanwhile) each stream it conflicts with
// first. Buffers that are nil or of another device are left to the
// caller to refuse. The caller holds s.mu and s.dev.life.
func (s *Stream) orderHost(bufs []HostBuffer) error {
	h := &s.dev.hz
	for h.streams.Load() != 0 {
		t := h.orderWrites(s, bufs)
		if t == nil {
			return nil
		}
		if err := s.awaitStream(t, &binding{}); err != nil {
			return err
		}
	}
	return nil
}

// orderWrites is order for host code that may write every buffer of bufs.
func (h *hazards) orderWrites(s *Stream, bufs []HostBuffer) *Stream {
	h.mu.Lock()
	defer h.mu.Unlock()
	for pass := range 2 {
		for _, b := range bufs {
			var st *bufferState
			if b != nil {
				st = b.state()
			}
			if st == nil || st.dev != s.dev {
				continue
			}
			lo, hi := st.offset, st.offset+st.bytes
			if pass == 0 {
				if t := st.root.conflict(s, lo, hi, true); t != nil {
					return t
				}
			} else {
				st.root.claim(s, lo, hi, true)
			}
		}
	}
	return nil
}

// conflict returns a stream other than s whose claim on the allocation r
// conflicts with s reading (or, when w, writing) bytes lo to hi; nil if
// none does. The caller holds the device's hazards.mu.
func (r *bufferState) conflict(s *Stream, lo, hi int, w bool) *Stream {
	for i := range r.claims {
		c := &r.claims[i]
		if c.s != s && (c.w.overlaps(lo, hi) || w && c.r.overlaps(lo, hi)) {
			return c.s
		}
	}
	return nil
}

// claim adds bytes lo to hi, read or (when w) written, to s's claim on
// the allocation r. The caller holds the device's hazards.mu.
func (r *bufferState) claim(s *Stream, lo, hi int, w bool) {
	var c *claim
	for i := range r.claims {
		if r.claims[i].s == s {
			c = &r.claims[i]
			break
		}
	}
	if c == nil {
		r.claims = append(r.claims, claim{s: s})
		c = &r.claims[len(r.claims)-1]
		s.claimed = append(s.claimed, r)
	}
	if w {
		c.w.add(lo, hi)
	} else {
		c.r.add(lo, hi)
	}
}

// flushed drops s's claims after a flush of s, on a device whose queues
// run their work in submission order.
func (h *hazards) flushed(s *Stream) {
	if !h.concurrent {
		h.forget(s)
	}
}

// forget drops s's claims: what s recorded has been submitted, on a
// device whose queues run their work in submission order, or (on the
// CPU) has run, or has completed. The caller holds s.mu, which orders forget after
// the launches that made the claims.
func (h *hazards) forget(s *Stream) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range s.claimed {
		for i := range r.claims {
			if r.claims[i].s == s {
				last := len(r.claims) - 1
				r.claims[i] = r.claims[last]
				r.claims[last] = claim{}
				r.claims = r.claims[:last]
				break
			}
		}
	}
	clear(s.claimed)
	s.claimed = s.claimed[:0]
}

// released drops the claims on r, an allocation just released: no later
// launch can bind it, and a stream that launches and releases fresh
// buffers without a flush would otherwise keep a claim on each.
func (h *hazards) released(r *bufferState) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range r.claims {
		s := c.s
		if i := slices.Index(s.claimed, r); i >= 0 {
			last := len(s.claimed) - 1
			s.claimed[i] = s.claimed[last]
			s.claimed[last] = nil
			s.claimed = s.claimed[:last]
		}
	}
	clear(r.claims)
	r.claims = nil
}

// awaitStream settles t, whose claim conflicts with the launch s is
// binding, releasing s.mu (and what the bind took) meanwhile, so that
// two streams waiting for each other do not deadlock; the caller binds
// again, seeing what changed in between. The wait is traced on s as a
// wait named for t. The caller holds s.mu and s.dev.life.
func (s *Stream) awaitStream(t *Stream, b *binding) error {
	b.release()
	s.mu.Unlock()
	ctx, cancel := s.dev.bound(context.Background())
	err := s.traced(trace.Wait, 0, fmt.Sprintf("hazard: stream %d", t.id), func() error { return t.settle(ctx) })
	cancel()
	s.mu.Lock()
	if err != nil {
		return err
	}
	if s.closed {
		return s.errClosed()
	}
	return nil
}

// streamMade turns claims on for a new stream besides the default one:
// the default stream's launches recorded while they were off are
// flushed first, so that none the new stream's launches conflict with
// goes unclaimed. The caller holds d.life.
func (d *Device) streamMade() error {
	d.hz.streams.Add(1)
	ctx, cancel := d.bound(context.Background())
	defer cancel()
	if err := d.def.settle(ctx); err != nil {
		d.hz.streams.Add(-1)
		return err
	}
	return nil
}

// settle orders what s recorded so far before what another stream
// records next, and drops s's claims: by a flush, or, where queues run
// concurrently, by waiting for s's work (without the fault check that
// Sync makes, which s's own next Sync reports).
func (s *Stream) settle(ctx context.Context) error {
	if !s.dev.hz.concurrent {
		return s.flush(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.pending = false
	defer s.dev.hz.forget(s)
	if err := s.q.Sync(ctx); err != nil {
		return fmt.Errorf("gpu: %s: sync: %w", s.dev.backend, err)
	}
	return nil
}

// closed drops the claims of s, which is closing, and, for a stream
// besides the default one, its count. The caller holds s.mu.
func (h *hazards) closed(s *Stream) {
	h.forget(s)
	if s != s.dev.def {
		h.streams.Add(-1)
	}
}
