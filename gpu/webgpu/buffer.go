//go:build cgo

package webgpu

import (
	"context"
	"fmt"
	"sync"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// buffer is a wgpu buffer whose release is ordered after the queue's
// jobs that use it (worker.go).
type buffer struct {
	a *api
	b *wgpu.Buffer
}

// CreateBuffer makes a buffer, zeroed by wgpu.
func (a *api) CreateBuffer(usage core.Usage, size int) (core.Buffer, error) {
	b, err := a.dev.CreateBuffer(&wgpu.BufferDescriptor{Usage: wgpu.BufferUsage(usage), Size: uint64(size)})
	if err != nil {
		return nil, err
	}
	return &buffer{a: a, b: b}, nil
}

// Release frees the buffer after the jobs queued before it.
func (b *buffer) Release() {
	b.a.do(func() error {
		b.b.Release()
		return nil
	})
}

func wgpuBuffer(b core.Buffer) *wgpu.Buffer { return b.(*buffer).b }

// WriteBuffer writes data at offset through the queue, from a copy: the
// worker writes it in the queue's order.
func (a *api) WriteBuffer(b core.Buffer, offset int, data []byte) error {
	wb, own := wgpuBuffer(b), append([]byte(nil), data...)
	a.do(func() error { return a.queue.WriteBuffer(wb, uint64(offset), own) })
	return nil
}

// ReadBuffer copies n bytes of src at offset into dst through staging.
// The map's callback fires from a poll once the copy, submitted after
// every earlier pass, has run. A read that ctx ends does not write dst
// after it returns (the copy may land before it does).
func (a *api) ReadBuffer(ctx context.Context, src core.Buffer, offset int, staging core.Buffer, n int, dst []byte) error {
	var (
		mu     sync.Mutex
		wanted = true // dst may be written: the caller still waits
	)
	sb, wsrc := wgpuBuffer(staging), wgpuBuffer(src)
	err := a.run(ctx, func() error {
		enc, err := a.dev.CreateCommandEncoder(nil)
		if err != nil {
			return err
		}
		err = enc.CopyBufferToBuffer(wsrc, uint64(offset), sb, 0, uint64(n))
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
		err = a.poll(func() bool {
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
		mu.Lock()
		if wanted {
			copy(dst, sb.GetMappedRange(0, uint(n)))
		}
		mu.Unlock()
		return sb.Unmap()
	})
	if err != nil {
		mu.Lock()
		wanted = false
		mu.Unlock()
	}
	return err
}
