//go:build cgo

package webgpu

import (
	"errors"
	"fmt"
	"sync"

	"github.com/cogentcore/webgpu/wgpu"

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

	mu     sync.Mutex
	ring   *wgpu.Buffer // device uniform buffer, bound at dynamic offsets
	ringID uint64
	slab   []byte // host image of the ring, written before each submit
	used   int

	enc  *wgpu.CommandEncoder
	cp   *wgpu.ComputePassEncoder
	pass uint64       // serial number of the open pass
	held []*bindGroup // bind groups the open pass set
	last *program     // pipeline set last in the open pass
	key  []byte       // scratch for bind group keys
	bufs []*buffer    // scratch for Launch
	offs [1]uint32    // scratch for the dynamic offset
}

var _ driver.Queue = (*queue)(nil)

func (d *device) newQueue() (*queue, error) {
	ring, err := d.dev.CreateBuffer(&wgpu.BufferDescriptor{
		Usage: wgpu.BufferUsageUniform | wgpu.BufferUsageCopyDst,
		Size:  ringBytes,
	})
	if err != nil {
		return nil, fmt.Errorf("webgpu: uniform ring: %w", err)
	}
	return &queue{d: d, ring: ring, ringID: d.nextID.Add(1), slab: make([]byte, ringBytes)}, nil
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
	if q.ring == nil {
		return errors.New("webgpu: launch on a released queue")
	}
	q.bufs = q.bufs[:0]
	for i, db := range bufs {
		b, ok := db.(*buffer)
		if !ok || b.d != q.d || b.b == nil {
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
	if q.enc == nil {
		if err := q.begin(); err != nil {
			return err
		}
	}
	g, err := q.d.groups.hold(q, p, q.bufs)
	clear(q.bufs)
	if err != nil {
		return fmt.Errorf("webgpu: kernel %s: bind group: %w", p.name, err)
	}
	if q.last != p {
		q.cp.SetPipeline(p.pipeline)
		q.last = p
	}
	if p.uniforms > 0 {
		q.offs[0] = uint32(q.used)
		copy(q.slab[q.used:], uniforms)
		q.used += slot
		q.cp.SetBindGroup(0, g, q.offs[:])
	} else {
		q.cp.SetBindGroup(0, g, nil)
	}
	q.cp.DispatchWorkgroups(groups.X, groups.Y, groups.Z)
	return nil
}

// begin opens an encoder and a compute pass. The caller holds q.mu.
func (q *queue) begin() error {
	enc, err := q.d.dev.CreateCommandEncoder(nil)
	if err != nil {
		return fmt.Errorf("webgpu: command encoder: %w", err)
	}
	q.enc = enc
	q.cp = enc.BeginComputePass(nil)
	q.pass++
	return nil
}

// submit ends the open pass, writes the ring and submits. The caller
// holds q.mu.
func (q *queue) submit() error {
	if q.enc == nil {
		return nil
	}
	errEnd := q.cp.End()
	q.cp.Release()
	cmd, errFinish := q.enc.Finish(nil)
	q.enc.Release()
	q.cp, q.enc, q.last = nil, nil, nil
	var errWrite error
	if errEnd == nil && errFinish == nil {
		if q.used > 0 {
			errWrite = q.d.queue.WriteBuffer(q.ring, 0, q.slab[:q.used])
		}
		if errWrite == nil {
			q.d.queue.Submit(cmd)
		}
	}
	if cmd != nil {
		cmd.Release()
	}
	q.used = 0
	q.d.groups.unhold(q.held)
	clear(q.held)
	q.held = q.held[:0]
	if err := errors.Join(errEnd, errFinish, errWrite); err != nil {
		return fmt.Errorf("webgpu: submit: %w", err)
	}
	return nil
}

// Flush submits what was recorded.
func (q *queue) Flush() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.submit()
}

// Sync submits what was recorded and waits for the device to finish it.
func (q *queue) Sync() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	err := q.submit()
	q.d.wait()
	return err
}

// Release submits what is left and frees the ring.
func (q *queue) Release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.ring == nil {
		return
	}
	_ = q.submit()
	q.d.groups.evict(q.ringID)
	q.ring.Release()
	q.ring = nil
}
