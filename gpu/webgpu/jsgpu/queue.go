//go:build js

package jsgpu

import (
	"errors"
	"fmt"
	"sync"
	"syscall/js"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// ringBytes is the size of a queue's uniform ring: the launches' scalars
// between two submits, each at an aligned offset (1024 launches at the
// usual 256-byte alignment).
const ringBytes = 256 << 10

// queue records launches into one command encoder and one compute pass,
// and submits them at Flush, at Sync, or when the uniform ring is full.
type queue struct {
	d *device

	mu     sync.Mutex // held across the wait of Sync
	ring   js.Value   // device uniform buffer, bound at dynamic offsets
	ringID uint64
	slab   []byte   // host image of the ring, written before each submit
	image  js.Value // Uint8Array of ringBytes, the slab's copy in JS
	used   int

	enc  js.Value // GPUCommandEncoder, when a pass is open
	cp   js.Value // GPUComputePassEncoder
	open bool
	pass uint64       // serial number of the open pass
	held []*bindGroup // bind groups the open pass set
	last *program     // pipeline set last in the open pass
	key  []byte       // scratch for bind group keys
	bufs []*buffer    // scratch for Launch
}

var _ driver.Queue = (*queue)(nil)

func (d *device) newQueue() (*queue, error) {
	ring, err := call(d.dev, "createBuffer", map[string]any{"usage": usageUniform | usageCopyDst, "size": ringBytes})
	if err != nil {
		return nil, fmt.Errorf("webgpu: uniform ring: %w", err)
	}
	return &queue{
		d: d, ring: ring, ringID: d.nextID.Add(1),
		slab:  make([]byte, ringBytes),
		image: js.Global().Get("Uint8Array").New(ringBytes),
	}, nil
}

// Launch records a dispatch of p over groups in the open pass.
func (q *queue) Launch(dp driver.Program, groups xpu.Dim3, bufs []driver.Buffer, uniforms []byte) error {
	p, ok := dp.(*program)
	if !ok || p.d != q.d {
		return fmt.Errorf("webgpu: launch of a program of another device or driver (%T)", dp)
	}
	if len(bufs) != p.buffers || len(uniforms) != p.uniforms {
		return fmt.Errorf("webgpu: kernel %s takes %d buffers and %d uniform bytes, got %d and %d",
			p.name, p.buffers, p.uniforms, len(bufs), len(uniforms))
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ring.IsUndefined() {
		return errors.New("webgpu: launch on a released queue")
	}
	q.bufs = q.bufs[:0]
	for i, db := range bufs {
		b, ok := db.(*buffer)
		if !ok || b.d != q.d || b.released {
			return fmt.Errorf("webgpu: kernel %s: buffer %d is not a live buffer of this device", p.name, i)
		}
		q.bufs = append(q.bufs, b)
	}
	slot := (p.uniforms + q.d.uniformAlign - 1) / q.d.uniformAlign * q.d.uniformAlign
	if q.used+slot > len(q.slab) {
		if err := q.submit(); err != nil {
			return err
		}
	}
	if !q.open {
		q.begin()
	}
	g, err := q.d.groups.hold(q, p, q.bufs)
	clear(q.bufs)
	if err != nil {
		return fmt.Errorf("webgpu: kernel %s: bind group: %w", p.name, err)
	}
	if q.last != p {
		q.cp.Call("setPipeline", p.pipeline)
		q.last = p
	}
	if p.uniforms > 0 {
		copy(q.slab[q.used:], uniforms)
		q.cp.Call("setBindGroup", 0, g, []any{q.used})
		q.used += slot
	} else {
		q.cp.Call("setBindGroup", 0, g)
	}
	q.cp.Call("dispatchWorkgroups", groups.X, groups.Y, groups.Z)
	return nil
}

// begin opens an encoder and a compute pass. The caller holds q.mu.
func (q *queue) begin() {
	q.enc = q.d.dev.Call("createCommandEncoder")
	q.cp = q.enc.Call("beginComputePass")
	q.open = true
	q.pass++
}

// submit ends the open pass, writes the ring and submits. The caller
// holds q.mu.
func (q *queue) submit() error {
	if !q.open {
		return nil
	}
	q.d.scope()
	defer q.d.unscope()
	_, errEnd := call(q.cp, "end")
	cmd, errFinish := call(q.enc, "finish")
	q.cp, q.enc, q.open, q.last = js.Value{}, js.Value{}, false, nil
	var errWrite, errSubmit error
	if errEnd == nil && errFinish == nil {
		if q.used > 0 {
			js.CopyBytesToJS(q.image, q.slab[:q.used])
			_, errWrite = call(q.d.queue, "writeBuffer", q.ring, 0, q.image, 0, q.used)
		}
		if errWrite == nil {
			_, errSubmit = call(q.d.queue, "submit", []any{cmd})
		}
	}
	q.used = 0
	q.d.groups.unhold(q.held)
	clear(q.held)
	q.held = q.held[:0]
	if err := errors.Join(errEnd, errFinish, errWrite, errSubmit); err != nil {
		return fmt.Errorf("webgpu: submit: %w", err)
	}
	return nil
}

// Flush submits what was recorded and returns the errors the device
// reported since the last check; it does not wait for the browser to
// check what it submits (Sync and Read do).
func (q *queue) Flush() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return errors.Join(q.submit(), q.d.takeErrors())
}

// Sync submits what was recorded and waits for the device to finish it.
func (q *queue) Sync() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	err := q.submit()
	_, werr := await(q.d.queue.Call("onSubmittedWorkDone"))
	return errors.Join(err, werr, q.d.settle())
}

// Release submits what is left and frees the ring.
func (q *queue) Release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ring.IsUndefined() {
		return
	}
	_ = q.submit()
	q.d.groups.evict(q.ringID)
	q.ring.Call("destroy")
	q.ring = js.Undefined()
}
