//go:build linux && (amd64 || arm64)

package hip

// This file launches kernels: a queue is a HIP stream, on which each
// launch copies its uniform block into the queue's device memory and
// then runs, with the kernel arguments of the HSACO contract
// (schema/hsaco.go). A wait polls the streams, so that it ends when its
// context does.

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/internal/native"
)

// queue is a stream of the device.
type queue struct {
	d        *device
	stream   uintptr
	uniforms uintptr // maxUniformBytes of device memory
	// params holds a launch's argument values, then the addresses of
	// each (kernelParams is an array of pointers to the values); it is
	// reused from launch to launch, pinned for each.
	params []uint64
	timer  native.Timer
}

var (
	_ driver.Queue = (*queue)(nil)
	_ driver.Timer = (*queue)(nil)
)

// NewQueue creates a stream and its uniform memory.
func (d *device) NewQueue() (driver.Queue, error) {
	if err := d.usable("NewQueue"); err != nil {
		return nil, err
	}
	leave, err := d.enter()
	if err != nil {
		return nil, err
	}
	defer leave()
	q := &queue{d: d}
	// Flags 0 (hipStreamDefault): a blocking stream, which the null
	// stream (the buffers' copies) waits for and orders itself before.
	if err := d.api.check("hipStreamCreateWithFlags", d.api.streamCreate(unsafe.Pointer(&q.stream), 0)); err != nil {
		return nil, d.failed(err)
	}
	if err := d.api.check("hipMalloc(uniforms)", d.api.malloc(unsafe.Pointer(&q.uniforms), maxUniformBytes)); err != nil {
		d.api.streamDestroy(q.stream)
		return nil, d.failed(err)
	}
	d.mu.Lock()
	d.queues[q] = struct{}{}
	d.mu.Unlock()
	return q, nil
}

// Launch records a launch on the stream: the copy of its uniform block
// (staged by HIP from host memory before the call returns, and run in
// stream order, after the launches before it have read the last one),
// then the kernel.
func (q *queue) Launch(ctx context.Context, p driver.Program, groups xpu.Dim3, bufs []driver.Buffer, uniforms []byte) error {
	d := q.d
	if err := d.usable("Launch"); err != nil {
		return err
	}
	pr, ok := p.(*program)
	if !ok || pr.d != d || pr.released {
		return fmt.Errorf("hip: Launch: a program released or not of this device")
	}
	want := pr.buffers
	if pr.art.Fault {
		want++ // the fault word, last
	}
	if len(bufs) != want || len(uniforms) < pr.uniformSize || pr.uniformSize > maxUniformBytes {
		return fmt.Errorf("hip: kernel %s: a launch of %d buffers and %d bytes of uniforms; the kernel takes %d and %d",
			pr.name, len(bufs), len(uniforms), want, pr.uniformSize)
	}
	l := native.Launch{Buffers: pr.buffers, Fault: pr.art.Fault}
	if pr.uniformSize > 0 {
		l.Uniforms = uint64(q.uniforms)
	}
	vals, err := native.Args(q.params, l, bufs, d.base)
	if err != nil {
		return fmt.Errorf("hip: kernel %s: %v", pr.name, err)
	}
	leave, err := d.enter()
	if err != nil {
		return err
	}
	defer leave()
	if pr.uniformSize > 0 {
		if err := d.api.check("hipMemcpyHtoDAsync(uniforms)", d.api.memcpyHtoDAsy(q.uniforms, unsafe.Pointer(&uniforms[0]), uintptr(pr.uniformSize), q.stream)); err != nil {
			return d.failed(err)
		}
	}
	if err := q.timer.Begin(q); err != nil {
		return err
	}
	b := pr.block
	var rc uint32
	q.params, rc = native.Call(vals, func(params unsafe.Pointer) uint32 {
		return d.api.launchKernel(pr.fn, groups.X, max(groups.Y, 1), max(groups.Z, 1), b.X, max(b.Y, 1), max(b.Z, 1), 0, q.stream, params, nil)
	})
	if err := d.api.check("hipModuleLaunchKernel", rc); err != nil {
		return d.failed(fmt.Errorf("hip: kernel %s over %dx%dx%d workgroups: %w", pr.name, groups.X, groups.Y, groups.Z, err))
	}
	return q.timer.End(q)
}

// Flush submits nothing: HIP submits each launch as it is recorded.
func (q *queue) Flush(context.Context) error { return q.d.usable("Flush") }

// Sync waits for the stream's launches, no longer than ctx allows.
func (q *queue) Sync(ctx context.Context) error {
	if err := q.d.usable("Sync"); err != nil {
		return err
	}
	return q.d.wait(ctx, "Sync", []*queue{q})
}

// Release destroys the stream, which HIP does once its work is done, and
// frees the uniform memory (hipFree waits for the work).
func (q *queue) Release() {
	d := q.d
	d.streams.Lock()
	defer d.streams.Unlock()
	d.mu.Lock()
	_, live := d.queues[q]
	delete(d.queues, q)
	d.mu.Unlock()
	if !live {
		return
	}
	leave, err := d.enter()
	if err != nil {
		return
	}
	defer leave()
	q.timer.Release(q)
	d.api.streamDestroy(q.stream)
	if !d.health.Lost() {
		d.failed(d.api.check("hipFree(uniforms)", d.api.free(q.uniforms)))
	}
}

// waitAll waits for the work of every queue of the device.
func (d *device) waitAll(ctx context.Context, call string) error {
	d.streams.RLock()
	defer d.streams.RUnlock()
	d.mu.Lock()
	qs := make([]*queue, 0, len(d.queues))
	for q := range d.queues {
		qs = append(qs, q)
	}
	d.mu.Unlock()
	return d.wait(ctx, call, qs)
}

// wait waits until the streams of qs are idle (native.Wait): blocking
// in hipStreamSynchronize without a context that can end, else
// polling hipStreamQuery.
func (d *device) wait(ctx context.Context, call string, qs []*queue) error {
	leave, err := d.enter()
	if err != nil {
		return err
	}
	defer leave()
	return native.Wait(ctx, &d.health, call, qs,
		func(q *queue) error { return d.api.check("hipStreamSynchronize", d.api.streamSync(q.stream)) },
		func(q *queue) (bool, error) {
			rc := d.api.streamQuery(q.stream)
			if rc == hipErrNotReady {
				return false, nil
			}
			return rc == hipSuccess, d.api.check("hipStreamQuery", rc)
		})
}
