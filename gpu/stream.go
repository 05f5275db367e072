package gpu

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/trace"
)

// Stream is an ordered queue of launches on one device. A backend may
// defer launches until a flush point: Flush, Sync, and every buffer Read or
// Write (which flush every stream of the device first), so results never
// depend on deferral. A kernel that faulted where Go would panic (an
// integer division by zero) makes the Sync, Read or Download that
// observes it return an error wrapping [ErrFault] (see fault.go). A
// Stream is safe for concurrent use; launches from several goroutines are
// recorded in some order. Launches of different streams that conflict
// run in recording order (hazard.go).
type Stream struct {
	dev *Device
	id  int // the stream's number on its device (ID)

	mu      sync.Mutex
	q       driver.Queue
	pending bool // launches recorded since the last flush
	closed  bool
	timing  bool // inside Time, with a device timer

	// The fault word bound to launches of kernels that can fault (nil
	// until the first), and the names of those launched since the last
	// check (fault.go).
	fault  driver.Buffer
	faulty []string

	// The bind stage's state, reused by every launch under mu.
	scratch binding

	claimed []*bufferState // allocations s has claims on (hazard.go); guarded by dev.hz.mu

	capture  *Graph   // the graph being captured (Capture), or nil
	graphs   []*Graph // the graphs captured on s and not released
	auto     auto     // the stream's own capture (capture_auto.go)
	late     error    // a failure to record, for the next flush point
	counters Counters
}

// Counters count what a stream did with its launches (Stream.Counters).
type Counters struct {
	// Queued is the number of launches recorded and not yet submitted:
	// those since the last flush point.
	Queued uint64
	// Direct counts the launches recorded through every stage of a
	// launch, Replayed those recorded by the replay of a graph.
	Direct, Replayed uint64
	// Graphs counts the graphs captured; Patches the grids and scalars
	// changed between replays.
	Graphs, Patches uint64
	// Flushes counts the submits of recorded launches: a flush point
	// with launches queued.
	Flushes uint64
}

// Counters returns the stream's counters; zero for a nil stream.
func (s *Stream) Counters() Counters {
	if s == nil || s.dev == nil {
		return Counters{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counters
}

// capturing returns an ErrCapture error naming call when s is capturing.
// The caller holds s.mu.
func (s *Stream) capturing(call string) error {
	if s.capture != nil {
		return fmt.Errorf("gpu: %s of stream %d, which is capturing: %w", call, s.id, ErrCapture)
	}
	return nil
}

// Flush submits the launches recorded so far, without waiting for them.
// On WebGPU it may wait for launches submitted earlier (a queue bounds
// the work it has in flight), within the device's wait limit.
func (s *Stream) Flush() error {
	if err := s.usable("Stream.Flush"); err != nil {
		return err
	}
	d := s.dev
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	ctx, cancel := d.bound(context.Background())
	defer cancel()
	s.mu.Lock()
	err := s.capturing("Stream.Flush")
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.flush(ctx)
}

// Sync submits the launches recorded so far and waits until they have
// completed.
func (s *Stream) Sync() error { return s.SyncContext(context.Background()) }

// SyncContext is Sync that waits no longer than ctx allows (and the
// device's wait limit, [Device.SetWaitLimit]). When ctx is done first, it
// returns an error wrapping [ErrTimeout] and ctx's error. The device is
// then in one of two states, which errors.Is tells apart: on a backend
// that cannot stop work it has started (WebGPU), the error also wraps
// [ErrLost], the work goes on running, and every later call on the device
// but Close and Release returns an error wrapping ErrLost; on the CPU,
// where launches run as they are recorded, there is nothing to wait for
// here (LaunchContext bounds the run).
func (s *Stream) SyncContext(ctx context.Context) error {
	if err := s.usable("Stream.Sync"); err != nil {
		return err
	}
	if err := usableContext("Stream.SyncContext", ctx); err != nil {
		return err
	}
	d := s.dev
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	ctx, cancel := d.bound(ctx)
	defer cancel()
	return s.sync(ctx)
}

// Close syncs the stream and releases it. Closing the default stream does
// nothing: Device.Close releases it.
func (s *Stream) Close() error {
	if err := s.usable("Stream.Close"); err != nil {
		return err
	}
	d := s.dev
	if s == d.def {
		return nil
	}
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return nil
	}
	s.mu.Lock()
	err := s.capturing("Stream.Close")
	s.mu.Unlock()
	if err != nil {
		return err
	}
	err = s.close()
	d.mu.Lock()
	for i, t := range d.streams {
		if t == s {
			d.streams = append(d.streams[:i], d.streams[i+1:]...)
			break
		}
	}
	d.mu.Unlock()
	return err
}

// Device returns the stream's device; nil for a nil stream.
func (s *Stream) Device() *Device {
	if s == nil {
		return nil
	}
	return s.dev
}

// flush submits what s recorded; ctx bounds a wait the queue makes.
func (s *Stream) flush(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.dev.hz.flushed(s)
	if s.closed {
		return nil
	}
	if err := s.flushPoint(ctx); err != nil {
		return err
	}
	if !s.pending {
		return nil
	}
	s.pending = false
	if err := s.traced(trace.Flush, 0, "flush", func() error { return s.q.Flush(ctx) }); err != nil {
		return fmt.Errorf("gpu: %s: flush: %w", s.dev.backend, err)
	}
	return nil
}

// flushPoint ends s's segment (capture_auto.go) before a submit of what
// it recorded, and counts the submit. The caller holds s.mu.
func (s *Stream) flushPoint(ctx context.Context) error {
	if err := s.lateError(); err != nil {
		return err
	}
	if err := s.segmentEnd(ctx); err != nil {
		return err
	}
	if s.pending {
		s.counters.Queued = 0
		s.counters.Flushes++
	}
	return nil
}

func (s *Stream) sync(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.errClosed()
	}
	if err := s.capturing("Stream.Sync"); err != nil {
		return err
	}
	if err := s.flushPoint(ctx); err != nil {
		return err
	}
	s.pending = false
	defer s.dev.hz.forget(s)
	if err := s.traced(trace.Wait, 0, "wait", func() error { return s.q.Sync(ctx) }); err != nil {
		return fmt.Errorf("gpu: %s: sync: %w", s.dev.backend, err)
	}
	return s.checkFault(ctx)
}

// close syncs and releases the queue; the caller holds d.life. On a lost
// device it does not wait: the loss was reported by the wait that timed
// out.
func (s *Stream) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	ctx, cancel := s.dev.bound(context.Background())
	defer cancel()
	err := s.commitAuto(ctx)
	if err == nil {
		err = s.q.Sync(ctx)
	}
	switch {
	case errors.Is(err, ErrLost):
		err = nil
	case err == nil:
		err = s.checkFault(ctx)
	default:
		err = fmt.Errorf("gpu: %s: sync: %w", s.dev.backend, err)
	}
	s.closed = true
	for _, g := range s.graphs {
		g.releaseLocked()
	}
	s.graphs = nil
	s.releaseAuto()
	s.dev.hz.closed(s)
	s.q.Release()
	if s.fault != nil {
		s.fault.Release()
		s.fault = nil
	}
	return err
}

// lateError returns and forgets the failure to record that a buffer's
// release met (Device.commitAuto). The caller holds s.mu.
func (s *Stream) lateError() error {
	err := s.late
	s.late = nil
	if err != nil {
		return fmt.Errorf("gpu: %s: record: %w", s.dev.backend, err)
	}
	return nil
}

func (s *Stream) errClosed() error {
	return fmt.Errorf("gpu: %s stream: %w", s.dev.backend, ErrClosed)
}
