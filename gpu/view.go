package gpu

// This file implements buffer views: a Buffer that is a range of another's
// elements, sharing its memory.

import (
	"fmt"

	"github.com/goxpu/xpu/gpu/driver"
)

// Slice returns a view of the buffer's elements [lo, hi), which shares
// the buffer's memory, as b[lo:hi] does a slice's: a launch binds it at
// its byte offset into the allocation, and its Read, Write and Download
// act on its range only. A view of a view is a view of the allocation.
//
// A launch refuses a view whose byte offset the device cannot bind
// (Limits.StorageOffsetAlignment: 256 bytes on many WebGPU devices; 4 on
// the CPU backend, whose views are always aligned for their element
// type) with [ErrMisaligned], naming the kernel, the parameter, the
// offset and the alignment; and an empty view with [ErrSize] (WebGPU
// binds no empty range). Views of one allocation whose ranges overlap
// may not be bound to one launch when either is written ([ErrArgs]), as
// a buffer may not be bound twice.
//
// Releasing the allocation invalidates its views ([ErrReleased]);
// releasing a view frees nothing. Bounds outside [0, Len] give an error
// wrapping [ErrSize]; a released buffer, one wrapping [ErrReleased].
func (b *Buffer[T]) Slice(lo, hi int) (*Buffer[T], error) {
	if b == nil || b.st == nil {
		return nil, fmt.Errorf("gpu: Slice of a nil buffer: %w", ErrArgs)
	}
	st := b.st
	if lo < 0 || hi < lo || hi > b.n {
		return nil, fmt.Errorf("gpu: Slice [%d:%d] of a Buffer[%s] of %d elements: %w", lo, hi, st.elem.name, b.n, ErrSize)
	}
	r := st.root
	r.mu.RLock()
	defer r.mu.RUnlock()
	if err := st.live(); err != nil {
		return nil, err
	}
	v := &bufferState{
		dev:    st.dev,
		drv:    st.drv,
		elem:   st.elem,
		bytes:  (hi - lo) * st.elem.size,
		offset: st.offset + lo*st.elem.size,
		root:   r,
	}
	v.bound = &driver.View{Buffer: st.drv, Offset: v.offset, Bytes: v.bytes}
	if v.offset == 0 && v.bytes == r.bytes {
		v.bound = st.drv
	}
	return &Buffer[T]{st: v, n: hi - lo}, nil
}

// IsView reports whether the buffer is a view made by [Buffer.Slice].
func (b *Buffer[T]) IsView() bool {
	return b != nil && b.st != nil && b.st.root != b.st
}

// Offset returns the index of the buffer's first element in the
// allocation it views; 0 for an allocation.
func (b *Buffer[T]) Offset() int {
	if b == nil || b.st == nil {
		return 0
	}
	return b.st.offset / b.st.elem.size
}
