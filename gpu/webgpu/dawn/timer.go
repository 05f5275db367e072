//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// stamps is a timestamp query set with a buffer to resolve it into and
// one to read it back from. Dawn resolves timestamps to nanoseconds,
// applying the device's timestamp period itself.
type stamps struct {
	d        *api
	querySet uintptr
	resolve  uintptr // 8 bytes per query
	staging  uintptr // map-read, as large
	count    int
	raw      []byte
}

// NewStamps makes a query set of count timestamps, stamped at pass
// boundaries (ComputePassDescriptor.timestampWrites).
func (d *api) NewStamps(count int) (core.Stamps, error) {
	if !d.timestamps {
		return nil, fmt.Errorf("the device lacks timestamp-query: %w", driver.ErrNoTimer)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	s := &stamps{d: d, count: count}
	desc := querySetDescriptor{typ: queryTypeTimestamp, count: uint32(count)}
	qs, err := d.scoped(func() uintptr { return wgpu.deviceCreateQuerySet(d.dev, &desc) })
	if err != nil {
		if qs != 0 {
			wgpu.querySetRelease(qs)
		}
		return nil, fmt.Errorf("timestamp query set: %w", err)
	}
	s.querySet = qs
	if s.resolve, err = d.createBuffer(bufferUsageQueryResolve|bufferUsageCopySrc, 8*count); err == nil {
		s.staging, err = d.createBuffer(bufferUsageMapRead|bufferUsageCopyDst, 8*count)
	}
	if err != nil {
		s.release()
		return nil, fmt.Errorf("timestamp buffer: %w", err)
	}
	return s, nil
}

// BeginStampedPass opens a pass stamped into queries 2*i and 2*i+1 of s.
func (d *api) BeginStampedPass(cs core.Stamps, i int) (core.Pass, error) {
	s := cs.(*stamps)
	writes := passTimestampWrites{querySet: s.querySet, beginIndex: uint32(2 * i), endIndex: uint32(2*i + 1)}
	return d.beginPass(&computePassDescriptor{timestampWrites: &writes})
}

// Read resolves the first len(dst) stamps and reads them back.
func (s *stamps) Read(dst []uint64) error {
	d := s.d
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 8 * len(dst)
	enc := wgpu.deviceCreateEncoder(d.dev, 0)
	wgpu.encoderResolveQuerySet(enc, s.querySet, 0, uint32(len(dst)), s.resolve, 0)
	wgpu.encoderCopyBuffer(enc, s.resolve, 0, s.staging, 0, uint64(n))
	cmd := wgpu.encoderFinish(enc, 0)
	wgpu.encoderRelease(enc)
	wgpu.queueSubmit(d.queue, 1, &cmd)
	wgpu.commandBufferRelease(cmd)
	if err := d.takeErr(); err != nil {
		return err
	}
	s.raw = append(s.raw[:0], make([]byte, n)...)
	if err := d.mapRead(context.Background(), s.staging, n, s.raw); err != nil {
		return err
	}
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint64(s.raw[8*i:])
	}
	return nil
}

// Release frees the query set and its buffers.
func (s *stamps) Release() {
	s.d.mu.Lock()
	defer s.d.mu.Unlock()
	s.release()
}

// release frees what s holds. The caller holds d.mu.
func (s *stamps) release() {
	if s.querySet != 0 {
		wgpu.querySetDestroy(s.querySet)
		wgpu.querySetRelease(s.querySet)
		s.querySet = 0
	}
	for _, b := range []*uintptr{&s.resolve, &s.staging} {
		if *b != 0 {
			wgpu.bufferRelease(*b)
			*b = 0
		}
	}
}
