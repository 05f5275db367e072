package driver

// This file defines a view: a window of a buffer that a launch binds at
// its offset.

import (
	"context"
	"fmt"
)

// View is Bytes bytes of Buffer from byte Offset. The runtime passes one
// to Queue.Launch, in place of a Buffer, for a buffer view: the driver
// binds Buffer at Offset for Bytes bytes (a WebGPU bind group entry's
// offset and size; a sub-slice of the CPU backend's bytes). Offset and
// Bytes are multiples of 4, Bytes is at least 4, and Offset meets the
// device's Limits.StorageOffsetAlignment: the runtime checks them before
// a launch.
//
// A View owns no memory: its Write and Read act on its window of Buffer,
// and its Release frees none, but tells a Buffer that keeps state per
// window (a [ViewReleaser]) that the window is no longer bound.
type View struct {
	Buffer        Buffer
	Offset, Bytes int
}

var _ Buffer = (*View)(nil)

// Size returns the bytes of the window.
func (v *View) Size() int { return v.Bytes }

// Write copies data into the window at offset.
func (v *View) Write(offset int, data []byte) error {
	if err := v.span(offset, len(data)); err != nil {
		return err
	}
	return v.Buffer.Write(v.Offset+offset, data)
}

// Read copies the window's bytes at offset into dst.
func (v *View) Read(ctx context.Context, offset int, dst []byte) error {
	if err := v.span(offset, len(dst)); err != nil {
		return err
	}
	return v.Buffer.Read(ctx, v.Offset+offset, dst)
}

// Release ends the view's use: the memory is the viewed buffer's, but
// what the buffer keeps for the window (WebGPU bind groups) is dropped.
func (v *View) Release() {
	if r, ok := v.Buffer.(ViewReleaser); ok {
		r.ReleaseView(v.Offset, v.Bytes)
	}
}

// ViewReleaser is implemented by a Buffer that keeps state per window
// that launches bound (the WebGPU driver caches a bind group per buffer
// range): ReleaseView drops what it keeps for the window of bytes at
// offset, which the runtime calls when the last use of a view ends. A
// window bound again later gets new state.
type ViewReleaser interface {
	ReleaseView(offset, bytes int)
}

func (v *View) span(offset, n int) error {
	if offset < 0 || n < 0 || offset > v.Bytes || n > v.Bytes-offset { // no offset+n: it may wrap
		return fmt.Errorf("%d bytes at offset %d of a %d-byte view", n, offset, v.Bytes)
	}
	return nil
}
