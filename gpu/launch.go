package gpu

// This file holds the launch entry points and the one path every launch
// takes: a launch value that passes through three stages, each a function
// with one job, so that capture and replay, tracing and tuning can stand
// between them:
//
//	check   launch_check.go   the kernel can launch and fits the device,
//	                          the grid and the arguments' count are right,
//	                          the deadline has not passed; then compile:
//	                          the kernel's program for the device
//	bind    launch_bind.go    buffers (type, device, aliasing, alignment,
//	                          lengths), uniforms, the fault word
//	record  launch_record.go  hand the bound launch to the driver's queue
//
// Every entry point (Launch and LaunchWith here, LaunchBy and
// LaunchContext in options.go, and the generated launchers, which call
// Launch) fills a launch and hands it to Stream.launch. A reference run
// (reference.go) takes the same check stage, then binds slices and runs
// the reference runner in place of the queue.

import (
	"context"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/trace"
	"github.com/goxpu/xpu/schema"
)

// Launch records a launch of k over groups on the stream, with args bound
// to the kernel's parameters after its Thread, in order: a *Buffer[T] for
// each buffer parameter (T's reflect String equal to the parameter's
// type), and a value of exactly the parameter's Go type for each scalar.
//
// Every launch is checked first; a refused launch records nothing and
// returns an error wrapping one of the sentinels of errors.go
// ([ErrNoCode], [ErrArgs], [ErrSize], [ErrBufferLen], [ErrMisaligned],
// [ErrForeignBuffer], [ErrReleased], [ErrGrid], [ErrLimits],
// [ErrWaveWidth], [ErrScalarTwin], [ErrCompile], [ErrClosed],
// [ErrBudget]), naming the kernel and the parameter. [Stream.LaunchWith]
// adds the checks of a launch's options ([ErrBlock], [ErrDeadline]).
func (s *Stream) Launch(k *Kernel, groups xpu.Dim3, args ...any) error {
	return s.LaunchWith(LaunchOptions{}, k, groups, args...)
}

// LaunchWith is Launch with options: a launch whose Block differs from
// the kernel's pinned block is refused with [ErrBlock]; a launch whose
// Deadline passes before it is submitted is refused with [ErrDeadline]
// and never run. A launch with a deadline is submitted at once (the
// stream flushes), so that it cannot run late in a deferred batch.
func (s *Stream) LaunchWith(o LaunchOptions, k *Kernel, groups xpu.Dim3, args ...any) error {
	return s.launch(context.Background(), &launch{kernel: k, groups: groups, opts: o}, args)
}

// launch is one launch on its way through the stages. The entry point
// fills the request; each stage fills what it establishes. The arguments
// travel beside it, to check and bind, which turns them into what the
// launch carries on: kept out of it, the caller's variadic slice stays
// on the caller's stack (escape analysis does not tell the fields of one
// struct apart, and the device's, which the checks reach, escape).
type launch struct {
	// The request.
	kernel *Kernel
	groups xpu.Dim3 // as asked
	opts   LaunchOptions

	// dev is the device the launch is checked against; nil for a
	// reference run that no device qualifies.
	dev *Device

	// Set by check: the grid with zero Y and Z as 1, and, for a launch on
	// a device, the artifact it runs and the kernel's program.
	grid  xpu.Dim3
	art   *schema.Artifact // the artifact the device runs; nil without a device
	entry *program         // the kernel's entry on the device (its fit and program)
	prog  driver.Program

	// Set by bind, on a stream: what the driver binds.
	bound *binding

	captured bool // added to a graph instead of recorded (capture.go)
}

// launch runs l through the stages on s: check, then bind and record
// under the stream's lock. ctx bounds the waits of record, with the
// device's wait limit: the run on a backend that runs a launch as it
// records it (the CPU), the wait for submitted work on one that bounds it
// (WebGPU).
func (s *Stream) launch(ctx context.Context, l *launch, args []any) error {
	if err := s.usable("Stream.Launch"); err != nil {
		return err
	}
	if r := s.dev.recorder.Load(); r != nil {
		return r.launch(ctx, s, l, args) // recording.go
	}
	return s.traceLaunch(ctx, l, args)
}

// traceLaunch is launch on a usable stream, reported to the trace sink.
func (s *Stream) traceLaunch(ctx context.Context, l *launch, args []any) error {
	if s.dev.Trace() == nil {
		return s.run(ctx, l, args)
	}
	start := time.Now()
	err := s.run(ctx, l, args)
	if err != nil {
		s.Report(trace.Event{Kind: trace.Refusal, Name: l.kernel.Name(), Start: start, Detail: err.Error()})
		return err
	}
	if l.captured {
		return nil // it runs when its graph is replayed
	}
	s.Report(trace.Event{Kind: trace.Launch, Name: l.kernel.Name(), Tier: tier(l), Start: start, Dur: time.Since(start),
		Grid: dim(l.grid), Block: dim(l.kernel.spec.Block.Norm())})
	return nil
}

// run is launch on a usable stream, untraced.
func (s *Stream) run(ctx context.Context, l *launch, args []any) error {
	if err := l.kernel.launchable(); err != nil {
		return err
	}
	d := s.dev
	if err := d.admit(ctx, l); err != nil {
		return err
	}
	defer d.leave(l)
	l.dev = d
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return d.errClosed()
	}
	if d.autoGraphs.Load() > 0 {
		s.mu.Lock()
		matched, err := s.match(ctx, l, args)
		s.mu.Unlock()
		if matched || err != nil {
			return err
		}
	}
	if err := l.check(args); err != nil {
		return err
	}
	if err := l.compile(); err != nil {
		return err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.errClosed()
	}
	l.bound = &s.scratch
	defer l.bound.release()
	if err := l.bind(s, args); err != nil {
		return err
	}
	if s.capture != nil {
		return l.capture(s.capture, args)
	}
	if err := l.record(ctx, s); err != nil {
		return err
	}
	l.note(s, args)
	return nil
}
