package native

// This file waits for a device's streams: blocking in the library where
// the wait cannot end otherwise, else polling them, so that a wait ends
// when its context does, which loses the device.

import (
	"context"
	"fmt"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
)

// Wait waits until the streams of qs are idle, for call (a driver
// operation's name). Without a context that can end, it blocks in sync
// of each; with one, it polls query of each, and when ctx ends first the
// device is lost: a GPU cannot stop a kernel. A failed sync or query is
// the error, recorded in h where it loses the device.
func Wait[Q any](ctx context.Context, h *Health, call string, qs []Q, sync func(Q) error, query func(Q) (idle bool, err error)) error {
	if ctx.Done() == nil {
		for _, q := range qs {
			if err := sync(q); err != nil {
				return h.Failed(fmt.Errorf("%s: %s: %w", h.Prefix, call, err))
			}
		}
		return nil
	}
	for _, q := range qs {
		var failed error
		err := poll(ctx, func() (bool, error) {
			idle, err := query(q)
			if err != nil {
				failed = h.Failed(fmt.Errorf("%s: %s: %w", h.Prefix, call, err))
			}
			return idle, failed
		})
		if failed != nil {
			return failed
		}
		if err != nil {
			lost := fmt.Errorf("%s: %s: the device still runs work it cannot stop: %w: %w: %w", h.Prefix, call, driver.ErrTimeout, driver.ErrLost, err)
			h.Lose(lost)
			return lost
		}
	}
	return nil
}

// poll calls idle until it reports true or fails, sleeping a little
// longer after each call, up to a millisecond; it returns ctx's error
// where ctx ends first.
func poll(ctx context.Context, idle func() (bool, error)) error {
	pause := 10 * time.Microsecond
	for {
		done, err := idle()
		if done || err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		time.Sleep(pause)
		pause = min(2*pause, time.Millisecond)
	}
}
