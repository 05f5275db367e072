package gpu

// This file refuses calls on a nil or zero *Device or *Stream (only Open
// and the device's stream methods make usable ones) and waits given a nil
// context.

import (
	"context"
	"fmt"
)

// usable returns an ErrArgs error naming call when d is nil or a zero
// Device that Open did not make.
func (d *Device) usable(call string) error {
	if d == nil || d.drv == nil {
		return fmt.Errorf("gpu: %s on a nil or zero *gpu.Device (open one with gpu.Open): %w", call, ErrArgs)
	}
	return nil
}

// usable returns an ErrArgs error naming call when s is nil or a zero
// Stream that no device made.
func (s *Stream) usable(call string) error {
	if s == nil || s.dev == nil || s.dev.drv == nil {
		return fmt.Errorf("gpu: %s on a nil or zero *gpu.Stream (use Device.Stream or Device.NewStream): %w", call, ErrArgs)
	}
	return nil
}

// usableContext returns an ErrArgs error naming call when ctx is nil.
func usableContext(call string, ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("gpu: %s with a nil context (use context.Background()): %w", call, ErrArgs)
	}
	return nil
}
