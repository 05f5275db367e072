package gpu

// This file defines the options of one launch: a block to check against
// the pinned one, and a deadline.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/goxpu/xpu"
)

// LaunchOptions qualify one launch (see [Stream.LaunchWith]). The zero
// value asks for nothing beyond Launch's checks.
type LaunchOptions struct {
	// Block, when not zero, is the block the caller means to launch; it
	// must equal the kernel's pinned block (zero Y and Z read as 1).
	Block xpu.Dim3
	// Deadline, when not zero, is the time by which the launch must be
	// submitted to the device; a launch not submitted by then is refused
	// and never run.
	Deadline time.Time
}

// LaunchBy is Launch with a deadline: the launch is submitted by deadline
// or refused with an error wrapping [ErrDeadline], never run late.
func (s *Stream) LaunchBy(deadline time.Time, k *Kernel, groups xpu.Dim3, args ...any) error {
	return s.LaunchWith(LaunchOptions{Deadline: deadline}, k, groups, args...)
}

// LaunchContext is Launch under ctx: the launch is refused when ctx is
// done before it is submitted (the error wraps ctx's error, and
// [ErrDeadline] when ctx's deadline passed), and otherwise carries ctx's
// deadline as LaunchBy does. On the CPU, which runs a launch while it
// records it, ctx also bounds the run: a kernel still running when ctx is
// done stops at its next loop iteration or block, LaunchContext returns
// an error wrapping [ErrTimeout], what the kernel wrote by then stays
// written, and the device stays usable. (Not under js/wasm, whose one
// thread runs the kernel to its end before ctx's timer can stop it.)
func (s *Stream) LaunchContext(ctx context.Context, k *Kernel, groups xpu.Dim3, args ...any) error {
	if ctx == nil {
		return fmt.Errorf("gpu: kernel %s: LaunchContext with a nil context: %w", k.Name(), ErrArgs)
	}
	if err := ctx.Err(); err != nil {
		return contextRefusal(ctx, k, err)
	}
	var o LaunchOptions
	if dl, ok := ctx.Deadline(); ok {
		o.Deadline = dl
	}
	err := s.launch(ctx, &launch{kernel: k, groups: groups, opts: o}, args)
	if err == nil || errors.Is(err, ErrTimeout) {
		return err
	}
	if cerr := ctx.Err(); cerr != nil && !o.Deadline.IsZero() {
		return fmt.Errorf("%w (%w)", err, cerr)
	}
	return err
}

// contextRefusal is the error of a launch whose context is done.
func contextRefusal(ctx context.Context, k *Kernel, err error) error {
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return fmt.Errorf("gpu: kernel %s: deadline %s passed before it was submitted: %w (%w)",
			k.Name(), dl.Format(time.RFC3339Nano), ErrDeadline, err)
	}
	return fmt.Errorf("gpu: kernel %s: not launched: %w", k.Name(), err)
}

// checkBlock returns an ErrBlock error when o names a block that is not
// k's pinned one.
func (o *LaunchOptions) checkBlock(k *Kernel) error {
	if o.Block == (xpu.Dim3{}) {
		return nil
	}
	if want := k.spec.Block.Norm(); o.Block.Norm() != want {
		b := o.Block.Norm()
		return fmt.Errorf("gpu: kernel %s: block %dx%dx%d differs from the pinned %dx%dx%d: %w",
			k.spec.Name, b.X, b.Y, b.Z, want.X, want.Y, want.Z, ErrBlock)
	}
	return nil
}

// checkDeadline returns an ErrDeadline error when o's deadline has
// passed; when says at which point of the launch.
func (o *LaunchOptions) checkDeadline(k *Kernel, when string) error {
	if o.Deadline.IsZero() || time.Now().Before(o.Deadline) {
		return nil
	}
	return fmt.Errorf("gpu: kernel %s: deadline %s passed %s: %w", k.spec.Name, o.Deadline.Format(time.RFC3339Nano), when, ErrDeadline)
}
