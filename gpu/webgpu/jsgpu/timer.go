//go:build js

package jsgpu

// This file implements core.Stamper: compute passes stamped at their
// boundaries with timestamp queries (GPUComputePassDescriptor's
// timestampWrites), read back through a resolve buffer.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

var _ core.Stamper = (*device)(nil)

// stamps is a timestamp query set with a buffer to resolve it into and
// one to read it back from. The browser resolves timestamps to
// nanoseconds (possibly quantized, as a browser may do for privacy).
type stamps struct {
	d        *device
	querySet js.Value
	resolve  js.Value // 8 bytes per query
	staging  js.Value // map-read, as large
	raw      []byte
}

// NewStamps makes a query set of count timestamps.
func (d *device) NewStamps(count int) (core.Stamps, error) {
	if !d.features["timestamp-query"] {
		return nil, fmt.Errorf("the device lacks timestamp-query: %w", driver.ErrNoTimer)
	}
	d.scope()
	s := &stamps{d: d}
	var errs [3]error
	s.querySet, errs[0] = call(d.dev, "createQuerySet", map[string]any{"type": "timestamp", "count": count})
	s.resolve, errs[1] = call(d.dev, "createBuffer", map[string]any{"usage": int(core.UsageQueryResolve | core.UsageCopySrc), "size": 8 * count})
	s.staging, errs[2] = call(d.dev, "createBuffer", map[string]any{"usage": int(core.UsageMapRead | core.UsageCopyDst), "size": 8 * count})
	d.unscope()
	if err := errors.Join(errors.Join(errs[:]...), d.settle()); err != nil {
		s.Release()
		return nil, fmt.Errorf("timestamp query set: %w", err)
	}
	return s, nil
}

// BeginStampedPass opens a pass stamped into queries 2*i and 2*i+1 of s.
func (d *device) BeginStampedPass(cs core.Stamps, i int) (core.Pass, error) {
	s := cs.(*stamps)
	enc := d.dev.Call("createCommandEncoder")
	desc := map[string]any{"timestampWrites": map[string]any{
		"querySet":                  s.querySet,
		"beginningOfPassWriteIndex": 2 * i,
		"endOfPassWriteIndex":       2*i + 1,
	}}
	cp, err := call(enc, "beginComputePass", desc)
	if err != nil {
		return nil, err
	}
	return &pass{d: d, enc: enc, cp: cp}, nil
}

// Read resolves the first len(dst) stamps and reads them back.
func (s *stamps) Read(dst []uint64) error {
	d := s.d
	n := 8 * len(dst)
	d.scope()
	enc := d.dev.Call("createCommandEncoder")
	_, err := call(enc, "resolveQuerySet", s.querySet, 0, len(dst), s.resolve, 0)
	if err == nil {
		_, err = call(enc, "copyBufferToBuffer", s.resolve, 0, s.staging, 0, n)
	}
	if err == nil {
		_, err = call(d.queue, "submit", []any{enc.Call("finish")})
	}
	d.unscope()
	if err = errors.Join(err, d.settle()); err != nil {
		return err
	}
	p, err := call(s.staging, "mapAsync", mapModeRead, 0, n)
	if err == nil {
		_, err = await(p)
	}
	if err != nil {
		return fmt.Errorf("map: %w", err)
	}
	u8 := js.Global().Get("Uint8Array").New(s.staging.Call("getMappedRange", 0, n))
	s.raw = append(s.raw[:0], make([]byte, n)...)
	js.CopyBytesToGo(s.raw, u8)
	s.staging.Call("unmap")
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint64(s.raw[8*i:])
	}
	return nil
}

// Release destroys the query set and its buffers.
func (s *stamps) Release() {
	for _, v := range []js.Value{s.querySet, s.resolve, s.staging} {
		if v.Truthy() {
			v.Call("destroy")
		}
	}
}
