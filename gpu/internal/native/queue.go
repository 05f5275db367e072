package native

// This file launches kernels: a queue is a stream of the library, on
// which each launch copies its uniform block into the queue's device
// memory and then runs, with the kernel arguments of the PTX contract
// (schema/ptx.go), which the HSACO contract takes over. A wait polls the
// streams, so that it ends when its context does.

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// queue is a stream of the device.
type queue struct {
	d        *Device
	stream   uintptr
	uniforms uintptr // maxUniformBytes of device memory
	// params holds a launch's argument values, then the addresses of
	// each (the launch takes an array of pointers to the values); it is
	// reused from launch to launch, pinned for each.
	params []uint64
	timer  Timer
}

var (
	_ driver.Queue = (*queue)(nil)
	_ driver.Timer = (*queue)(nil)
)

// NewQueue creates a stream and its uniform memory.
func (d *Device) NewQueue() (driver.Queue, error) {
	if err := d.usable("NewQueue"); err != nil {
		return nil, err
	}
	leave, err := d.Enter()
	if err != nil {
		return nil, err
	}
	defer leave()
	q := &queue{d: d}
	l := d.lib
	// Flags 0: a blocking stream, which the default (null) stream of
	// the buffers' copies waits for and orders itself before.
	if err := d.check(l.StreamCreate.Name, l.StreamCreate.Call(unsafe.Pointer(&q.stream), 0)); err != nil {
		return nil, d.failed(err)
	}
	if err := d.check(l.MemAlloc.Name+"(uniforms)", l.MemAlloc.Call(unsafe.Pointer(&q.uniforms), maxUniformBytes)); err != nil {
		l.StreamDestroy.Call(q.stream)
		return nil, d.failed(err)
	}
	d.mu.Lock()
	d.queues[q] = struct{}{}
	d.mu.Unlock()
	return q, nil
}

// Launch records a launch on the stream: the copy of its uniform block
// (staged by the library from host memory before the call returns, and
// run in stream order, after the launches before it have read the last
// one), then the kernel.
func (q *queue) Launch(ctx context.Context, p driver.Program, groups xpu.Dim3, bufs []driver.Buffer, uniforms []byte) error {
	d, l := q.d, q.d.lib
	if err := d.usable("Launch"); err != nil {
		return err
	}
	pr, ok := p.(*program)
	if !ok || pr.d != d || pr.released {
		return fmt.Errorf("%s: Launch: a program released or not of this device", l.Prefix)
	}
	if err := pr.takes(bufs, uniforms); err != nil {
		return fmt.Errorf("%s: %w", l.Prefix, err)
	}
	leave, err := d.Enter()
	if err != nil {
		return err
	}
	defer leave()
	if pr.uniformSize > 0 {
		if err := d.check(l.MemcpyHtoDAsync.Name+"(uniforms)", l.MemcpyHtoDAsync.Call(q.uniforms, unsafe.Pointer(&uniforms[0]), uintptr(pr.uniformSize), q.stream)); err != nil {
			return d.failed(err)
		}
	}
	if err := q.timer.Begin(q); err != nil {
		return err
	}
	if err := q.launch(pr, groups, bufs, uint64(q.uniforms)); err != nil {
		return d.failed(err)
	}
	return q.timer.End(q)
}

// launch calls the library's launch of pr over groups on q's stream,
// binding bufs and, where pr has scalars, the uniform block at device
// address uniforms (Launch's, or a graph's being captured). The caller
// has entered the device.
func (q *queue) launch(pr *program, groups xpu.Dim3, bufs []driver.Buffer, uniforms uint64) error {
	l := q.d.lib
	args := Launch{Buffers: pr.buffers, Fault: pr.art.Fault}
	if pr.uniformSize > 0 {
		args.Uniforms = uniforms
	}
	vals, err := Args(q.params, args, bufs, q.d.base)
	if err != nil {
		return fmt.Errorf("%s: kernel %s: %v", l.Prefix, pr.name, err)
	}
	b := pr.block
	var rc uint32
	q.params, rc = Call(vals, func(params unsafe.Pointer) uint32 {
		return l.LaunchKernel.Call(pr.fn, groups.X, max(groups.Y, 1), max(groups.Z, 1), b.X, max(b.Y, 1), max(b.Z, 1), 0, q.stream, params, nil)
	})
	if err := q.d.check(l.LaunchKernel.Name, rc); err != nil {
		return fmt.Errorf("%s: kernel %s over %dx%dx%d %s: %w", l.Prefix, pr.name, groups.X, groups.Y, groups.Z, l.Groups, err)
	}
	return nil
}

// Flush submits nothing: the library submits each launch as it is
// recorded.
func (q *queue) Flush(context.Context) error { return q.d.usable("Flush") }

// Sync waits for the stream's launches, no longer than ctx allows.
func (q *queue) Sync(ctx context.Context) error {
	if err := q.d.usable("Sync"); err != nil {
		return err
	}
	return q.d.wait(ctx, "Sync", []*queue{q})
}

// Release destroys the stream, which the library does once its work is
// done, and frees the uniform memory (the free waits for the work).
func (q *queue) Release() {
	d, l := q.d, q.d.lib
	d.streams.Lock()
	defer d.streams.Unlock()
	d.mu.Lock()
	_, live := d.queues[q]
	delete(d.queues, q)
	d.mu.Unlock()
	if !live {
		return
	}
	leave, err := d.Enter()
	if err != nil {
		return
	}
	defer leave()
	q.timer.Release(q)
	l.StreamDestroy.Call(q.stream)
	if !d.health.Lost() {
		d.failed(d.check(l.MemFree.Name+"(uniforms)", l.MemFree.Call(q.uniforms)))
	}
}

// waitAll waits for the work of every queue of the device.
func (d *Device) waitAll(ctx context.Context, call string) error {
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

// wait waits until the streams of qs are idle (Wait): blocking in the
// stream's synchronize without a context that can end, else polling its
// query.
func (d *Device) wait(ctx context.Context, call string, qs []*queue) error {
	leave, err := d.Enter()
	if err != nil {
		return err
	}
	defer leave()
	l := d.lib
	return Wait(ctx, &d.health, call, qs,
		func(q *queue) error { return d.check(l.StreamSynchronize.Name, l.StreamSynchronize.Call(q.stream)) },
		func(q *queue) (bool, error) {
			rc := l.StreamQuery.Call(q.stream)
			if rc == l.NotReady {
				return false, nil
			}
			return rc == 0, d.check(l.StreamQuery.Name, rc)
		})
}
