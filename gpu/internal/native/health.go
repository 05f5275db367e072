package native

// This file keeps whether a device is lost: after a wait that outlived
// its context, or a sticky error of the library, a GPU cannot be used
// again.

import (
	"errors"
	"fmt"
	"sync"

	"github.com/goxpu/xpu/gpu/driver"
)

// Health is a device's lost state; the zero Health is a working device.
type Health struct {
	// Prefix opens the errors of Usable ("cuda", "hip").
	Prefix string

	mu   sync.Mutex
	lost error // the first error that lost the device
}

// Usable returns the error of a call on a lost device, wrapping
// driver.ErrLost; nil while the device works.
func (h *Health) Usable(call string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lost != nil {
		return fmt.Errorf("%s: %s: %w", h.Prefix, call, h.lost)
	}
	return nil
}

// Lost reports whether the device is lost.
func (h *Health) Lost() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lost != nil
}

// Lose records that the device is lost by err (which wraps
// driver.ErrLost); the first reason stays.
func (h *Health) Lose(err error) {
	h.mu.Lock()
	if h.lost == nil {
		h.lost = err
	}
	h.mu.Unlock()
}

// Failed returns err, recording a lost device where it says so.
func (h *Health) Failed(err error) error {
	if err != nil && errors.Is(err, driver.ErrLost) {
		h.Lose(err)
	}
	return err
}
