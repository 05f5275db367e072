package native

// This file waits for a device's queue by polling it, so that a wait
// ends when its context does.

import (
	"context"
	"time"
)

// Poll calls idle until it reports true or fails, sleeping a little
// longer after each call, up to a millisecond; it returns ctx's error
// where ctx ends first.
func Poll(ctx context.Context, idle func() (bool, error)) error {
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
