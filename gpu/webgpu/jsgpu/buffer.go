//go:build js

package jsgpu

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu/internal/core"
)

// buffer is a GPUBuffer.
type buffer struct {
	b     js.Value
	size  int
	image js.Value // a Uint8Array as large, for uniforms; made on first use
}

// Release destroys the buffer; the core releases a buffer only once no
// pass it has not submitted uses it, as the browser refuses to submit a
// pass that uses a destroyed buffer.
func (b *buffer) Release() { b.b.Call("destroy") }

// CreateBuffer makes a buffer, zeroed by WebGPU.
func (d *device) CreateBuffer(usage core.Usage, size int) (core.Buffer, error) {
	b, err := call(d.dev, "createBuffer", map[string]any{"usage": int(usage), "size": size})
	if err != nil {
		return nil, err
	}
	return &buffer{b: b, size: size}, nil
}

// WriteBuffer writes data at offset through the queue.
func (d *device) WriteBuffer(b core.Buffer, offset int, data []byte) error {
	u8 := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(u8, data)
	_, err := call(d.queue, "writeBuffer", b.(*buffer).b, offset, u8)
	return err
}

// ReadBuffer copies n bytes of src at offset into dst through staging,
// and returns the errors the device reported since the last check.
func (d *device) ReadBuffer(ctx context.Context, src core.Buffer, offset int, staging core.Buffer, n int, dst []byte) error {
	sb := staging.(*buffer).b
	if err := d.copyOut(src.(*buffer).b, offset, sb, n); err != nil {
		return errors.Join(err, d.settle())
	}
	p, err := call(sb, "mapAsync", mapModeRead, 0, n)
	if err == nil {
		_, err = awaitContext(ctx, p)
	}
	if errors.Is(err, driver.ErrTimeout) {
		return fmt.Errorf("map: %w", err)
	}
	if err != nil {
		return errors.Join(fmt.Errorf("map: %w", err), d.settle())
	}
	u8 := js.Global().Get("Uint8Array").New(sb.Call("getMappedRange", 0, n))
	js.CopyBytesToGo(dst, u8)
	sb.Call("unmap")
	return d.settle()
}

// copyOut submits a copy of n bytes of src at offset to staging.
func (d *device) copyOut(src js.Value, offset int, staging js.Value, n int) error {
	d.scope()
	defer d.unscope()
	enc := d.dev.Call("createCommandEncoder")
	if _, err := call(enc, "copyBufferToBuffer", src, offset, staging, 0, n); err != nil {
		return err
	}
	_, err := call(d.queue, "submit", []any{enc.Call("finish")})
	return err
}
