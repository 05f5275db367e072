package gpu

// This file is the record stage of a launch (see launch.go): it hands the
// checked, bound launch to the driver's queue.

import (
	"context"
	"fmt"
)

// record refuses l when its deadline passed while it was bound, and
// otherwise records it on s's queue, notes a kernel that can fault for
// the stream's next fault check, and, for a launch with a deadline,
// flushes the stream so that the launch cannot run late in a deferred
// batch. ctx bounds the queue's waits, with the device's wait limit. The
// caller holds s.mu and l.dev.life.
func (l *launch) record(ctx context.Context, s *Stream) error {
	k, d := l.kernel, l.dev
	if err := l.opts.checkDeadline(k, "before it was submitted"); err != nil {
		return err
	}
	ctx, cancel := d.bound(ctx)
	defer cancel()
	if err := s.q.Launch(ctx, l.prog, l.grid, l.bound.bufs, l.bound.uni); err != nil {
		return fmt.Errorf("gpu: kernel %s on %s: %w", k.spec.Name, d.backend, err)
	}
	s.pending = true
	s.counters.Queued++
	s.counters.Direct++
	if l.art.Fault {
		s.launchedFault(k)
	}
	if !l.opts.Deadline.IsZero() {
		s.pending = false
		if err := s.q.Flush(ctx); err != nil {
			return fmt.Errorf("gpu: kernel %s on %s: flush: %w", k.spec.Name, d.backend, err)
		}
	}
	return nil
}
