//go:build cgo

package webgpu

import (
	"context"
	"fmt"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// CreateBuffer makes a buffer, zeroed by wgpu.
func (a *api) CreateBuffer(usage core.Usage, size int) (core.Buffer, error) {
	return a.dev.CreateBuffer(&wgpu.BufferDescriptor{Usage: wgpu.BufferUsage(usage), Size: uint64(size)})
}

// WriteBuffer writes data at offset through the queue.
func (a *api) WriteBuffer(b core.Buffer, offset int, data []byte) error {
	return a.queue.WriteBuffer(b.(*wgpu.Buffer), uint64(offset), data)
}

// ReadBuffer copies n bytes of src at offset into dst through staging.
// The map's callback fires from a poll once the copy, submitted after
// every earlier pass, has run.
func (a *api) ReadBuffer(ctx context.Context, src core.Buffer, offset int, staging core.Buffer, n int, dst []byte) error {
	sb := staging.(*wgpu.Buffer)
	enc, err := a.dev.CreateCommandEncoder(nil)
	if err != nil {
		return err
	}
	err = enc.CopyBufferToBuffer(src.(*wgpu.Buffer), uint64(offset), sb, 0, uint64(n))
	var cmd *wgpu.CommandBuffer
	if err == nil {
		cmd, err = enc.Finish(nil)
	}
	enc.Release()
	if err != nil {
		return err
	}
	a.queue.Submit(cmd)
	cmd.Release()

	done := make(chan wgpu.BufferMapAsyncStatus, 1)
	if err := sb.MapAsync(wgpu.MapModeRead, 0, uint64(n), func(s wgpu.BufferMapAsyncStatus) { done <- s }); err != nil {
		return fmt.Errorf("map: %w", err)
	}
	var status wgpu.BufferMapAsyncStatus
	err = a.poll(ctx, func() bool {
		a.dev.Poll(false, nil)
		select {
		case status = <-done:
			return true
		default:
			return false
		}
	})
	if err != nil {
		return err
	}
	if status != wgpu.BufferMapAsyncStatusSuccess {
		return fmt.Errorf("map: %s", status)
	}
	copy(dst, sb.GetMappedRange(0, uint(n)))
	return sb.Unmap()
}
