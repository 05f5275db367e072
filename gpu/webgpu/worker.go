//go:build cgo

package webgpu

// This file runs the calls on wgpu's queue (submits, writes, reads, waits)
// on one goroutine, in order. wgpu 0.19 on a busy device may block a
// submit until the work already running ends; a caller that waits
// therefore only waits on a channel, which its context can cut short.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
)

// worker runs the queue's jobs until it is stopped or abandoned.
type worker struct {
	jobs      chan func()
	abandoned chan struct{} // closed by stop and abandon
	once      sync.Once

	errMu sync.Mutex
	errs  []error // errors of jobs no call has returned
}

// jobsQueued bounds the jobs waiting for the worker: a caller that finds
// it full waits for room, as it would wait for wgpu.
const jobsQueued = 1024

func (w *worker) start() {
	w.jobs = make(chan func(), jobsQueued)
	w.abandoned = make(chan struct{})
	go func() {
		for {
			select {
			case job := <-w.jobs:
				job()
			case <-w.abandoned:
				return
			}
		}
	}()
}

// do queues job, whose errors the next wait reports.
func (w *worker) do(job func() error) {
	select {
	case w.jobs <- func() { w.report(job()) }:
	case <-w.abandoned:
	}
}

// run queues job and waits for it, or until ctx is done.
func (w *worker) run(ctx context.Context, job func() error) error {
	done := make(chan error, 1)
	select {
	case w.jobs <- func() { done <- job() }:
	case <-ctx.Done():
		return timeout(ctx)
	case <-w.abandoned:
		return errAbandoned
	}
	select {
	case err := <-done:
		return errors.Join(err, w.taken())
	case <-ctx.Done():
		return timeout(ctx)
	}
}

// stop ends the worker; the caller has waited for the jobs queued. Jobs
// queued later are dropped.
func (w *worker) stop() { w.abandon() }

// abandon ends the waits of the jobs queued and running, and drops new
// ones; a job inside wgpu is left to it.
func (w *worker) abandon() { w.once.Do(func() { close(w.abandoned) }) }

var errAbandoned = errors.New("device abandoned")

func timeout(ctx context.Context) error {
	return fmt.Errorf("%w (%w)", driver.ErrTimeout, context.Cause(ctx))
}

func (w *worker) report(err error) {
	if err == nil {
		return
	}
	w.errMu.Lock()
	w.errs = append(w.errs, err)
	w.errMu.Unlock()
}

// taken returns and forgets the errors of jobs.
func (w *worker) taken() error {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	err := errors.Join(w.errs...)
	w.errs = nil
	return err
}

// poll polls the device without blocking until done reports true, on the
// worker. It never calls Poll(true): in wgpu 0.19 a blocking poll gives
// up after five seconds and then treats every submission as complete, so
// that it returns, fires callbacks and frees resources while the work
// still runs (gfx-rs/wgpu#3601, #4589). A non-blocking poll reads the
// real fence. The polls back off from a spin to a millisecond apart,
// which bounds both the cost of a long wait and the lateness of a short
// one.
func (w *worker) poll(done func() bool) error {
	pause := time.Duration(0)
	for !done() {
		select {
		case <-w.abandoned:
			return errAbandoned
		default:
		}
		if pause == 0 {
			runtime.Gosched()
		} else {
			time.Sleep(pause)
		}
		pause = min(pause+pause/4+time.Microsecond, time.Millisecond)
	}
	return nil
}
